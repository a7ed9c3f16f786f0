// The depth sort's keys where the particle state is in textures (the fragment path on WebGPU):
// one fullscreen pass over the entries' texture, entry i at texel (i % sortWidth, i / sortWidth),
// slot i's state at (i % particleWidth, i / particleWidth). The same keys as sort-keys.wgsl.
struct SortKeys {
  viewZ: vec4f,
  count: u32,
  total: u32,
  particleWidth: u32,
  sortWidth: u32,
}
@group(0) @binding(0) var<uniform> u: SortKeys;
@group(0) @binding(1) var positionState: texture_2d<f32>;
@group(0) @binding(2) var velocityState: texture_2d<f32>;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment fn fs(@builtin(position) frag: vec4f) -> @location(0) vec4f {
  let texel = vec2u(frag.xy);
  let i = texel.y * u.sortWidth + texel.x;
  var depth = 0.0;
  var last = 1.0;
  if (i < u.count) {
    let at = vec2i(i32(i % u.particleWidth), i32(i / u.particleWidth));
    let p = textureLoad(positionState, at, 0);
    let v = textureLoad(velocityState, at, 0);
    depth = dot(u.viewZ.xyz, p.xyz) + u.viewZ.w;
    last = select(0.0, 1.0, v.w <= 0.0);
  }
  return vec4f(depth, f32(i % 2048u), f32(i / 2048u), last);
}
