import { Buffer } from '../core/buffer.js';
import { BufferUsage } from '../core/flags.js';
import type { BufferDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUBuffer extends Buffer {
  readonly gpu: GPUBuffer;
  readonly #device: WebGPUDevice;

  constructor(device: WebGPUDevice, desc: BufferDescriptor) {
    super(device, desc);
    this.#device = device;
    this.gpu = device.scoped('createBuffer', desc.label, () =>
      device.gpu.createBuffer({
        label: desc.label,
        size: desc.size,
        usage: desc.usage,
        mappedAtCreation: desc.mappedAtCreation ?? false,
      }),
    );
    if (desc.mappedAtCreation) this.beginMappedAtCreation();
  }

  protected uploadImpl(offset: number, data: Uint8Array): void {
    // only reached from unmap() of mappedAtCreation: the native buffer is still mapped
    new Uint8Array(this.gpu.getMappedRange(offset, data.byteLength)).set(data);
    this.gpu.unmap();
  }

  protected async readImpl(offset: number, size: number): Promise<ArrayBuffer> {
    if (this.usage & BufferUsage.MAP_READ) {
      await this.gpu.mapAsync(GPUMapMode.READ, offset, size);
      const out = this.gpu.getMappedRange(offset, size).slice(0);
      this.gpu.unmap();
      return out;
    }
    return this.#device.readback.read(size, (encoder, staging) =>
      encoder.copyBufferToBuffer(this.gpu, offset, staging, 0, size),
    );
  }

  protected destroyImpl(): void {
    this.#device.bindGroups.evict(this.id);
    this.gpu.destroy();
  }
}
