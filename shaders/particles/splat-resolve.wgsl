// The splat's resolve (drawMode 'splat'): appended to draw.wgsl (DrawParams). A full-screen
// triangle in the user's render pass reads each pixel's fixed-point sums, outputs them (blended
// additively onto the target: one, one) and clears them for the next frame. splat.ts declares
// SPLAT_CHANNELS (3: the target's alpha kept, nothing added to it; 4: summed) before this file.
@group(0) @binding(3) var<storage, read_write> accum: array<u32>;
@group(0) @binding(4) var<storage, read_write> saturated: array<atomic<u32>>;

@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn resolve(@builtin(position) frag: vec4f) -> @location(0) vec4f {
  let pixel = u32(frag.y) * ps.targetWidth + u32(frag.x);
  let base = SPLAT_CHANNELS * pixel;
  // three channels: the target's alpha is kept (alpha 0 added to it)
  var alpha = 0.0;
  if (SPLAT_CHANNELS == 4u) {
    alpha = f32(accum[base + 3u]);
  }
  var sum = vec4f(f32(accum[base]), f32(accum[base + 1u]), f32(accum[base + 2u]), alpha) / 65536.0;
  let bit = 1u << (pixel % 32u);
  if ((atomicAnd(&saturated[pixel / 32u], ~bit) & bit) != 0u) {
    sum = vec4f(vec3f(65536.0), select(0.0, 65536.0, SPLAT_CHANNELS == 4u));
  }
  accum[base] = 0u;
  accum[base + 1u] = 0u;
  accum[base + 2u] = 0u;
  if (SPLAT_CHANNELS == 4u) {
    accum[base + 3u] = 0u;
  }
  return sum;
}
