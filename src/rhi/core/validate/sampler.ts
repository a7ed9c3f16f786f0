import { ValidationError } from '../errors.js';
import type { SamplerDescriptor } from '../descriptors.js';
import { show } from '../show.js';

const SAMPLER_ADDRESS: readonly string[] = ['clamp-to-edge', 'repeat', 'mirror-repeat'];
const SAMPLER_FILTER: readonly string[] = ['nearest', 'linear'];
const COMPARE_FUNCTIONS: readonly string[] = [
  'never',
  'less',
  'equal',
  'less-equal',
  'greater',
  'not-equal',
  'greater-equal',
  'always',
];

/** Sampler descriptors: address modes and filters from WebGPU's sets, and its LOD clamp rules. */
export function validateSamplerDescriptor(desc: SamplerDescriptor): void {
  for (const key of ['addressModeU', 'addressModeV', 'addressModeW'] as const) {
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
  // (WebIDL float: NaN and ±Infinity are TypeErrors)
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0)
    throw new ValidationError(
      'sampler-lod-min',
      `Sampler lodMinClamp ${show(min)} must be a finite number ≥ 0`,
      desc.label,
      { lodMinClamp: min },
    );
  if (typeof max !== 'number' || !Number.isFinite(max) || max < min)
    throw new ValidationError(
      'sampler-lod-max',
      `Sampler lodMaxClamp ${show(max)} must be a finite number ≥ lodMinClamp (${min})`,
      desc.label,
      { lodMaxClamp: max, lodMinClamp: min },
    );
  const anisotropy = desc.maxAnisotropy === undefined ? 1 : desc.maxAnisotropy;
  if (typeof anisotropy !== 'number' || !Number.isFinite(anisotropy) || anisotropy < 1)
    throw new ValidationError(
      'sampler-anisotropy',
      `Sampler maxAnisotropy ${show(anisotropy)} must be a number ≥ 1 (1: no anisotropic filtering)`,
      desc.label,
      { maxAnisotropy: anisotropy },
    );
  if (
    Math.round(anisotropy) > 1 &&
    (desc.magFilter !== 'linear' || desc.minFilter !== 'linear' || desc.mipmapFilter !== 'linear')
  )
    throw new ValidationError(
      'sampler-anisotropy',
      `Sampler maxAnisotropy ${anisotropy} needs magFilter, minFilter and mipmapFilter 'linear' (they are ${show(desc.magFilter ?? 'nearest')}, ${show(desc.minFilter ?? 'nearest')}, ${show(desc.mipmapFilter ?? 'nearest')})`,
      desc.label,
      { maxAnisotropy: anisotropy },
    );
  if (desc.compare !== undefined && !COMPARE_FUNCTIONS.includes(desc.compare as string))
    throw new ValidationError(
      'sampler-compare',
      `Sampler compare ${show(desc.compare)} is not one of ${COMPARE_FUNCTIONS.join(', ')}`,
      desc.label,
      { compare: desc.compare },
    );
}
