import { ValidationError } from '../errors.js';
import type { SamplerDescriptor } from '../descriptors.js';

const SAMPLER_ADDRESS: readonly string[] = ['clamp-to-edge', 'repeat', 'mirror-repeat'];
const SAMPLER_FILTER: readonly string[] = ['nearest', 'linear'];

/** Sampler descriptors: address modes and filters from WebGPU's sets, and its LOD clamp rules. */
export function validateSamplerDescriptor(desc: SamplerDescriptor): void {
  for (const key of ['addressModeU', 'addressModeV'] as const) {
    const v = desc[key];
    if (v !== undefined && !SAMPLER_ADDRESS.includes(v)) {
      throw new ValidationError(
        'sampler-address-mode',
        `Sampler ${key} ${String(v)} must be one of ${SAMPLER_ADDRESS.join(', ')}`,
        desc.label,
        { [key]: v },
      );
    }
  }
  for (const key of ['magFilter', 'minFilter', 'mipmapFilter'] as const) {
    const v = desc[key];
    if (v !== undefined && !SAMPLER_FILTER.includes(v)) {
      throw new ValidationError(
        'sampler-filter',
        `Sampler ${key} ${String(v)} must be 'nearest' or 'linear'`,
        desc.label,
        { [key]: v },
      );
    }
  }
  // WebGPU: lodMinClamp ≥ 0 and lodMaxClamp ≥ lodMinClamp (defaults 0 and 32)
  const min = desc.lodMinClamp ?? 0;
  const max = desc.lodMaxClamp ?? 32;
  if (typeof min !== 'number' || !(min >= 0))
    throw new ValidationError(
      'sampler-lod-min',
      `Sampler lodMinClamp ${String(min)} must be a number ≥ 0`,
      desc.label,
      { lodMinClamp: min },
    );
  if (typeof max !== 'number' || !(max >= min))
    throw new ValidationError(
      'sampler-lod-max',
      `Sampler lodMaxClamp ${String(max)} must be a number ≥ lodMinClamp (${min})`,
      desc.label,
      { lodMaxClamp: max, lodMinClamp: min },
    );
}
