// Camera-facing particle quads: the part shared by every WGSL draw variant. The vertex entry point
// (which fetches the particle from instance attributes, a storage buffer or a state texture) is
// appended by src/particles/draw.ts.
struct DrawParams {
  view: mat4x4f,
  projection: mat4x4f,
  colors: array<vec4f, 4>,
  colorStops: vec4f,
  // x: size factor at birth, y: at death, z: size in world units
  sizes: vec4f,
  width: u32,
  count: u32,
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
  let s = ps.colorStops;
  var c = ps.colors[0];
  c = mix(c, ps.colors[1], clamp((t - s.x) / max(s.y - s.x, 1e-6), 0.0, 1.0));
  c = mix(c, ps.colors[2], clamp((t - s.y) / max(s.z - s.y, 1e-6), 0.0, 1.0));
  c = mix(c, ps.colors[3], clamp((t - s.z) / max(s.w - s.z, 1e-6), 0.0, 1.0));
  return c;
}

fn shade(p: vec4f, v: vec4f, cornerIndex: u32) -> VertexOut {
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let size = ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  let c = corner(cornerIndex);
  let eye = ps.view * vec4f(p.xyz, 1.0);
  let position = ps.projection * vec4f(eye.xy + c * (0.5 * size), eye.z, eye.w);
  return VertexOut(position, gradient(t), c);
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4f {
  let r2 = dot(in.uv, in.uv);
  return vec4f(in.color.rgb, in.color.a * (1.0 - smoothstep(0.25, 1.0, r2)));
}
