// The depth sort of the living only (options.compact, src/particles/sort.ts): appended to
// sort-keys.wgsl. Entry i < n is the key of living slot living[i] (n: the list's count), every
// entry after it padding; then `sortArgs` writes each step of the bitonic plan its workgroup
// count for the entries that matter, m = the power of two ≥ max(n, BLOCK): a step of a stage
// k > m dispatches none, the others m / 2 threads. So the sort costs what the living cost.
@group(0) @binding(4) var<storage, read> living: array<u32>;
@group(0) @binding(5) var<storage, read> livingCount: array<u32, 4>;
// per step of the plan: (its stage k, 0); k = 0 for the whole network up to SORT_BLOCK
@group(0) @binding(6) var<storage, read> plan: array<vec2u>;
// per step: the workgroups of its dispatchIndirect (x, y, z)
@group(0) @binding(7) var<storage, read_write> stepArgs: array<u32>;

const SORT_BLOCK = 512u; // entries a workgroup sorts in workgroup memory (sort-bitonic.wgsl)
const MAX_WORKGROUPS = 65535u;

@compute @workgroup_size(64)
fn livingKeys(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = id.x + id.y * groups.x * 64u;
  if (i >= u.total) {
    return;
  }
  if (i >= livingCount[0]) {
    entries[i] = vec4f(0.0, 0.0, 0.0, 1.0);
    return;
  }
  let slot = living[i];
  let depth = dot(u.viewZ.xyz, positions[slot].xyz) + u.viewZ.w;
  entries[i] = vec4f(depth, f32(slot % 2048u), f32(slot / 2048u), 0.0);
}

@compute @workgroup_size(1)
fn sortArgs() {
  var m = SORT_BLOCK;
  loop {
    if (m >= livingCount[0] || m >= u.total) {
      break;
    }
    m = m * 2u;
  }
  for (var i = 0u; i < arrayLength(&plan); i++) {
    let step = plan[i];
    // a local step sorts blocks of SORT_BLOCK entries, a global one a pair per thread in
    // workgroups of 256: m / SORT_BLOCK workgroups either way
    var groups = m / SORT_BLOCK;
    if (step.x > m) {
      groups = 0u;
    }
    let x = min(groups, MAX_WORKGROUPS);
    let y = select(0u, (groups + x - 1u) / max(x, 1u), groups > 0u);
    stepArgs[3u * i] = x;
    stepArgs[3u * i + 1u] = y;
    stepArgs[3u * i + 2u] = 1u;
  }
}
