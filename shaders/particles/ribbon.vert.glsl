// Ribbons for WebGL2 (src/particles/ribbon.ts; ribbon.wgsl says how a ribbon is made): a trail's
// samples are texelFetched from the trail texture, ring slot s at rows [s·h, (s+1)·h); with
// `#define LINK`, a link's from the state textures (slot s at texel (s % w, s / w)), a dead slot's
// age as −1. ribbon.ts adds `#define PULLED` for one non-instanced draw; otherwise a ribbon per
// instance.
precision highp float;
precision highp int;
layout(std140) uniform RibbonParams {
  mat4 viewProjection;
  vec4 eye;        // the camera's position in the world
  vec4 colorHead;
  vec4 colorTail;
  vec4 widths;     // x: the width at the head, y: at the tail
  uvec4 ring;      // particles, the trail's length, the ring slot written last, samples recorded
  uvec4 grid;      // the state texture's width and height
  vec4 lifeColors[4]; // the particles' colour over life (inherit): four stops
  vec4 lifeStops;  // their ages
  vec4 lifeScale;  // 1 / their spans
  vec4 lifeSizes;  // x: the size factor at birth, y: at death, z: 1 to inherit, 0 not to, w: fade
  vec4 since[16];  // per ring slot, the seconds between its record and the newest (the fade)
} rp;
#ifdef LINK
uniform highp sampler2D positionState;
#else
uniform highp sampler2D trail;
#endif
uniform highp sampler2D velocityState;
#ifdef TINTED
// a trail of a sub-emitter's inheritColor: its particle's tint
uniform highp sampler2D tintState;
#endif
out vec4 vColor;
out vec2 vUv;

const uint ENDS[6] = uint[6](0u, 1u, 1u, 0u, 1u, 0u);
const float SIDES[6] = float[6](-1.0, -1.0, 1.0, -1.0, 1.0, 1.0);

#ifdef LINK
// the slot of ribbon `ribbon`'s sample `back` (ribbon.ts LINK_SLOT): grid.z ribbons dealt
// interleaved (grid.w 0) or in blocks (grid.w 1)
uint linkSlot(uint ribbon, uint back) {
  uint samples = rp.ring.y;
  if (rp.grid.w == 1u) return ribbon * samples + samples - 1u - back;
  uint k = rp.grid.z;
  uint newest = ((rp.ring.z + k * samples - ribbon) / k) % samples;
  return ribbon + k * ((newest + samples - back) % samples);
}
vec4 trailSample(uint particle, uint back) {
  uint slot = linkSlot(particle, back);
  ivec2 texel = ivec2(int(slot % rp.grid.x), int(slot / rp.grid.x));
  vec4 p = texelFetch(positionState, texel, 0);
  vec4 v = texelFetch(velocityState, texel, 0);
  return vec4(p.xyz, p.w < v.w ? p.w : -1.0);
}
bool joins(vec4 a, vec4 b) {
  return a.w >= 0.0 && b.w >= 0.0 && a.w <= b.w;
}
float sampleLife(uint particle, uint back, float age) {
  uint slot = linkSlot(particle, back);
  return texelFetch(velocityState, ivec2(int(slot % rp.grid.x), int(slot / rp.grid.x)), 0).w;
}
#else
vec4 trailSample(uint particle, uint back) {
  uint slot = (rp.ring.z + rp.ring.y - back) % rp.ring.y;
  ivec2 texel = ivec2(int(particle % rp.grid.x), int(slot * rp.grid.y + particle / rp.grid.x));
  return texelFetch(trail, texel, 0);
}
bool joins(vec4 a, vec4 b) {
  return a.w > b.w;
}
// the particle's life for a sample of its current life; -1 for a life before it, or the dead
float sampleLife(uint particle, uint back, float age) {
  if (age > trailSample(particle, 0u).w) return -1.0;
  return texelFetch(velocityState, ivec2(int(particle % rp.grid.x), int(particle / rp.grid.x)), 0).w;
}
#endif

