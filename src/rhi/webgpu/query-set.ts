import { QuerySet } from '../core/query-set.js';
import type { QuerySetDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUQuerySet extends QuerySet {
  readonly gpu: GPUQuerySet;
  readonly #resolve: GPUBuffer;
  readonly #device: WebGPUDevice;

  constructor(device: WebGPUDevice, desc: QuerySetDescriptor) {
    super(device, desc);
    this.#device = device;
    this.gpu = device.gpu.createQuerySet({ label: desc.label, type: 'timestamp', count: desc.count });
    this.#resolve = device.gpu.createBuffer({
      label: `${desc.label ?? ''} resolve`,
      size: desc.count * 8,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
  }

  async readTimestamps(): Promise<Float64Array> {
    this.assertAlive('readTimestamps');
    const bytes = await this.#device.staging.read(this.count * 8, (encoder, staging) => {
      encoder.resolveQuerySet(this.gpu, 0, this.count, this.#resolve, 0);
      encoder.copyBufferToBuffer(this.#resolve, 0, staging, 0, this.count * 8);
    });
    const ticks = new BigUint64Array(bytes);
    return Float64Array.from(ticks, (t) => Number(t));
  }

  protected destroyImpl(): void {
    this.gpu.destroy();
    this.#resolve.destroy();
  }
}
