// Camera-facing particle quads for WebGL2: the particle state is read from the ping-pong (or CPU
// upload) textures with texelFetch. src/particles/draw.ts adds `#define PULLED` for the pulled mode
// (one non-instanced draw of 6·count vertices) after the #version line; otherwise one instanced
// draw of a 4-vertex triangle strip.
precision highp float;
precision highp int;
layout(std140) uniform DrawParams {
  mat4 viewProjection; // projection · view
  mat2x4 cornerAxes;   // clip-space offsets of one world unit along the camera's right and up
  vec4 colors[4];
  vec4 colorStops;
  vec4 colorScale;     // 1 / (stops[i + 1] - stops[i])
  vec4 sizes;
  uint width;
  uint count;
  uint targetWidth;  // drawMode 'splat' (WebGPU only)
  uint targetHeight;
  vec4 viewRight;    // the camera's right axis in the world; w: stretch
  vec4 viewUp;       // the camera's up axis in the world; w: 1 for billboard 'velocity'
} ps;
uniform highp sampler2D positionState;
uniform highp sampler2D velocityState;
out vec4 vColor;
out vec2 vUv;

const vec2 CORNERS[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
// instanced mode draws a 4-vertex triangle strip: strip vertex i uses corner STRIP[i]
const int STRIP[4] = int[4](0, 1, 5, 2);

vec4 gradient(float t) {
  vec3 f = clamp((vec3(t) - ps.colorStops.xyz) * ps.colorScale.xyz, 0.0, 1.0);
  vec4 c = mix(ps.colors[0], ps.colors[1], f.x);
  c = mix(c, ps.colors[2], f.y);
  return mix(c, ps.colors[3], f.z);
}

// a corner in the camera plane: as it is (camera-facing), or (billboard 'velocity') on axes that
// follow the velocity's projection on the camera plane, the long one stretched with its speed
vec2 billboard(vec2 c, vec3 velocity) {
  if (ps.viewUp.w < 0.5) return c;
  vec2 onScreen = vec2(dot(velocity, ps.viewRight.xyz), dot(velocity, ps.viewUp.xyz));
  float speed = length(onScreen);
  vec2 along = speed > 1e-5 ? onScreen / speed : vec2(0.0, 1.0);
  vec2 across = vec2(along.y, -along.x);
  return across * c.x + along * (c.y * (1.0 + ps.viewRight.w * speed));
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
  float halfSize = 0.5 * ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  vec2 c = CORNERS[cornerIndex];
  gl_Position = ps.viewProjection * vec4(p.xyz, 1.0) + ps.cornerAxes * (billboard(c, v.xyz) * halfSize);
  // a dead slot (emission: life < 0) goes outside the clip volume: no fragment work
  if (v.w <= 0.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
  vColor = gradient(t);
  vUv = c;
}
