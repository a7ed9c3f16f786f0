// The textured look (options.texture): appended to draw.wgsl for pipelines that draw an image per
// particle instead of the disc. The corner's uv (-1..1, y up) becomes the frame cell's uv (0..1,
// y down, as the image's rows), tinted by the colour over life; `fade` cross-fades to the next frame.
@group(0) @binding(3) var sprite: texture_2d<f32>;
@group(0) @binding(4) var spriteSampler: sampler;

fn sprited(in: VertexOut) -> vec4f {
  let local = (vec2f(in.uv.x, -in.uv.y) * 0.5 + 0.5) * in.fade.yz;
  let a = textureSample(sprite, spriteSampler, in.cells.xy + local);
  let b = textureSample(sprite, spriteSampler, in.cells.zw + local);
  return in.color * mix(a, b, in.fade.x);
}
