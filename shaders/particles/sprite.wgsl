// The textured look (options.texture): appended to draw.wgsl for pipelines that draw an image per
// particle instead of the disc. The corner's uv (-1..1, y up) becomes the frame cell's uv (0..1,
// y down, as the image's rows), tinted by the colour over life; `fade` cross-fades to the next frame.
@group(0) @binding(3) var sprite: texture_2d<f32>;
@group(0) @binding(4) var spriteSampler: sampler;

// A flipbook image (the sprite, light.normalMap) at a corner's uv: this frame's cell, cross-faded
// into the next one's. uv, cells and fade are the vertex stage's (VertexOut's fields of those
// names). A pipeline whose sheet does not blend (spriteSheet.blend false, or one frame) has the
// marked lines replaced by `return a;` (draw.ts): one read a pixel, not two.
fn flipbook(image: texture_2d<f32>, uv: vec2f, cells: vec4f, fade: vec4f) -> vec4f {
  let local = (vec2f(uv.x, -uv.y) * 0.5 + 0.5) * fade.yz;
  let a = textureSample(image, spriteSampler, cells.xy + local);
  // IGNIS-CROSS-FADE
  let b = textureSample(image, spriteSampler, cells.zw + local);
  return mix(a, b, fade.x);
}

fn sprited(color: vec4f, uv: vec2f, cells: vec4f, fade: vec4f) -> vec4f {
  return color * flipbook(sprite, uv, cells, fade);
}
