// Lit particles' shadow map (light.shadow): appended to draw.wgsl (and mesh.wgsl) for pipelines
// that read it; src/particles/draw.ts makes lightColorAt call shadowVisibility.
@group(0) @binding(11) var shadowMap: texture_depth_2d;

// How much of the light reaches the world point `p`: its depth from the light against the map's
// at the nine texels around it (a percentage-closer filter: 1 lit, 0 in shadow). Outside the map
// (or behind the light, or beyond its far plane): lit. WebGPU's clip z in 0..1 is what both
// backends store as depth, and every texture's row 0 is its top (ndc y +1).
fn shadowVisibility(p: vec3f) -> f32 {
  let clip = ps.shadowMatrix * vec4f(p, 1.0);
  let ndc = clip.xyz / clip.w;
  if (clip.w <= 0.0 || abs(ndc.x) > 1.0 || abs(ndc.y) > 1.0 || ndc.z < 0.0 || ndc.z > 1.0) {
    return 1.0;
  }
  let size = vec2i(textureDimensions(shadowMap));
  let texel = vec2i(floor(vec2f(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * vec2f(size)));
  var lit = 0.0;
  for (var dy = -1; dy <= 1; dy++) {
    for (var dx = -1; dx <= 1; dx++) {
      let t = clamp(texel + vec2i(dx, dy), vec2i(0), size - vec2i(1));
      lit += select(0.0, 1.0, ndc.z - ps.shadow.x <= textureLoad(shadowMap, t, 0));
    }
  }
  return lit / 9.0;
}
