// Camera-facing particle quads: the part shared by every WGSL draw variant. The vertex entry point
// (which fetches the particle from instance attributes, a storage buffer or a state texture) is
// appended by src/particles/draw.ts.
struct DrawParams {
  // projection · view: one product per vertex takes the particle to clip space
  viewProjection: mat4x4f,
  // clip-space offsets of one world unit along the camera's right (x) and up (y) axes: the first
  // two columns of the projection, so a corner is a multiply-add, not a second matrix product
  cornerAxes: mat2x4f,
  colors: array<vec4f, 4>,
  colorStops: vec4f,
  // 1 / (stops[i + 1] - stops[i]) for i = 0..2 (w unused): no division per vertex
  colorScale: vec4f,
  // x: size factor at birth, y: at death, z: size in world units
  sizes: vec4f,
  width: u32,
  count: u32,
  // the target's size in pixels (drawMode 'splat')
  targetWidth: u32,
  targetHeight: u32,
  // the camera's right and up axes in the world; w: stretch, and 1 for billboard 'velocity'
  viewRight: vec4f,
  viewUp: vec4f,
};
@group(0) @binding(0) var<uniform> ps: DrawParams;

struct VertexOut {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  @location(1) uv: vec2f,
};

fn corner(i: u32) -> vec2f {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  return corners[i];
}

fn gradient(t: f32) -> vec4f {
  let f = clamp((vec3f(t) - ps.colorStops.xyz) * ps.colorScale.xyz, vec3f(0.0), vec3f(1.0));
  var c = mix(ps.colors[0], ps.colors[1], f.x);
  c = mix(c, ps.colors[2], f.y);
  return mix(c, ps.colors[3], f.z);
}

// a corner in the camera plane: as it is (camera-facing), or (billboard 'velocity') on axes that
// follow the velocity's projection on the camera plane, the long one stretched with its speed
fn billboard(c: vec2f, velocity: vec3f) -> vec2f {
  if (ps.viewUp.w < 0.5) { return c; }
  let onScreen = vec2f(dot(velocity, ps.viewRight.xyz), dot(velocity, ps.viewUp.xyz));
  let speed = length(onScreen);
  let along = select(vec2f(0.0, 1.0), onScreen / speed, speed > 1e-5);
  let across = vec2f(along.y, -along.x);
  return across * c.x + along * (c.y * (1.0 + ps.viewRight.w * speed));
}

fn shade(p: vec4f, v: vec4f, cornerIndex: u32) -> VertexOut {
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let halfSize = 0.5 * ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  let c = corner(cornerIndex);
  let position = ps.viewProjection * vec4f(p.xyz, 1.0) + ps.cornerAxes * (billboard(c, v.xyz) * halfSize);
  // a dead slot (emission: life < 0) goes outside the clip volume: no fragment work
  let culled = vec4f(2.0, 2.0, 2.0, 1.0);
  return VertexOut(select(culled, position, v.w > 0.0), gradient(t), c);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  let r2 = dot(in.uv, in.uv);
  return vec4f(in.color.rgb, in.color.a * (1.0 - smoothstep(0.25, 1.0, r2)));
}
