import { Resource } from './resource.js';
import type { QuerySetDescriptor } from './descriptors.js';
import type { Device } from './device.js';

/** A set of timestamp queries. Needs `caps.features.timestampQuery`. */
export abstract class QuerySet extends Resource {
  readonly kind = 'query-set' as const;
  readonly type: 'timestamp';
  readonly count: number;
  readonly #written: boolean[];
  constructor(device: Device, desc: QuerySetDescriptor) {
    super(device, desc.label);
    this.type = desc.type;
    this.count = desc.count;
    this.#written = new Array<boolean>(desc.count).fill(false);
  }

  /** Called by the queue for each timestamp a submitted pass writes. */
  markWritten(index: number): void {
    this.#written[index] = true;
  }

  /** Whether a submitted pass has written query `index`; unwritten queries read NaN. */
  isWritten(index: number): boolean {
    return this.#written[index] === true;
  }

  /** Runs of consecutive written queries, as [first, count]: what a backend may resolve. */
  writtenRuns(): Array<[number, number]> {
    const runs: Array<[number, number]> = [];
    for (let i = 0; i < this.count; i++) {
      if (!this.#written[i]) continue;
      const last = runs[runs.length - 1];
      if (last && last[0] + last[1] === i) last[1]++;
      else runs.push([i, 1]);
    }
    return runs;
  }
  override get byteSize(): number {
    return this.count * 8;
  }
  /**
   * Resolves the timestamps written so far into nanoseconds (BigInt-free: numbers), one per query;
   * `NaN` where a query was not written. Never stalls.
   */
  abstract readTimestamps(): Promise<Float64Array>;
}
