/**
 * Where a resource is bound: `@group(g) @binding(b)`. Passes keep one flat table of slots; slot
 * binding (`setUniformBuffer(b, …)`) addresses group 0, `setBindGroup(g, group)` fills group g's
 * slots. A slot's number is `g * MAX_BINDINGS_PER_BIND_GROUP + b`, so group 0's slots are their
 * binding numbers.
 */

/** WebGPU's `maxBindingsPerBindGroup`: bindings of a group are numbered below it. */
export const MAX_BINDINGS_PER_BIND_GROUP = 1000;

/** WebGPU's default `maxBindGroups`: groups 0 to 3. */
export const MAX_BIND_GROUPS = 4;

/** The flat slot number of a layout entry (its `group` defaults to 0). */
export function slotOf(entry: { readonly group?: number; readonly binding: number }): number {
  return (entry.group ?? 0) * MAX_BINDINGS_PER_BIND_GROUP + entry.binding;
}

/** How messages name a slot: its binding number in group 0, `@group(g) @binding(b)` elsewhere. */
export function slotName(entry: { readonly group?: number; readonly binding: number }): string {
  return entry.group ? `@group(${entry.group}) @binding(${entry.binding})` : `${entry.binding}`;
}
