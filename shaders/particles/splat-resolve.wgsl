// The splat's resolve (drawMode 'splat'): appended to draw.wgsl (DrawParams). A full-screen
// triangle in the user's render pass reads each pixel's fixed-point sums, outputs them (blended
// additively onto the target: one, one) and clears them for the next frame. splat.ts declares
// before this file SPLAT_CHANNELS and the sums' access: `accum` (binding 3), `loadSums(pixel)` (the
// pixel's r, g, b and a — a 0 when the target's alpha is kept: nothing is added to it) and
// `clearSums(pixel)`; with four channels a pixel's sums are one vec4u, loaded and cleared at once.
@group(0) @binding(4) var<storage, read_write> saturated: array<atomic<u32>>;

@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn resolve(@builtin(position) frag: vec4f) -> @location(0) vec4f {
  let pixel = u32(frag.y) * ps.targetWidth + u32(frag.x);
  var sum = vec4f(loadSums(pixel)) / 65536.0;
  // a plain load of the pixel's word first (32 pixels share it): the read-modify-write that
  // clears the bit is paid only where a sum saturated, not at every pixel
  let bit = 1u << (pixel % 32u);
  if ((atomicLoad(&saturated[pixel / 32u]) & bit) != 0u) {
    atomicAnd(&saturated[pixel / 32u], ~bit);
    sum = vec4f(vec3f(65536.0), select(0.0, 65536.0, SPLAT_CHANNELS == 4u));
  }
  clearSums(pixel);
  return sum;
}
