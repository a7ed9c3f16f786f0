import { QuerySet } from '../core/query-set.js';
import type { QuerySetDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUQuerySet extends QuerySet {
  readonly gpu: GPUQuerySet;
  #resolve: GPUBuffer;
  readonly #device: WebGPUDevice;

  override adopt(fresh: WebGPUQuerySet): void {
    super.adopt(fresh);
    this.#resolve = fresh.#resolve;
  }

  constructor(device: WebGPUDevice, desc: QuerySetDescriptor) {
    super(device, desc);
    this.#device = device;
    this.gpu = device.scoped('createQuerySet', desc.label, () =>
      device.gpu.createQuerySet({
        label: desc.label,
        type: 'timestamp',
        count: desc.count,
      }),
    );
    this.#resolve = device.gpu.createBuffer({
      label: `${desc.label ?? ''} resolve`,
      size: desc.count * 8,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
  }

  /**
   * Resolves only the runs of queries a submitted pass wrote (an unwritten query reads 0 on Dawn and
   * hangs wgpu); the others read NaN, as the core contract says.
   */
  async readTimestamps(): Promise<Float64Array> {
    this.assertAlive('readTimestamps');
    const out = new Float64Array(this.count).fill(Number.NaN);
    const runs = this.writtenRuns();
    if (runs.length === 0) return out;
    const bytes = await this.#device.readback.read(this.count * 8, (encoder, staging) => {
      // resolve offsets must be multiples of 256: each run goes to offset 0, then to its place
      for (const [first, count] of runs) {
        encoder.resolveQuerySet(this.gpu, first, count, this.#resolve, 0);
        encoder.copyBufferToBuffer(this.#resolve, 0, staging, first * 8, count * 8);
      }
    });
    const ticks = new BigUint64Array(bytes);
    for (const [first, count] of runs)
      for (let i = first; i < first + count; i++) out[i] = Number(ticks[i]);
    return out;
  }

  protected destroyImpl(): void {
    this.gpu.destroy();
    this.#resolve.destroy();
  }
}
