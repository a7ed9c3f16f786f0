/**
 * The invocation grid of a portable dispatch. `count: n | [x, y] | [x, y, z]` is the global
 * invocation grid, as `dispatchThreads` takes it: the compute path dispatches ceil(count / workgroup
 * size) workgroups in each dimension, and every path runs exactly the invocations WebGPU would —
 * the workgroups' full extent, so a shader's own `if (x >= size.x) { return; }` decides on every
 * path what runs past the grid. The fallback paths number the invocations row-major (x fastest)
 * and derive each built-in from that number as WebGPU defines them.
 */
import { ValidationError } from '../../rhi/core/errors.js';
import { U32, vec, type WType } from './types.js';

/** The compute built-ins a portable entry point may take, and their types. */
export const BUILTIN_INPUTS = {
  global_invocation_id: vec(3, 'u32'),
  local_invocation_id: vec(3, 'u32'),
  workgroup_id: vec(3, 'u32'),
  num_workgroups: vec(3, 'u32'),
  local_invocation_index: U32,
} as const satisfies Record<string, WType>;
export type BuiltinInput = keyof typeof BUILTIN_INPUTS;

export type Grid = readonly [number, number, number];

/** `count` as a three-dimensional grid, or a `ValidationError` naming the value. */
export function gridOf(count: unknown, label: string): Grid {
  const list = Array.isArray(count) ? count : [count];
  const ok =
    list.length >= 1 &&
    list.length <= 3 &&
    list.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 1);
  if (!ok)
    throw new ValidationError(
      'portable-count',
      `count ${Array.isArray(count) ? `[${count.join(', ')}]` : String(count)} must be a positive integer or [x, y] / [x, y, z] of positive integers (the invocation grid)`,
      label,
      { count },
    );
  return [
    list[0] as number,
    (list[1] as number | undefined) ?? 1,
    (list[2] as number | undefined) ?? 1,
  ];
}

/** Workgroups in each dimension for `grid` at `workgroupSize` (what the compute path dispatches). */
export function workgroupsFor(grid: Grid, workgroupSize: Grid): Grid {
  return [0, 1, 2].map((i) => Math.ceil((grid[i] as number) / (workgroupSize[i] as number))) as [
    number,
    number,
    number,
  ];
}

/** Invocations in each dimension: whole workgroups, as WebGPU launches them. */
export function invocationsFor(grid: Grid, workgroupSize: Grid): Grid {
  const groups = workgroupsFor(grid, workgroupSize);
  return [0, 1, 2].map((i) => (groups[i] as number) * (workgroupSize[i] as number)) as [
    number,
    number,
    number,
  ];
}
