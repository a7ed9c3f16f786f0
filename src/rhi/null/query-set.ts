import { QuerySet } from '../core/query-set.js';

/** Never created: the null backend reports `timestampQuery: false`. Kept so the file list matches. */
export class NullQuerySet extends QuerySet {
  readTimestamps(): Promise<Float64Array> {
    return Promise.resolve(new Float64Array(this.count).fill(Number.NaN));
  }
  protected destroyImpl(): void {}
}
