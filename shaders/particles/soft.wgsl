// Soft particles (options.softParticles): appended to draw.wgsl. The scene's depth at this pixel
// and the particle's own, both made view distances with the projection (d = P[3][2] / (z + P[2][2])
// for a 0..1 depth range), give the gap; the particle fades over `distance` and vanishes behind.
@group(0) @binding(5) var sceneDepth: texture_depth_2d;

// position: the fragment's (its pixel and depth); soft: ps.soft
fn softness(position: vec4f, soft: vec4f) -> f32 {
  let scene = textureLoad(sceneDepth, vec2i(position.xy), 0);
  let gap = soft.z / (scene + soft.y) - soft.z / (position.z + soft.y);
  return clamp(gap / soft.x, 0.0, 1.0);
}
