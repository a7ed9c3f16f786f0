import { QuerySet } from '../core/query-set.js';
import type { QuerySetDescriptor } from '../core/descriptors.js';
import type { WebGL2Device } from './device.js';

interface TimerExt {
  TIMESTAMP_EXT: number;
  GPU_DISJOINT_EXT: number;
  queryCounterEXT(query: WebGLQuery, target: number): void;
}

/**
 * Timestamps through `EXT_disjoint_timer_query_webgl2`'s `queryCounterEXT(TIMESTAMP_EXT)`.
 * Results are polled (`QUERY_RESULT_AVAILABLE`), never waited for; a disjoint event (the GPU
 * clock jumped) makes the whole set NaN, as the extension demands.
 */
export class WebGL2QuerySet extends QuerySet {
  #queries: WebGLQuery[];
  readonly #device: WebGL2Device;
  #ext: TimerExt;

  constructor(device: WebGL2Device, desc: QuerySetDescriptor) {
    super(device, desc);
    this.#device = device;
    this.#ext = device.timerExt as TimerExt;
    this.#queries = Array.from({ length: desc.count }, () => device.gl.createQuery());
  }

  override adopt(fresh: WebGL2QuerySet): void {
    super.adopt(fresh);
    this.#queries = fresh.#queries;
    this.#ext = fresh.#ext;
  }

  /** Called by the queue's replay at pass boundaries (core marks the query written at submit). */
  write(index: number): void {
    this.#ext.queryCounterEXT(this.#queries[index] as WebGLQuery, this.#ext.TIMESTAMP_EXT);
  }

  async readTimestamps(): Promise<Float64Array> {
    this.assertAlive('readTimestamps');
    const gl = this.#device.gl;
    const out = new Float64Array(this.count).fill(Number.NaN);
    for (let i = 0; i < this.count; i++) {
      if (!this.isWritten(i)) continue;
      const q = this.#queries[i] as WebGLQuery;
      for (
        let tries = 0;
        tries < 1000 && !gl.getQueryParameter(q, gl.QUERY_RESULT_AVAILABLE);
        tries++
      ) {
        await new Promise((r) => setTimeout(r, 1));
      }
      if (gl.getQueryParameter(q, gl.QUERY_RESULT_AVAILABLE))
        out[i] = Number(gl.getQueryParameter(q, gl.QUERY_RESULT));
    }
    if (gl.getParameter(this.#ext.GPU_DISJOINT_EXT)) out.fill(Number.NaN);
    return out;
  }

  protected destroyImpl(): void {
    for (const q of this.#queries) this.#device.gl.deleteQuery(q);
  }
}
