// The depth sort's keys (src/particles/sort.ts), where the particle state is in storage buffers:
// entry i holds (view depth, slot % 2048, floor(slot / 2048), last) of slot i, `last` 1 for dead
// slots and for the padding up to a power of two, so they sort after every living one. The slot
// is split in two halves of 11 bits so it stays exact in a half-float texture too (and `last` is
// a flag, not a huge depth, which a half float cannot hold).
struct SortKeys {
  viewZ: vec4f, // the view matrix's third row: view depth = dot(viewZ.xyz, p) + viewZ.w
  count: u32, // particles
  total: u32, // entries (a power of two)
  particleWidth: u32, // the state texture's width (the texture variant)
  sortWidth: u32, // the entries' texture width (the texture variant)
}
@group(0) @binding(0) var<uniform> u: SortKeys;
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> entries: array<vec4f>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = id.x + id.y * groups.x * 64u;
  if (i >= u.total) {
    return;
  }
  var depth = 0.0;
  var last = 1.0;
  if (i < u.count) {
    let p = positions[i];
    let v = velocities[i];
    // dead slots (life <= 0) are culled by the draw: last
    depth = dot(u.viewZ.xyz, p.xyz) + u.viewZ.w;
    last = select(0.0, 1.0, v.w <= 0.0);
  }
  entries[i] = vec4f(depth, f32(i % 2048u), f32(i / 2048u), last);
}
