// Compute splatting of additive particles (drawMode 'splat'): appended to draw.wgsl (DrawParams,
// gradient) and draw.ts's tintWgsl (tintOf: a sub-emitter's inheritColor, or 1). One thread per
// particle adds its disc's premultiplied colour to every pixel centre inside it, in 16.16 fixed
// point with atomicAdd, so the sum does not depend on the order the threads run in (float
// blending does). The coverage rule is the raster draw's: the pixels whose
// centre lies inside the camera-facing quad, weighted by the same smoothstep falloff.
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
// SPLAT_CHANNELS per pixel (r·a, g·a, b·a, and a unless the target's alpha is kept), each a u32 of
// 16.16 fixed point; splat.ts declares SPLAT_CHANNELS (3 or 4) before this file
@group(0) @binding(3) var<storage, read_write> accum: array<atomic<u32>>;
// one bit per pixel: set when a channel's sum passed 2^32 - 1 (the resolve then saturates it)
@group(0) @binding(4) var<storage, read_write> saturated: array<atomic<u32>>;

const SPLAT_SCALE = 65536.0;

fn splatAdd(pixel: u32, value: vec4f) {
  let q = vec4u(value * SPLAT_SCALE + 0.5);
  for (var c = 0u; c < SPLAT_CHANNELS; c++) {
    if (q[c] == 0u) { continue; }
    let old = atomicAdd(&accum[SPLAT_CHANNELS * pixel + c], q[c]);
    if (old > 0xffffffffu - q[c]) {
      atomicOr(&saturated[pixel / 32u], 1u << (pixel % 32u));
    }
  }
}

// particle slot i's disc, added to the sums
fn splatParticle(i: u32) {
  let p = positions[i];
  let v = velocities[i];
  // a dead slot (emission: life < 0) adds nothing
  if (v.w <= 0.0) { return; }
  let t = clamp(p.w / max(v.w, 1e-6), 0.0, 1.0);
  let halfSize = 0.5 * ps.sizes.z * mix(ps.sizes.x, ps.sizes.y, t);
  let clip = ps.viewProjection * vec4f(p.xyz, 1.0);
  // the raster draw clips the whole quad (its corners share z and w) outside the depth range
  if (clip.w <= 0.0 || clip.z < 0.0 || clip.z > clip.w) { return; }
  let color = gradient(t) * tintOf(i);
  if (color.a <= 0.0) { return; }
  let size = vec2f(f32(ps.targetWidth), f32(ps.targetHeight));
  // centre and half extents in pixels, y down as in the framebuffer
  let centre = vec2f(clip.x / clip.w * 0.5 + 0.5, 0.5 - clip.y / clip.w * 0.5) * size;
  let extent = vec2f(abs(ps.cornerAxes[0].x), abs(ps.cornerAxes[1].y)) * (halfSize / clip.w * 0.5) * size;
  if (extent.x <= 0.0 || extent.y <= 0.0) { return; }
  let lo = max(vec2i(ceil(centre - extent - 0.5)), vec2i(0));
  let hi = min(vec2i(floor(centre + extent - 0.5)), vec2i(size) - 1);
  for (var y = lo.y; y <= hi.y; y++) {
    let dy = (f32(y) + 0.5 - centre.y) / extent.y;
    for (var x = lo.x; x <= hi.x; x++) {
      let dx = (f32(x) + 0.5 - centre.x) / extent.x;
      let r2 = dx * dx + dy * dy;
      if (r2 >= 1.0) { continue; }
      let a = color.a * (1.0 - smoothstep(0.25, 1.0, r2));
      splatAdd(u32(y) * ps.targetWidth + u32(x), vec4f(color.rgb * a, a));
    }
  }
}

@compute @workgroup_size(64)
fn splat(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = gid.x + gid.y * (groups.x * 64u);
  if (i >= ps.count) { return; }
  splatParticle(i);
}
