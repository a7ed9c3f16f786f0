// Boids (Reynolds 1987): cohesion, separation, alignment over every other boid, read from one
// storage buffer and written to another (the caller swaps them each step). Plain WGSL for raw
// WebGPU: Ignis binds @group(0) slot by slot, so it runs unchanged.
struct Boid {
  pos: vec2f,
  vel: vec2f,
};

struct SimParams {
  deltaT: f32,
  cohesionDistance: f32,
  separationDistance: f32,
  alignmentDistance: f32,
  cohesionScale: f32,
  separationScale: f32,
  alignmentScale: f32,
  count: u32,
};

@binding(0) @group(0) var<uniform> params: SimParams;
@binding(1) @group(0) var<storage, read> boidsIn: array<Boid>;
@binding(2) @group(0) var<storage, read_write> boidsOut: array<Boid>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= params.count) {
    return;
  }
  var pos = boidsIn[i].pos;
  var vel = boidsIn[i].vel;
  var center = vec2f(0.0);
  var centerCount = 0u;
  var separation = vec2f(0.0);
  var alignment = vec2f(0.0);
  var alignmentCount = 0u;
  for (var j = 0u; j < params.count; j++) {
    if (j == i) {
      continue;
    }
    let other = boidsIn[j];
    let d = distance(other.pos, pos);
    if (d < params.cohesionDistance) {
      center += other.pos;
      centerCount++;
    }
    if (d < params.separationDistance) {
      separation -= other.pos - pos;
    }
    if (d < params.alignmentDistance) {
      alignment += other.vel;
      alignmentCount++;
    }
  }
  if (centerCount > 0u) {
    center = center / f32(centerCount) - pos;
  }
  if (alignmentCount > 0u) {
    alignment = alignment / f32(alignmentCount);
  }
  vel += center * params.cohesionScale + separation * params.separationScale + alignment * params.alignmentScale;
  vel = normalize(vel) * clamp(length(vel), 0.0, 0.1);
  pos += vel * params.deltaT;
  // wrap around the [-1, 1] square
  pos = select(pos, pos + 2.0, pos < vec2f(-1.0));
  pos = select(pos, pos - 2.0, pos > vec2f(1.0));
  boidsOut[i] = Boid(pos, vel);
}
