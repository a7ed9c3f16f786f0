/**
 * Babylon.js's GPU radix sort (the Gaussian-splat sort), driven as Babylon drives it: per 4-bit
 * digit a histogram per block of 1024 keys (gsSortCount), a scan of the histograms in chunks
 * (gsSortScanLocal) and of the chunk sums (gsSortScanSums), and a stable scatter by rank
 * (gsSortScatter) — eight passes of four public shaders, unchanged, through createPortableCompute
 * on whatever path the device gives them.
 */
import { BufferUsage, type Buffer, type Device } from '../../src/all.js';
import { createPortableCompute } from '../../src/compute/portable/index.js';
import type { PathName } from '../../src/compute/index.js';
import { CORPUS } from './babylon.js';

const shader = (file: string): string =>
  (CORPUS.find((c) => c.file === file) as { wgsl: string }).wgsl;

/** Sorts `keys` (u32) with their indices as values; the sorted keys, the values, and the path taken. */
export async function babylonSort(
  device: Device,
  keys: Uint32Array,
  path?: PathName,
): Promise<{ keys: Uint32Array; values: Uint32Array; path: PathName }> {
  const n = keys.length;
  const numBlocks = Math.ceil(n / 1024);
  const chunkCount = Math.ceil((numBlocks * 16) / 1024);
  const buffer = (label: string, words: number, data?: Uint32Array): Buffer => {
    const b = device.createBuffer({
      label,
      size: Math.ceil(words / 4) * 16,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    if (data) device.queue.writeBuffer(b, 0, data);
    return b;
  };
  let kIn = buffer('keys A', numBlocks * 1024, keys);
  let vIn = buffer(
    'values A',
    numBlocks * 1024,
    Uint32Array.from({ length: n }, (_, i) => i),
  );
  let kOut = buffer('keys B', numBlocks * 1024);
  let vOut = buffer('values B', numBlocks * 1024);
  const sumTable = buffer('sumTable', numBlocks * 16);
  const chunkSums = buffer('chunkSums', 256);
  const params = buffer('params', 4);
  const pass = (file: string, count: number) =>
    createPortableCompute(device, {
      code: shader(file),
      count,
      label: file,
      ...(path ? { path } : {}),
    });
  const count = pass('gsSortCount.compute.js', numBlocks * 256);
  const scanLocal = pass('gsSortScanLocal.compute.js', chunkCount * 256);
  const scanSums = pass('gsSortScanSums.compute.js', 256);
  const scatter = pass('gsSortScatter.compute.js', numBlocks * 256);
  for (let shift = 0; shift < 32; shift += 4) {
    device.queue.writeBuffer(params, 0, new Uint32Array([n, numBlocks, shift, chunkCount]));
    const e = device.createCommandEncoder();
    count.dispatch(e, { params, keysIn: kIn, sumTable });
    scanLocal.dispatch(e, { params, sumTable, chunkSums });
    scanSums.dispatch(e, { params, chunkSums });
    scatter.dispatch(e, {
      params,
      keysIn: kIn,
      valsIn: vIn,
      keysOut: kOut,
      valsOut: vOut,
      sumTable,
      chunkSums,
    });
    device.queue.submit([e.finish()]);
    [kIn, kOut, vIn, vOut] = [kOut, kIn, vOut, vIn];
  }
  const result = {
    keys: new Uint32Array(await kIn.read()).slice(0, n),
    values: new Uint32Array(await vIn.read()).slice(0, n),
    path: count.path,
  };
  for (const p of [count, scanLocal, scanSums, scatter]) p.destroy();
  for (const b of [kIn, vIn, kOut, vOut, sumTable, chunkSums, params]) b.destroy();
  return result;
}

/** The stable order of `keys` (indices sorted by key, ties by index), as Array.prototype.sort gives it. */
export function stableOrder(keys: Uint32Array): number[] {
  return Array.from({ length: keys.length }, (_, i) => i).sort(
    (a, b) => (keys[a] as number) - (keys[b] as number),
  );
}
