// Ribbons (src/particles/ribbon.ts): a camera-facing strip through a sequence of samples, newest
// first. Trails: each particle's last positions (src/particles/trail-history.ts keeps them, newest
// at ring slot `ring.z`); links: the living particles in the order they were born (the emitter's
// ring of slots, newest at `ring.z`). Segment s joins sample s to sample s + 1, as two triangles,
// where both were recorded and `joins` says they belong together (a trail: one life — the newer
// sample is older in age, a birth restarts it; a link: both alive, born in order).
// `trailSample`, `joins`, `ribbonTint` and the vertex entry point are appended by ribbon.ts: from a storage
// buffer or a texture, instanced (a ribbon per instance) or pulled (one draw).
struct RibbonParams {
  viewProjection: mat4x4f,
  // the camera's position in the world (a ribbon turns its face to it)
  eye: vec4f,
  colorHead: vec4f,
  colorTail: vec4f,
  // x: the width at the head, y: at the tail (world units)
  widths: vec4f,
  // x: particles, y: the trail's length, z: the ring slot written last, w: samples recorded
  ring: vec4u,
  // the state texture's width and height (a ring slot is that many rows of the trail texture)
  grid: vec4u,
  // the particles' colour over life (trail/link `inherit`): four stops, their ages, 1 / their spans
  lifeColors: array<vec4f, 4>,
  lifeStops: vec4f,
  lifeScale: vec4f,
  // x: the size factor at birth, y: at death, z: 1 to inherit the particle's look, 0 not to;
  // w: the trail's fade in seconds (0: none)
  lifeSizes: vec4f,
  // per ring slot, the seconds between its record and the newest one (trails; the fade)
  since: array<vec4f, 16>,
};
@group(0) @binding(0) var<uniform> rp: RibbonParams;

struct RibbonOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  // x: along the trail (0 at the head, 1 at the tail), y: across it (0 to 1)
  @location(1) uv: vec2f,
};

// the particles' colour at t of their life (draw.wgsl's gradient)
fn lifeGradient(t: f32) -> vec4f {
  let f = clamp((vec3f(t) - rp.lifeStops.xyz) * rp.lifeScale.xyz, vec3f(0.0), vec3f(1.0));
  var c = mix(rp.lifeColors[0], rp.lifeColors[1], f.x);
  c = mix(c, rp.lifeColors[2], f.y);
  return mix(c, rp.lifeColors[3], f.z);
}

// the ring slot of the sample `back` steps ago
fn ringSlot(back: u32) -> u32 {
  return (rp.ring.z + rp.ring.y - back) % rp.ring.y;
}

// the seconds between sample `back` and the newest
fn sinceNewest(back: u32) -> f32 {
  let s = ringSlot(back);
  return rp.since[s / 4u][s % 4u];
}

// sample j is of the life of sample k (age `age`) when its age is k's plus the time between them:
// a later life was born after k's, so its ages are smaller; a dead slot's are 0
fn sameLife(particle: u32, j: u32, k: u32, age: f32) -> bool {
  let expected = age + sinceNewest(k) - sinceNewest(j);
  return abs(trailSample(particle, j).w - expected) <= 1e-4 + 1e-3 * expected;
}

// the seconds since the life of sample k ended: since its newest sample (0 for the current life).
// Samples 0..k are a later life's (or a dead slot's) up to some j, then k's: a binary search.
fn endedFor(particle: u32, k: u32, age: f32) -> f32 {
  if (sameLife(particle, 0u, k, age)) {
    return 0.0;
  }
  var lo = 1u;
  var hi = k;
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (sameLife(particle, mid, k, age)) {
      hi = mid;
    } else {
      lo = mid + 1u;
    }
  }
  return sinceNewest(lo);
}

fn ribbonVertex(particle: u32, vertex: u32) -> RibbonOut {
  var ends = array<u32, 6>(0u, 1u, 1u, 0u, 1u, 0u);
  var sides = array<f32, 6>(-1.0, -1.0, 1.0, -1.0, 1.0, 1.0);
  let segment = vertex / 6u;
  let corner = vertex - segment * 6u;
  var result: RibbonOut;
  // a segment that is not drawn: a corner of the target, a triangle of no area (draw.wgsl says why
  // not outside the clip volume)
  result.position = vec4f(-1.0, -1.0, 0.0, 1.0);
  result.color = vec4f(0.0);
  result.uv = vec2f(0.0);
  let filled = rp.ring.w;
  if (segment + 1u >= filled) {
    return result;
  }
  let a = trailSample(particle, segment);
  let b = trailSample(particle, segment + 1u);
  if (!joins(a, b)) {
    return result;
  }
  let end = ends[corner];
  let k = segment + end;
  let p = select(a, b, end == 1u);
  // the tangent at sample k: from its older neighbour to its newer one, within this life
  var newer = p.xyz;
  var older = p.xyz;
  if (k >= 1u) {
    let n = trailSample(particle, k - 1u);
    if (joins(n, p)) {
      newer = n.xyz;
    }
  }
  if (k + 1u < filled) {
    let o = trailSample(particle, k + 1u);
    if (joins(p, o)) {
      older = o.xyz;
    }
  }
  let side = cross(newer - older, rp.eye.xyz - p.xyz);
  let len = length(side);
  let t = f32(k) / f32(rp.ring.y - 1u);
  // inherit: the particle's look at the age it had at this sample (its end of life where the
  // sample's life is over or unknown)
  var look = vec4f(1.0);
  var size = 1.0;
  if (rp.lifeSizes.z > 0.5) {
    let life = sampleLife(particle, k, p.w);
    let lived = select(1.0, clamp(p.w / life, 0.0, 1.0), life > 0.0);
    look = lifeGradient(lived);
    size = mix(rp.lifeSizes.x, rp.lifeSizes.y, lived);
  }
  let halfWidth = 0.5 * mix(rp.widths.x, rp.widths.y, t) * size * sides[corner];
  let offset = select(vec3f(0.0), side * (halfWidth / len), len > 0.0);
  result.position = rp.viewProjection * vec4f(p.xyz + offset, 1.0);
  result.color = mix(rp.colorHead, rp.colorTail, t) * look * ribbonTint(particle);
  // the fade: an ended life's trail goes out over lifeSizes.w seconds
  if (rp.lifeSizes.w > 0.0) {
    result.color.a *= clamp(1.0 - endedFor(particle, k, p.w) / rp.lifeSizes.w, 0.0, 1.0);
  }
  result.uv = vec2f(t, 0.5 + 0.5 * sides[corner]);
  return result;
}