// the seconds between sample `back` and the newest
float sinceNewest(uint back) {
  uint s = (rp.ring.z + rp.ring.y - back) % rp.ring.y;
  return rp.since[s / 4u][s % 4u];
}
// sample j is of the life of sample k (age `age`) when its age is k's plus the time between them
bool sameLife(uint particle, uint j, uint k, float age) {
  float expected = age + sinceNewest(k) - sinceNewest(j);
  return abs(trailSample(particle, j).w - expected) <= 1e-4 + 1e-3 * expected;
}
// the seconds since the life of sample k ended (0 for the current life): a binary search
float endedFor(uint particle, uint k, float age) {
  if (sameLife(particle, 0u, k, age)) return 0.0;
  uint lo = 1u;
  uint hi = k;
  while (lo < hi) {
    uint mid = (lo + hi) / 2u;
    if (sameLife(particle, mid, k, age)) hi = mid;
    else lo = mid + 1u;
  }
  return sinceNewest(lo);
}

// the particles' colour at t of their life (draw.vert.glsl's gradient)
vec4 lifeGradient(float t) {
  vec3 f = clamp((vec3(t) - rp.lifeStops.xyz) * rp.lifeScale.xyz, vec3(0.0), vec3(1.0));
  vec4 c = mix(rp.lifeColors[0], rp.lifeColors[1], f.x);
  c = mix(c, rp.lifeColors[2], f.y);
  return mix(c, rp.lifeColors[3], f.z);
}

void main() {
#ifdef PULLED
  uint per = 6u * (rp.ring.y - 1u);
  uint particle = uint(gl_VertexID) / per;
  uint vertex = uint(gl_VertexID) - particle * per;
#else
  uint particle = uint(gl_InstanceID);
  uint vertex = uint(gl_VertexID);
#endif
  uint segment = vertex / 6u;
  uint corner = vertex - segment * 6u;
  // a segment that is not drawn: a triangle of no area (draw.wgsl says why)
  gl_Position = vec4(-1.0, -1.0, 0.0, 1.0);
  vColor = vec4(0.0);
  vUv = vec2(0.0);
  uint filled = rp.ring.w;
  if (segment + 1u >= filled) return;
  vec4 a = trailSample(particle, segment);
  vec4 b = trailSample(particle, segment + 1u);
  if (!joins(a, b)) return;
  uint end = ENDS[corner];
  uint k = segment + end;
  vec4 p = end == 1u ? b : a;
  vec3 newer = p.xyz;
  vec3 older = p.xyz;
  if (k >= 1u) {
    vec4 n = trailSample(particle, k - 1u);
    if (joins(n, p)) newer = n.xyz;
  }
  if (k + 1u < filled) {
    vec4 o = trailSample(particle, k + 1u);
    if (joins(p, o)) older = o.xyz;
  }
  vec3 side = cross(newer - older, rp.eye.xyz - p.xyz);
  float len = length(side);
  float t = float(k) / float(rp.ring.y - 1u);
  // inherit: the particle's look at the age it had at this sample
  vec4 look = vec4(1.0);
  float size = 1.0;
  if (rp.lifeSizes.z > 0.5) {
    float life = sampleLife(particle, k, p.w);
    float lived = life > 0.0 ? clamp(p.w / life, 0.0, 1.0) : 1.0;
    look = lifeGradient(lived);
    size = mix(rp.lifeSizes.x, rp.lifeSizes.y, lived);
  }
  float halfWidth = 0.5 * mix(rp.widths.x, rp.widths.y, t) * size * SIDES[corner];
  vec3 offset = len > 0.0 ? side * (halfWidth / len) : vec3(0.0);
  gl_Position = rp.viewProjection * vec4(p.xyz + offset, 1.0);
  vColor = mix(rp.colorHead, rp.colorTail, t) * look;
#ifdef TINTED
  vColor *= texelFetch(tintState, ivec2(int(particle % rp.grid.x), int(particle / rp.grid.x)), 0);
#endif
  // the fade: an ended life's trail goes out over lifeSizes.w seconds
  if (rp.lifeSizes.w > 0.0) vColor.a *= clamp(1.0 - endedFor(particle, k, p.w) / rp.lifeSizes.w, 0.0, 1.0);
  vUv = vec2(t, 0.5 + 0.5 * SIDES[corner]);
}
