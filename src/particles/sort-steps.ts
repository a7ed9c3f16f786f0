/** The depth sort's plan: the bitonic network's steps, its kernel and its constants (sort.ts runs them). */
import type { Buffer } from '../rhi/core/buffer.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import { kernelSource } from '../compute/kernel.js';

/** The slot's low half: entries hold (depth, slot % HALF, floor(slot / HALF), last). */
export const HALF = 2048;
/** Bytes of the SortKeys uniform block (vec4f + 4 × u32). */
export const KEYS_BYTES = 32;
/** Entries a workgroup of the compute sort holds (sort-bitonic.wgsl's BLOCK). */
export const BLOCK = 512;
/** Bytes between two dispatches' Step uniforms (the uniform offset alignment). */
export const STEP_STRIDE = 256;

/**
 * The compute sort's dispatches for `total` entries (a power of two ≥ BLOCK). `local`: the whole
 * network up to k = BLOCK in workgroup memory (k = 0), then per stage k the steps at distance
 * ≥ BLOCK one dispatch each and its tail in workgroup memory. Without: every step a dispatch in
 * the storage buffer — for software adapters, where workgroup barriers cost more than passes over
 * memory (docs/particles.md, "Sorted alpha blending", has the figures of both).
 */
export function computeSortSteps(
  total: number,
  local: boolean,
): Array<{ kind: 'local' | 'global'; j: number; k: number }> {
  const steps: Array<{ kind: 'local' | 'global'; j: number; k: number }> = [];
  if (!local) {
    for (let k = 2; k <= total; k *= 2)
      for (let j = k / 2; j >= 1; j /= 2) steps.push({ kind: 'global', j, k });
    return steps;
  }
  steps.push({ kind: 'local', j: 0, k: 0 });
  for (let k = 2 * BLOCK; k <= total; k *= 2) {
    for (let j = k / 2; j >= BLOCK; j /= 2) steps.push({ kind: 'global', j, k });
    steps.push({ kind: 'local', j: BLOCK / 2, k });
  }
  return steps;
}

/** The compute path's sort: the entries in a storage buffer, the steps' uniforms written once. */
export interface ComputeSort {
  entries: Buffer;
  steps: Buffer;
  plan: ReturnType<typeof computeSortSteps>;
  keys: ComputePipeline;
  global: ComputePipeline;
  local: ComputePipeline;
}

/** One compare-exchange step of the bitonic sort over (depth, slot) entries. */
export const SORT_KERNEL = kernelSource({
  label: 'particles sort',
  attributes: ['entry'],
  uniforms: [
    ['j', 'u32'],
    ['k', 'u32'],
  ],
  gather: true,
  helpers: `
bool sortsBefore(vec4f a, vec4f b) {
  return a.w < b.w || (a.w == b.w && (a.x < b.x || (a.x == b.x && (a.z < b.z || (a.z == b.z && a.y < b.y)))));
}`,
  body: `
u32 partner = index ^ params.j;
vec4f other = ignisElement(partner).entry;
bool ascending = (index & params.k) == 0u;
bool keepSmaller = (index < partner) == ascending;
entry = select(entry, other, sortsBefore(other, entry) == keepSmaller);
`,
});
