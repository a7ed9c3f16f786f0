// The living list (src/particles/living.ts): after each update, the slots of the living particles
// (life > 0, the draw's own rule) in slot order, their number, and the arguments of the draws and
// the splat dispatch that cover exactly them. A stream compaction by prefix sum in four dispatches
// of one pass, deterministic (the order is the slots', never the order threads ran in), and with
// one workgroup barrier-scan only, over 64 numbers: software rasterisers (SwiftShader) run
// workgroup barriers slowly, so every other level is a thread looping over its own share.
//
//   1. countChunks: a thread per chunk of 64 slots counts its living;
//   2. scanChunks:  a thread per group of 64 chunks turns their counts into offsets in the group;
//   3. scanGroups:  one workgroup turns the groups' totals into their offsets, writes the total
//                   and the indirect arguments;
//   4. scatter:     a thread per chunk writes its living slots from its offset on.
struct LivingParams {
  // particle slots
  count: u32,
  // chunks of 64 slots: ceil(count / 64)
  chunks: u32,
  // groups of 64 chunks: ceil(chunks / 64)
  groups: u32,
  // workgroups along x of the 2-D grids over chunks (more than 65,535 workgroups take rows)
  groupsX: u32,
};
@group(0) @binding(0) var<uniform> lp: LivingParams;
@group(0) @binding(1) var<storage, read> velocities: array<vec4f>;
// per chunk: its living count (pass 1), then its offset within its group (pass 2)
@group(0) @binding(2) var<storage, read_write> chunkOffsets: array<u32>;
// per group: its total (pass 2), then its offset in the list (pass 3)
@group(0) @binding(3) var<storage, read_write> groupOffsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> living: array<u32>;
// the instanced draw (4, n, 0, 0), the pulled draw (6n, 1, 0, 0), the splat dispatch (x, y, 1)
@group(0) @binding(5) var<storage, read_write> args: array<u32, 12>;
// the number of living particles (the splat's bound; read back by ps.livingCount())
@group(0) @binding(6) var<storage, read_write> total: array<u32, 4>;

const CHUNK = 64u;
// the splat's workgroup size (shaders/particles/splat.wgsl)
const SPLAT_GROUP = 64u;
const MAX_GROUPS = 65535u;

fn isLiving(slot: u32) -> bool {
  return velocities[slot].w > 0.0;
}

// thread index of a 2-D grid of 64-wide workgroups
fn threadOf(gid: vec3u) -> u32 {
  return gid.x + gid.y * lp.groupsX * 64u;
}

@compute @workgroup_size(64)
fn countChunks(@builtin(global_invocation_id) gid: vec3u) {
  let chunk = threadOf(gid);
  if (chunk >= lp.chunks) {
    return;
  }
  let end = min(lp.count, (chunk + 1u) * CHUNK);
  var n = 0u;
  for (var slot = chunk * CHUNK; slot < end; slot++) {
    n += select(0u, 1u, isLiving(slot));
  }
  chunkOffsets[chunk] = n;
}

@compute @workgroup_size(64)
fn scanChunks(@builtin(global_invocation_id) gid: vec3u) {
  let group = gid.x;
  if (group >= lp.groups) {
    return;
  }
  let end = min(lp.chunks, (group + 1u) * CHUNK);
  var sum = 0u;
  for (var c = group * CHUNK; c < end; c++) {
    let n = chunkOffsets[c];
    chunkOffsets[c] = sum;
    sum += n;
  }
  groupOffsets[group] = sum;
}

var<workgroup> sums: array<u32, 64>;

@compute @workgroup_size(64)
fn scanGroups(@builtin(local_invocation_index) local: u32) {
  // each thread takes an equal run of groups: its total, then (after the scan) their offsets
  let per = (lp.groups + 63u) / 64u;
  let first = min(lp.groups, local * per);
  let end = min(lp.groups, first + per);
  var own = 0u;
  for (var g = first; g < end; g++) {
    own += groupOffsets[g];
  }
  // the inclusive scan of the 64 runs' totals (Hillis–Steele, 6 rounds)
  sums[local] = own;
  workgroupBarrier();
  for (var offset = 1u; offset < 64u; offset = offset << 1u) {
    var add = 0u;
    if (local >= offset) {
      add = sums[local - offset];
    }
    workgroupBarrier();
    sums[local] = sums[local] + add;
    workgroupBarrier();
  }
  var at = sums[local] - own;
  for (var g = first; g < end; g++) {
    let n = groupOffsets[g];
    groupOffsets[g] = at;
    at += n;
  }
  if (local == 63u) {
    let n = sums[63];
    let splat = (n + SPLAT_GROUP - 1u) / SPLAT_GROUP;
    let x = min(splat, MAX_GROUPS);
    let y = select(0u, (splat + x - 1u) / max(x, 1u), splat > 0u);
    args = array<u32, 12>(4u, n, 0u, 0u, 6u * n, 1u, 0u, 0u, x, y, 1u, 0u);
    total = array<u32, 4>(n, 0u, 0u, 0u);
  }
}

@compute @workgroup_size(64)
fn scatter(@builtin(global_invocation_id) gid: vec3u) {
  let chunk = threadOf(gid);
  if (chunk >= lp.chunks) {
    return;
  }
  var at = groupOffsets[chunk / CHUNK] + chunkOffsets[chunk];
  let end = min(lp.count, (chunk + 1u) * CHUNK);
  for (var slot = chunk * CHUNK; slot < end; slot++) {
    if (isLiving(slot)) {
      living[at] = slot;
      at++;
    }
  }
}
