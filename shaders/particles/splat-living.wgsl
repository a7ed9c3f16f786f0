// The splat of the living only (options.compact, src/particles/living.ts): appended to draw.wgsl
// and splat.wgsl. Dispatched indirectly, one thread per living particle: thread k splats slot
// living[k], so the dead cost nothing.
@group(0) @binding(5) var<storage, read> living: array<u32>;
@group(0) @binding(6) var<storage, read> livingCount: array<u32, 4>;

@compute @workgroup_size(64)
fn splatLiving(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let k = gid.x + gid.y * (groups.x * 64u);
  if (k >= livingCount[0]) { return; }
  splatParticle(living[k]);
}
