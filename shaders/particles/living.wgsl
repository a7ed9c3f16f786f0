// The living list (src/particles/living.ts): after each update, the slots of the living particles
// (life > 0, the draw's own rule) in slot order, their number, and the arguments of the draws and
// the splat dispatch that cover exactly them. A stream compaction by prefix sum, in three
// dispatches of one pass, deterministic (the order is the slots', never the order threads ran in):
//
//   1. countBlocks: each workgroup of 256 slots counts its living (a workgroup scan);
//   2. scanBlocks:  one workgroup turns the blocks' counts into their starting offsets
//                   (an exclusive scan, 256 blocks at a time) and writes the total and the args;
//   3. scatter:     each living slot writes its index at its block's offset + its rank in the block.
struct LivingParams {
  // particle slots
  count: u32,
  // blocks of 256 slots: ceil(count / 256)
  blocks: u32,
  // workgroups along x of the 2-D grid over blocks (more than 65,535 blocks take rows)
  groupsX: u32,
  pad: u32,
};
@group(0) @binding(0) var<uniform> lp: LivingParams;
@group(0) @binding(1) var<storage, read> velocities: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> blockOffsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> living: array<u32>;
// the instanced draw (4, n, 0, 0), the pulled draw (6n, 1, 0, 0), the splat dispatch (x, y, 1)
@group(0) @binding(4) var<storage, read_write> args: array<u32, 12>;
// the number of living particles (the splat's bound; read back by ps.livingCount())
@group(0) @binding(5) var<storage, read_write> total: array<u32, 4>;

const BLOCK = 256u;
// the splat's workgroup size (shaders/particles/splat.wgsl)
const SPLAT_GROUP = 64u;
const MAX_GROUPS = 65535u;

var<workgroup> sums: array<u32, 256>;

fn blockOf(wid: vec3u) -> u32 {
  return wid.x + wid.y * lp.groupsX;
}

fn isLiving(slot: u32) -> u32 {
  return select(0u, 1u, slot < lp.count && velocities[min(slot, lp.count - 1u)].w > 0.0);
}

// the inclusive prefix sum of `v` over the workgroup's threads (Hillis–Steele: 8 rounds for 256)
fn scanWorkgroup(local: u32, v: u32) -> u32 {
  sums[local] = v;
  workgroupBarrier();
  for (var offset = 1u; offset < BLOCK; offset = offset << 1u) {
    var add = 0u;
    if (local >= offset) {
      add = sums[local - offset];
    }
    workgroupBarrier();
    sums[local] = sums[local] + add;
    workgroupBarrier();
  }
  return sums[local];
}

@compute @workgroup_size(256)
fn countBlocks(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) local: u32) {
  let block = blockOf(wid);
  if (block >= lp.blocks) {
    return;
  }
  let inclusive = scanWorkgroup(local, isLiving(block * BLOCK + local));
  if (local == BLOCK - 1u) {
    blockOffsets[block] = inclusive;
  }
}

@compute @workgroup_size(256)
fn scanBlocks(@builtin(local_invocation_index) local: u32) {
  var carry = 0u;
  for (var base = 0u; base < lp.blocks; base = base + BLOCK) {
    let i = base + local;
    var v = 0u;
    if (i < lp.blocks) {
      v = blockOffsets[i];
    }
    let inclusive = scanWorkgroup(local, v);
    if (i < lp.blocks) {
      blockOffsets[i] = carry + inclusive - v;
    }
    carry = carry + sums[BLOCK - 1u];
    // every thread has read the block's sum before the next round writes over it
    workgroupBarrier();
  }
  if (local == 0u) {
    let groups = (carry + SPLAT_GROUP - 1u) / SPLAT_GROUP;
    let x = min(groups, MAX_GROUPS);
    let y = select(0u, (groups + x - 1u) / max(x, 1u), groups > 0u);
    args = array<u32, 12>(4u, carry, 0u, 0u, 6u * carry, 1u, 0u, 0u, x, y, 1u, 0u);
    total = array<u32, 4>(carry, 0u, 0u, 0u);
  }
}

@compute @workgroup_size(256)
fn scatter(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) local: u32) {
  let block = blockOf(wid);
  if (block >= lp.blocks) {
    return;
  }
  let slot = block * BLOCK + local;
  let flag = isLiving(slot);
  let inclusive = scanWorkgroup(local, flag);
  if (flag == 1u) {
    living[blockOffsets[block] + inclusive - 1u] = slot;
  }
}
