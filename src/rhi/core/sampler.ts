import { Resource } from './resource.js';
import type { SamplerDescriptor } from './descriptors.js';
import type { Device } from './device.js';

export type ResolvedSamplerDescriptor = Required<Omit<SamplerDescriptor, 'label' | 'compare'>> &
  Pick<SamplerDescriptor, 'compare'>;

/** How textures are filtered and addressed (`device.createSampler`). */
export abstract class Sampler extends Resource {
  readonly kind = 'sampler' as const;
  readonly descriptor: ResolvedSamplerDescriptor;
  constructor(device: Device, desc: SamplerDescriptor) {
    super(device, desc.label);
    this.descriptor = {
      addressModeU: desc.addressModeU ?? 'clamp-to-edge',
      addressModeV: desc.addressModeV ?? 'clamp-to-edge',
      addressModeW: desc.addressModeW ?? 'clamp-to-edge',
      magFilter: desc.magFilter ?? 'nearest',
      minFilter: desc.minFilter ?? 'nearest',
      mipmapFilter: desc.mipmapFilter ?? 'nearest',
      lodMinClamp: desc.lodMinClamp ?? 0,
      lodMaxClamp: desc.lodMaxClamp ?? 32,
      // WebIDL's [Clamp] unsigned short: rounded, at most 65,535 (validated ≥ 1 in core)
      maxAnisotropy: Math.min(65535, Math.round(desc.maxAnisotropy ?? 1)),
      ...(desc.compare === undefined ? {} : { compare: desc.compare }),
    };
  }
}
