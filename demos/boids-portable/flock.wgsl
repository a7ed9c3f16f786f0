// A flock written once, in ordinary WGSL, for WebGPU compute. Ignis runs it unchanged there, and
// translates it for the WebGL2 ping-pong and the CPU path (it has the gather shape: it reads any
// boid of `flockIn` and writes only its own boid of `flockOut`).
struct Boid {
  pos: vec2f,
  vel: vec2f,
};

struct Rules {
  dt: f32,
  radius: f32,            // neighbours within this distance are seen
  personalSpace: f32,     // and pushed away within this one
  cohesion: f32,
  alignment: f32,
  separation: f32,
  maxSpeed: f32,
  count: u32,
};

@group(0) @binding(0) var<uniform> rules: Rules;
@group(0) @binding(1) var<storage, read> flockIn: array<Boid>;
@group(0) @binding(2) var<storage, read_write> flockOut: array<Boid>;

fn wrap(p: vec2f) -> vec2f {
  return p - 2.0 * floor((p + 1.0) * 0.5);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= rules.count) {
    return;
  }
  let me = flockIn[i];
  var center = vec2f(0.0);
  var heading = vec2f(0.0);
  var push = vec2f(0.0);
  var seen = 0u;
  for (var j = 0u; j < rules.count; j++) {
    let d = flockIn[j].pos - me.pos;
    let dist = length(d);
    if (j == i || dist > rules.radius) {
      continue;
    }
    center += d;
    heading += flockIn[j].vel;
    seen++;
    if (dist < rules.personalSpace) {
      push -= d / max(dist * dist, 1e-4);
    }
  }
  var vel = me.vel;
  if (seen > 0u) {
    let n = f32(seen);
    vel += center / n * rules.cohesion + (heading / n - me.vel) * rules.alignment;
  }
  vel += push * rules.separation;
  let speed = length(vel);
  vel = select(vel, vel / speed * rules.maxSpeed, speed > rules.maxSpeed);
  flockOut[i] = Boid(wrap(me.pos + vel * rules.dt), vel);
}
