// Babylon.js's GPU radix sort (the sort of its Gaussian-splat renderer), its four compute shaders
// taken unchanged from @babylonjs/core and driven as Babylon drives them: per 4-bit digit a
// histogram per block of 1024 keys (gsSortCount), a scan of the histograms in chunks
// (gsSortScanLocal) and of the chunk sums (gsSortScanSums), and a stable scatter by rank
// (gsSortScatter). createPortableCompute runs them as WebGPU compute, or — they share workgroup
// memory between barriers, which a fragment pass cannot — on the CPU path of a WebGL2 device.
import { gsSortCountComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortCount.compute.js';
import { gsSortScanLocalComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortScanLocal.compute.js';
import { gsSortScanSumsComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortScanSums.compute.js';
import { gsSortScatterComputeShaderWGSL } from '@babylonjs/core/ShadersWGSL/gsSortScatter.compute.js';
import { BufferUsage, type Buffer, type CommandEncoder, type Device } from '../../src/index.js';
import { createPortableCompute, type PortableCompute } from '../../src/compute/portable/index.js';
import type { PathName } from '../../src/compute/index.js';

/** Digit passes of a full sort of 32-bit keys (4 bits each). */
export const PASSES = 8;

export class RadixSort {
  /** Keys and values, two of each: a pass reads one and writes the other. */
  readonly keys: [Buffer, Buffer];
  readonly values: [Buffer, Buffer];
  readonly #blocks: number;
  readonly #chunks: number;
  readonly #sumTable: Buffer;
  readonly #chunkSums: Buffer;
  /** One parameter block per pass (its digit's shift), written when the passes are recorded. */
  readonly #params: Buffer[];
  readonly #passes: PortableCompute[];

  /**
   * `capacity` keys at most; `usage` is added to the key and value buffers' (VERTEX, to draw them).
   * `path` as createPortableCompute takes it (`auto`: compute, else the CPU path).
   */
  constructor(
    readonly device: Device,
    readonly capacity: number,
    options: { path?: 'auto' | PathName; usage?: number } = {},
  ) {
    this.#blocks = Math.max(1, Math.ceil(capacity / 1024));
    this.#chunks = Math.ceil((this.#blocks * 16) / 1024);
    const buffer = (label: string, words: number, usage = 0): Buffer =>
      device.createBuffer({
        label,
        size: Math.ceil(words / 4) * 16,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST | usage,
      });
    const words = this.#blocks * 1024;
    this.keys = [buffer('keys A', words, options.usage), buffer('keys B', words, options.usage)];
    this.values = [
      buffer('values A', words, options.usage),
      buffer('values B', words, options.usage),
    ];
    this.#sumTable = buffer('sort sumTable', this.#blocks * 16);
    this.#chunkSums = buffer('sort chunkSums', 256);
    this.#params = Array.from({ length: PASSES }, (_, i) => buffer(`sort params ${i}`, 4));
    const pass = (label: string, code: string, count: number): PortableCompute =>
      createPortableCompute(device, { code, count, label, path: options.path ?? 'auto' });
    this.#passes = [
      pass('gsSortCount', gsSortCountComputeShaderWGSL.shader, this.#blocks * 256),
      pass('gsSortScanLocal', gsSortScanLocalComputeShaderWGSL.shader, this.#chunks * 256),
      pass('gsSortScanSums', gsSortScanSumsComputeShaderWGSL.shader, 256),
      pass('gsSortScatter', gsSortScatterComputeShaderWGSL.shader, this.#blocks * 256),
    ];
  }

  /** The path the shaders run on, and why. */
  get path(): PathName {
    return (this.#passes[0] as PortableCompute).path;
  }

  get reason(): string {
    return (this.#passes[0] as PortableCompute).reason;
  }

  /**
   * Records the first `passes` digit passes over the first `count` keys and values of `keys[0]` and
   * `values[0]` (all eight sort them; after k, they are sorted by their low 4k bits); returns the
   * index of the buffers holding the result. The CPU path runs them now.
   */
  record(encoder: CommandEncoder, count: number, passes = PASSES): 0 | 1 {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity)
      throw new RangeError(`count ${count} must be an integer from 0 to ${this.capacity}`);
    const [countPass, scanLocal, scanSums, scatter] = this.#passes as [
      PortableCompute,
      PortableCompute,
      PortableCompute,
      PortableCompute,
    ];
    const sumTable = this.#sumTable;
    const chunkSums = this.#chunkSums;
    let at: 0 | 1 = 0;
    for (let p = 0; p < passes; p++) {
      const params = this.#params[p] as Buffer;
      this.device.queue.writeBuffer(
        params,
        0,
        new Uint32Array([count, this.#blocks, 4 * p, this.#chunks]),
      );
      const keysIn = this.keys[at];
      countPass.dispatch(encoder, { params, keysIn, sumTable });
      scanLocal.dispatch(encoder, { params, sumTable, chunkSums });
      scanSums.dispatch(encoder, { params, chunkSums });
      scatter.dispatch(encoder, {
        params,
        keysIn,
        valsIn: this.values[at],
        keysOut: this.keys[1 - at] as Buffer,
        valsOut: this.values[1 - at] as Buffer,
        sumTable,
        chunkSums,
      });
      at = (1 - at) as 0 | 1;
    }
    return at;
  }

  destroy(): void {
    for (const p of this.#passes) p.destroy();
    for (const b of [
      ...this.keys,
      ...this.values,
      this.#sumTable,
      this.#chunkSums,
      ...this.#params,
    ])
      b.destroy();
  }
}
