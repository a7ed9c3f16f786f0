import { Sampler } from '../core/sampler.js';
import type { SamplerDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUSampler extends Sampler {
  readonly gpu: GPUSampler;
  readonly #device: WebGPUDevice;
  constructor(device: WebGPUDevice, desc: SamplerDescriptor) {
    super(device, desc);
    this.#device = device;
    this.gpu = device.scoped('createSampler', desc.label, () =>
      device.gpu.createSampler({ label: desc.label, ...this.descriptor }),
    );
  }
  protected destroyImpl(): void {
    this.#device.bindGroups.evict(this.id);
  }
}
