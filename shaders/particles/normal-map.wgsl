// Lit sprites' normal map (light.normalMap): appended after sprite.wgsl for pipelines that read
// it. Laid out as the sprite (the same flipbook cells, the same cross-fade), its rgb the normal ·
// 0.5 + 0.5: x along the image's right, y up the image, z out of it — the corner's frame, in which
// the vertex stage turned the light (lightFrame).
@group(0) @binding(10) var normalMap: texture_2d<f32>;

fn spriteNormal(sheetUv: vec2f, nextUv: vec2f, fade: f32) -> vec3f {
  let n = flipbook(normalMap, sheetUv, nextUv, fade).xyz * 2.0 - 1.0;
  return n * inverseSqrt(max(dot(n, n), 1e-12));
}
