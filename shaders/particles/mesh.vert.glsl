// Mesh particles for WebGL2 (options.geometry): each particle drawn as a triangle mesh, its state
// read from the ping-pong (or CPU upload) textures with texelFetch. draw-params.glsl (the uniforms,
// the colour over life, the angle) comes before this file. src/particles/mesh-draw.ts adds
// `#define PULLED` for the pulled mode (one draw of corners · count vertices, the mesh read from
// the corner texture); otherwise an instanced indexed draw with the mesh as vertex attributes.
// `#define SORTED`: the i-th particle drawn is the depth sort's entry i; `#define TINTED`: the
// colour times the particle's tint attribute. shaders/particles/mesh.wgsl says how a mesh turns.
uniform highp sampler2D positionState;
uniform highp sampler2D velocityState;
#ifdef SORTED
uniform highp sampler2D sortOrder;
#endif
#ifdef TINTED
uniform highp sampler2D tintState;
#endif
#ifdef PULLED
uniform highp sampler2D meshCorners;
#else
layout(location = 0) in vec3 meshPosition;
layout(location = 1) in vec3 meshNormal;
#endif
out vec4 vColor;
out vec3 vNormal;
out vec3 vWorld; // the point in the world: lit, the shadow map (light.shadow) is tested per fragment

// the particle's turn (m) and its normals' (n): mesh.wgsl's meshTurn
void meshTurn(uint id, float life, float angle, vec3 velocity, out mat3 m, out mat3 n) {
  float s = sin(angle);
  float c = cos(angle);
  if (ps.viewUp.w < 0.5) {
    uint h = pcg(pcg((id * 747796405u) ^ floatBitsToUint(life)) ^ 0x9e3779b9u);
    float z = float(h & 0xffffu) / 65535.0 * 2.0 - 1.0;
    float phi = float(h >> 16u) / 65535.0 * 6.28318530718;
    float rxy = sqrt(max(1.0 - z * z, 0.0));
    vec3 a = vec3(rxy * cos(phi), rxy * sin(phi), z);
    float k = 1.0 - c;
    m = mat3(
      vec3(c + k * a.x * a.x, k * a.x * a.y + s * a.z, k * a.x * a.z - s * a.y),
      vec3(k * a.y * a.x - s * a.z, c + k * a.y * a.y, k * a.y * a.z + s * a.x),
      vec3(k * a.z * a.x + s * a.y, k * a.z * a.y - s * a.x, c + k * a.z * a.z));
    n = m;
    return;
  }
  float speed = length(velocity);
  vec3 y = speed > 1e-5 ? velocity / max(speed, 1e-30) : vec3(0.0, 1.0, 0.0);
  vec3 reference = abs(y.z) > 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 0.0, 1.0);
  vec3 x0 = normalize(cross(y, reference));
  vec3 z0 = cross(x0, y);
  vec3 x = x0 * c - z0 * s;
  vec3 zz = x0 * s + z0 * c;
  float stretch = 1.0 + ps.viewRight.w * speed;
  m = mat3(x, y * stretch, zz);
  n = mat3(x, y / stretch, zz);
}

void main() {
#ifdef PULLED
  int corners = int(ps.mesh.x);
  int drawn = gl_VertexID / corners;
  int corner = gl_VertexID - drawn * corners;
  int cw = textureSize(meshCorners, 0).x;
  ivec2 at = ivec2(corner - (corner / cw) * cw, 2 * (corner / cw));
  vec3 local = texelFetch(meshCorners, at, 0).xyz;
  vec3 normal = texelFetch(meshCorners, at + ivec2(0, 1), 0).xyz;
#else
  int drawn = gl_InstanceID;
  vec3 local = meshPosition;
  vec3 normal = meshNormal;
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
  float scale = ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  mat3 m;
  mat3 n;
  meshTurn(uint(particle), v.w, angleOf(uint(particle), v.w, p.w), v.xyz, m, n);
  vec3 world = p.xyz + m * (local * scale);
  gl_Position = ps.viewProjection * vec4(world, 1.0);
  // a dead slot (emission: life < 0) collapses to a corner of the target: a triangle of no area,
  // which no rasteriser samples (draw.wgsl says why not outside the clip volume)
  if (v.w <= 0.0) gl_Position = vec4(-1.0, -1.0, 0.0, 1.0);
#ifdef TINTED
  vColor = gradient(t) * texelFetch(tintState, texel, 0);
#else
  vColor = gradient(t);
#endif
  vNormal = n * normal;
  vWorld = world;
}
