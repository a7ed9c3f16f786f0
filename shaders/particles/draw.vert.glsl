// Camera-facing particle quads for WebGL2: the particle state is read from the ping-pong (or CPU
// upload) textures with texelFetch. src/particles/draw.ts adds `#define PULLED` for the pulled mode
// (one non-instanced draw of 6·count vertices) after the #version line; otherwise one instanced
// draw of a 4-vertex triangle strip.
precision highp float;
precision highp int;
layout(std140) uniform DrawParams {
  mat4 view;
  mat4 projection;
  vec4 colors[4];
  vec4 colorStops;
  vec4 sizes;
  uint width;
  uint count;
} ps;
uniform highp sampler2D positionState;
uniform highp sampler2D velocityState;
out vec4 vColor;
out vec2 vUv;

const vec2 CORNERS[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
// instanced mode draws a 4-vertex triangle strip: strip vertex i uses corner STRIP[i]
const int STRIP[4] = int[4](0, 1, 5, 2);

vec4 gradient(float t) {
  vec4 s = ps.colorStops;
  vec4 c = ps.colors[0];
  c = mix(c, ps.colors[1], clamp((t - s.x) / max(s.y - s.x, 1e-6), 0.0, 1.0));
  c = mix(c, ps.colors[2], clamp((t - s.y) / max(s.z - s.y, 1e-6), 0.0, 1.0));
  c = mix(c, ps.colors[3], clamp((t - s.z) / max(s.w - s.z, 1e-6), 0.0, 1.0));
  return c;
}

void main() {
#ifdef PULLED
  int particle = gl_VertexID / 6;
  int cornerIndex = gl_VertexID - particle * 6;
#else
  int particle = gl_InstanceID;
  int cornerIndex = STRIP[gl_VertexID];
#endif
  int w = int(ps.width);
  ivec2 texel = ivec2(particle - (particle / w) * w, particle / w);
  vec4 p = texelFetch(positionState, texel, 0);
  vec4 v = texelFetch(velocityState, texel, 0);
  float t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  float size = ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  vec2 c = CORNERS[cornerIndex];
  vec4 eye = ps.view * vec4(p.xyz, 1.0);
  gl_Position = ps.projection * vec4(eye.xy + c * (0.5 * size), eye.z, eye.w);
  vColor = gradient(t);
  vUv = c;
}
