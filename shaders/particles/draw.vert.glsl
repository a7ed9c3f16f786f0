// Camera-facing particle quads for WebGL2: the particle state is read from the ping-pong (or CPU
// upload) textures with texelFetch. src/particles/draw.ts adds `#define PULLED` for the pulled mode
// (one non-instanced draw of 6·count vertices) after the #version line; otherwise one instanced
// draw of a 4-vertex triangle strip. `#define SORTED` (options.sort): the i-th particle drawn is
// the slot the depth sort put at entry i (src/particles/sort.ts: y + 2048 z of sortOrder's texel i).
// `#define TINTED`: the colour times the particle's tint attribute (a sub-emitter's inheritColor).
// draw-params.glsl (the uniforms, the colour over life, the angle) comes before this file.
uniform highp sampler2D positionState;
uniform highp sampler2D velocityState;
#ifdef SORTED
uniform highp sampler2D sortOrder;
#endif
#ifdef TINTED
// a sub-emitter's inheritColor: each particle's colour times its tint attribute
uniform highp sampler2D tintState;
#endif
out vec4 vColor;
out vec2 vUv;     // the corner before any rotation: the disc's falloff and the sprite's uv
// the flipbook: where this corner lies in the image (0..1, rows top first) in this frame's cell,
// in the next frame's, and the cross-fade into it (draw.wgsl's VertexOut says why per corner)
out vec2 vSheetUv;
out vec2 vNextUv;
flat out float vFade;
flat out vec2 vAgeLife;  // the particle's age and life (a custom look's p.age, p.life)
#ifdef LIT
// the light in the corner's frame of a turned quad (draw.wgsl's shade says how; an upright quad's
// frame is the camera's, and the fragment stage takes it from the uniforms) and, with a shadow
// map, its colour reaching the particle (the fragment stage reads the rest from the uniforms)
#ifndef UPRIGHT
flat out vec4 vLight;
#endif
#ifdef SHADOW
flat out vec4 vLightColor;
#endif
#endif

const vec2 CORNERS[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
// instanced mode draws a 4-vertex triangle strip: strip vertex i uses corner STRIP[i]
const int STRIP[4] = int[4](0, 1, 5, 2);

// the top-left uv of flipbook frame `frame` (left to right, top to bottom)
vec2 cellOf(float frame) {
  float row = floor(frame / ps.sprite.x);
  return vec2(frame - row * ps.sprite.x, row) / ps.sprite.xy;
}

// a corner in the camera plane: as it is (camera-facing), or (billboard 'velocity') on axes that
// follow the velocity's projection on the camera plane, the long one stretched with its speed;
// `#define FACING` (draw.ts: billboard 'camera') leaves out the test and the rest
vec2 billboard(vec2 c, vec3 velocity) {
#ifdef FACING
  return c;
#endif
  if (ps.viewUp.w < 0.5) return c;
  vec2 onScreen = vec2(dot(velocity, ps.viewRight.xyz), dot(velocity, ps.viewUp.xyz));
  float speed = length(onScreen);
  vec2 along = speed > 1e-5 ? onScreen / speed : vec2(0.0, 1.0);
  vec2 across = vec2(along.y, -along.x);
  return across * c.x + along * (c.y * (1.0 + ps.viewRight.w * speed));
}

void main() {
#ifdef PULLED
  int drawn = gl_VertexID / 6;
  int cornerIndex = gl_VertexID - drawn * 6;
#else
  int drawn = gl_InstanceID;
  int cornerIndex = STRIP[gl_VertexID];
#endif
#ifdef SORTED
  int sw = int(ps.sizes.w);
  vec4 entry = texelFetch(sortOrder, ivec2(drawn - (drawn / sw) * sw, drawn / sw), 0);
  int particle = int(entry.y) + 2048 * int(entry.z);
#else
  int particle = drawn;
#endif
  int w = int(ps.width);
  ivec2 texel = ivec2(particle - (particle / w) * w, particle / w);
  vec4 p = texelFetch(positionState, texel, 0);
  vec4 v = texelFetch(velocityState, texel, 0);
  float t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  float halfSize = 0.5 * ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  vec2 c = CORNERS[cornerIndex];
  float angle = angleOf(uint(particle), v.w, p.w);
  vec2 turned = rotate(c, angle);
  gl_Position = ps.viewProjection * vec4(p.xyz, 1.0) + ps.cornerAxes * (billboard(turned, v.xyz) * halfSize);
  uint flags = uint(ps.sprite.w);
  float frames = ps.sprite.x * ps.sprite.y;
  float f = clamp((flags & 1u) != 0u ? length(v.xyz) * ps.sprite.z : t * frames, 0.0, frames - 1.0);
  float frame = floor(f);
  vec2 local = (vec2(c.x, -c.y) * 0.5 + 0.5) / ps.sprite.xy;
  vSheetUv = cellOf(frame) + local;
  vNextUv = cellOf(min(frame + 1.0, frames - 1.0)) + local;
  vFade = (flags & 2u) != 0u ? f - frame : 0.0;
  vAgeLife = vec2(p.w, v.w);
#ifdef LIT
#ifndef UPRIGHT
  vec3 l = ps.light.xyz;
  vLight = vec4(rotate(vec2(dot(l, ps.viewRight.xyz), dot(l, ps.viewUp.xyz)), -angle), dot(l, cross(ps.viewRight.xyz, ps.viewUp.xyz)), ps.light.w);
#endif
#ifdef SHADOW
  vLightColor = lightColorAt(p.xyz);
#endif
#endif
  // a dead slot (emission: life < 0) collapses to a corner of the target: a triangle of no area,
  // which no rasteriser samples (draw.wgsl says why not outside the clip volume)
  if (v.w <= 0.0) gl_Position = vec4(-1.0, -1.0, 0.0, 1.0);
#ifdef TINTED
  vColor = gradient(t) * texelFetch(tintState, texel, 0);
#else
  vColor = gradient(t);
#endif
  vUv = c;
}
