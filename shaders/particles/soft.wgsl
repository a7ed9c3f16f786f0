// Soft particles (options.softParticles): appended to draw.wgsl. The scene's depth at this pixel
// and the particle's own, both made view distances with the projection (d = P[3][2] / (z + P[2][2])
// for a 0..1 depth range), give the gap; the particle fades over `distance` and vanishes behind.
@group(0) @binding(5) var sceneDepth: texture_depth_2d;

fn softness(in: VertexOut) -> f32 {
  let scene = textureLoad(sceneDepth, vec2i(in.position.xy), 0);
  let gap = in.soft.z / (scene + in.soft.y) - in.soft.z / (in.position.z + in.soft.y);
  return clamp(gap / in.soft.x, 0.0, 1.0);
}
