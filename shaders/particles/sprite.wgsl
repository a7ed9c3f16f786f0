// The textured look (options.texture): appended to draw.wgsl for pipelines that draw an image per
// particle instead of the disc: the image where the vertex stage put this point in the frame's
// cell (sheetUv), tinted by the colour over life; `fade` cross-fades to the next frame (nextUv).
@group(0) @binding(3) var sprite: texture_2d<f32>;
@group(0) @binding(4) var spriteSampler: sampler;

// A flipbook image (the sprite, light.normalMap) at this point: this frame's cell, cross-faded
// into the next one's. sheetUv, nextUv and fade are the vertex stage's (VertexOut's fields of
// those names). A pipeline whose sheet does not blend (spriteSheet.blend false, or one frame) has
// the marked lines replaced by `return a;` (draw.ts), and passes no nextUv or fade from its vertex
// stage: one read a pixel, not two.
fn flipbook(image: texture_2d<f32>, sheetUv: vec2f, nextUv: vec2f, fade: f32) -> vec4f {
  let a = textureSample(image, spriteSampler, sheetUv);
  // IGNIS-CROSS-FADE
  let b = textureSample(image, spriteSampler, nextUv);
  return mix(a, b, fade);
}

fn sprited(color: vec4f, sheetUv: vec2f, nextUv: vec2f, fade: f32) -> vec4f {
  return color * flipbook(sprite, sheetUv, nextUv, fade);
}
