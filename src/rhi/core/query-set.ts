import { Resource } from './resource.js';
import type { QuerySetDescriptor } from './descriptors.js';
import type { Device } from './device.js';

/** A set of timestamp queries. Needs `caps.features.timestampQuery`. */
export abstract class QuerySet extends Resource {
  readonly kind = 'query-set' as const;
  readonly type: 'timestamp';
  readonly count: number;
  constructor(device: Device, desc: QuerySetDescriptor) {
    super(device, desc.label);
    this.type = desc.type;
    this.count = desc.count;
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
