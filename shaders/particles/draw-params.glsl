// The particle draw's uniforms (DrawParams, std140: src/particles/draw-params.ts packs it) and the
// helpers every WebGL2 particle vertex stage shares: the colour over life, the particle's hash and
// angle. src/particles/draw.ts puts it before draw.vert.glsl and draw.frag.glsl (camera-facing
// quads) and src/particles/mesh-draw.ts before mesh.vert.glsl and mesh.frag.glsl (mesh particles),
// after the #version and defines.
precision highp float;
precision highp int;
layout(std140) uniform DrawParams {
  mat4 viewProjection; // projection · view
  mat2x4 cornerAxes;   // clip-space offsets of one world unit along the camera's right and up
  vec4 colors[4];
  vec4 colorStops;
  vec4 colorScale;     // 1 / (stops[i + 1] - stops[i])
  vec4 sizes;        // birth and death factors, world size, the sort order's texture width
  uint width;
  uint count;
  uint targetWidth;  // drawMode 'splat' (WebGPU only)
  uint targetHeight;
  vec4 viewRight;    // the camera's right axis in the world; w: stretch
  vec4 viewUp;       // the camera's up axis in the world; w: 1 for billboard 'velocity'
  vec4 sprite;       // flipbook: columns, rows, frames per unit of speed, flags (1: by speed, 2: fade)
  vec4 spin;         // angle at birth in [x, y], spin in [z, w] radians per second
  vec4 soft;         // soft particles: fade distance (0: off), projection [2][2] and [3][2]
  vec4 light;        // lit particles: towards the light (world, unit), w 1 when lit
  vec4 lightColor;
  vec4 ambient;
  vec4 mesh;         // mesh particles: x the corners of one mesh
  mat4 shadowMatrix; // lit particles' shadow map: world to the light's clip space
  vec4 shadow;       // x the bias, y 1 when the shadow map is read
} ps;

// lit particles: the light's colour reaching the world point `p` — with `#define SHADOW`
// (light.shadow) times the shadow map's test there (draw.wgsl's shadow.wgsl says how: nine texels,
// WebGPU's clip z as both backends store it, row 0 at the top)
#ifdef SHADOW
uniform highp sampler2D shadowMap;
float shadowVisibility(vec3 p) {
  vec4 clip = ps.shadowMatrix * vec4(p, 1.0);
  vec3 ndc = clip.xyz / clip.w;
  if (clip.w <= 0.0 || abs(ndc.x) > 1.0 || abs(ndc.y) > 1.0 || ndc.z < 0.0 || ndc.z > 1.0) return 1.0;
  ivec2 size = textureSize(shadowMap, 0);
  ivec2 texel = ivec2(floor(vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * vec2(size)));
  float lit = 0.0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      ivec2 t = clamp(texel + ivec2(dx, dy), ivec2(0), size - ivec2(1));
      lit += ndc.z - ps.shadow.x <= texelFetch(shadowMap, t, 0).r ? 1.0 : 0.0;
    }
  return lit / 9.0;
}
vec4 lightColorAt(vec3 p) { return ps.lightColor * shadowVisibility(p); }
#else
vec4 lightColorAt(vec3 p) { return ps.lightColor; }
#endif

vec4 gradient(float t) {
  vec3 f = clamp((vec3(t) - ps.colorStops.xyz) * ps.colorScale.xyz, 0.0, 1.0);
  vec4 c = mix(ps.colors[0], ps.colors[1], f.x);
  c = mix(c, ps.colors[2], f.y);
  return mix(c, ps.colors[3], f.z);
}

uint pcg(uint v) {
  uint s = v * 747796405u + 2891336453u;
  uint w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
  return (w >> 22u) ^ w;
}

// the particle's angle: its own random start and spin (hashed from its slot and its life), the
// spin applied over its age; `#define UPRIGHT` (draw.ts: every angle and spin 0) makes it 0
float angleOf(uint id, float life, float age) {
#ifdef UPRIGHT
  return 0.0;
#endif
  uint h = pcg((id * 747796405u) ^ floatBitsToUint(life));
  vec2 r = vec2(float(h & 0xffffu), float(h >> 16u)) / 65535.0;
  return mix(ps.spin.x, ps.spin.y, r.x) + mix(ps.spin.z, ps.spin.w, r.y) * age;
}

vec2 rotate(vec2 c, float angle) {
  float s = sin(angle);
  float k = cos(angle);
  return vec2(c.x * k - c.y * s, c.x * s + c.y * k);
}
