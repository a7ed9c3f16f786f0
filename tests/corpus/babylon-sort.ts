/**
 * A whole sort by Babylon.js's radix-sort shaders (demos/radix-sort/sort.ts drives them as Babylon
 * does: eight passes of four public shaders, unchanged), for tests comparing it with
 * Array.prototype.sort.
 */
import type { Device } from '../../src/all.js';
import type { PathName } from '../../src/compute/index.js';
import { RadixSort } from '../../demos/radix-sort/sort.js';

/** Sorts `keys` (u32) with their indices as values; the sorted keys, the values, and the path taken. */
export async function babylonSort(
  device: Device,
  keys: Uint32Array,
  path?: PathName,
): Promise<{ keys: Uint32Array; values: Uint32Array; path: PathName }> {
  const n = keys.length;
  const sort = new RadixSort(device, n, path ? { path } : {});
  device.queue.writeBuffer(sort.keys[0], 0, keys);
  device.queue.writeBuffer(
    sort.values[0],
    0,
    Uint32Array.from({ length: n }, (_, i) => i),
  );
  const encoder = device.createCommandEncoder();
  const at = sort.record(encoder, n);
  device.queue.submit([encoder.finish()]);
  const result = {
    keys: new Uint32Array(await sort.keys[at].read()).slice(0, n),
    values: new Uint32Array(await sort.values[at].read()).slice(0, n),
    path: sort.path,
  };
  sort.destroy();
  return result;
}

/** The stable order of `keys` (indices sorted by key, ties by index), as Array.prototype.sort gives it. */
export function stableOrder(keys: Uint32Array): number[] {
  return Array.from({ length: keys.length }, (_, i) => i).sort(
    (a, b) => (keys[a] as number) - (keys[b] as number),
  );
}
