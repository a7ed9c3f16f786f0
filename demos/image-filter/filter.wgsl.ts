/**
 * The demo's filter, ordinary WGSL for WebGPU: the picture swirled about its centre (sampled
 * bilinear with `textureSampleLevel`), with a gain, and Sobel edges of the picture's luma
 * (`textureLoad`) blended over it — one `textureStore` at the invocation's own texel, so on
 * WebGL2 it runs as a fragment pass into the texture (the ping-pong's image form).
 */
export const FILTER_WGSL = /* wgsl */ `struct Params { gain: f32, edges: f32, swirl: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var picture: texture_2d<f32>;
@group(0) @binding(2) var filtered: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(3) var bilinear: sampler;

fn luma(p: vec2i, size: vec2i) -> f32 {
  let c = textureLoad(picture, clamp(p, vec2i(0), size - 1), 0);
  return dot(c.rgb, vec3f(0.2126, 0.7152, 0.0722));
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let size = vec2i(textureDimensions(picture));
  let p = vec2i(gid.xy);
  if (p.x >= size.x || p.y >= size.y) { return; }
  let gx = luma(p + vec2i(1, -1), size) + 2.0 * luma(p + vec2i(1, 0), size) + luma(p + vec2i(1, 1), size)
    - luma(p + vec2i(-1, -1), size) - 2.0 * luma(p + vec2i(-1, 0), size) - luma(p + vec2i(-1, 1), size);
  let gy = luma(p + vec2i(-1, 1), size) + 2.0 * luma(p + vec2i(0, 1), size) + luma(p + vec2i(1, 1), size)
    - luma(p + vec2i(-1, -1), size) - 2.0 * luma(p + vec2i(0, -1), size) - luma(p + vec2i(1, -1), size);
  let edge = clamp(length(vec2f(gx, gy)), 0.0, 1.0);
  let d = (vec2f(p) + 0.5) / vec2f(size) - 0.5;
  let angle = params.swirl * max(0.0, 0.5 - length(d)) * 6.0;
  let r = vec2f(d.x * cos(angle) - d.y * sin(angle), d.x * sin(angle) + d.y * cos(angle));
  let c = textureSampleLevel(picture, bilinear, r + 0.5, 0.0).rgb * params.gain;
  let glow = vec3f(1.0, 0.8, 0.3) * edge;
  textureStore(filtered, p, vec4f(mix(c, glow, params.edges), 1.0));
}
`;
