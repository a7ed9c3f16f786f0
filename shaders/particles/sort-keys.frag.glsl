// The depth sort's keys on WebGL2 (the fragment path): sort-keys-texture.wgsl in GLSL ES 3.00.
// src/particles/sort.ts puts `#version 300 es` first.
precision highp float;
precision highp int;
layout(std140) uniform SortKeys {
  vec4 viewZ;
  uint count;
  uint total;
  uint particleWidth;
  uint sortWidth;
} u;
uniform highp sampler2D positionState;
uniform highp sampler2D velocityState;
out vec4 entry;

void main() {
  uvec2 texel = uvec2(gl_FragCoord.xy);
  uint i = texel.y * u.sortWidth + texel.x;
  float depth = 0.0;
  float last = 1.0;
  if (i < u.count) {
    ivec2 at = ivec2(int(i % u.particleWidth), int(i / u.particleWidth));
    vec4 p = texelFetch(positionState, at, 0);
    vec4 v = texelFetch(velocityState, at, 0);
    depth = dot(u.viewZ.xyz, p.xyz) + u.viewZ.w;
    last = v.w <= 0.0 ? 1.0 : 0.0;
  }
  entry = vec4(depth, float(i % 2048u), float(i / 2048u), last);
}
