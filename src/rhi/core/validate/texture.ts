import { ALL_TEXTURE_USAGE_BITS, TextureUsage, usageNames } from '../flags.js';
import {
  LimitExceededError,
  UnsupportedFeatureError,
  UsageError,
  ValidationError,
} from '../errors.js';
import { FORMAT_INFO, fullMipCount, isDepthFormat, isTextureFormat } from '../formats.js';
import type { Caps } from '../caps.js';
import type { TextureDescriptor } from '../descriptors.js';
import type { TextureFormat } from '../formats.js';
import { isPositiveInteger } from './buffer.js';
import { show } from '../show.js';

/** WebGPU's core texture format table: the formats that can be multisampled (of Ignis's set). */
const MULTISAMPLE_FORMATS: readonly TextureFormat[] = [
  'r8unorm',
  'rg8unorm',
  'rgba8unorm',
  'rgba8unorm-srgb',
  'bgra8unorm',
  'r16float',
  'rg16float',
  'rgba16float',
  'r32float',
  'depth16unorm',
  'depth24plus',
  'depth24plus-stencil8',
  'depth32float',
];
/** … and the formats that have STORAGE_BINDING (bgra8unorm only with a feature Ignis does not ask for). */
export const STORAGE_FORMATS: readonly TextureFormat[] = [
  'rgba8unorm',
  'rgba16float',
  'r32float',
  'rg32float',
  'rgba32float',
];

export function validateTextureDescriptor(desc: TextureDescriptor, caps: Caps): void {
  const { label, format } = desc;
  const width = desc.size?.width;
  const height = desc.size?.height;
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!isPositiveInteger(value)) {
      throw new ValidationError(
        'texture-size-positive',
        `Texture ${name} ${show(value)} must be a positive integer`,
        label,
        { [name]: value },
      );
    }
    if (value > caps.limits.maxTextureDimension2D) {
      throw new LimitExceededError(
        'maxTextureDimension2D',
        value,
        caps.limits.maxTextureDimension2D,
        `Texture ${name}`,
        label,
      );
    }
  }
  if (!isTextureFormat(format)) {
    throw new ValidationError(
      'texture-format',
      `Texture format ${String(format)} is not one of the supported formats`,
      label,
      { format },
    );
  }
  const usage = desc.usage;
  if (!isPositiveInteger(usage) || (usage & ~ALL_TEXTURE_USAGE_BITS) !== 0) {
    throw new ValidationError(
      'texture-usage',
      `Texture usage ${String(usage)} must be a non-zero set of TextureUsage bits`,
      label,
      { usage },
    );
  }
  const mips = desc.mipLevelCount ?? 1;
  const maxMips = fullMipCount(width as number, height as number);
  if (!isPositiveInteger(mips) || mips > maxMips) {
    throw new ValidationError(
      'texture-mip-count',
      `Texture mipLevelCount ${String(mips)} must be between 1 and ${maxMips} (the full chain of ${width}x${height})`,
      label,
      { mipLevelCount: mips, maximum: maxMips },
    );
  }
  const samples = desc.sampleCount ?? 1;
  if (samples !== 1 && samples !== 4) {
    throw new ValidationError(
      'texture-sample-count',
      `Texture sampleCount ${String(samples)} must be 1 or 4`,
      label,
      { sampleCount: samples },
    );
  }
  if (samples === 4) {
    if (!caps.features.multisample)
      throw new UnsupportedFeatureError(
        'multisample',
        caps.backend,
        'render single-sampled (sampleCount 1)',
        label,
      );
    if (!MULTISAMPLE_FORMATS.includes(format))
      throw new ValidationError(
        'texture-msaa-format',
        `Format ${format} cannot be multisampled in WebGPU (multisampled formats here: ${MULTISAMPLE_FORMATS.join(', ')})`,
        label,
        { format },
      );
    if (mips !== 1) {
      throw new ValidationError(
        'texture-msaa-mips',
        `A multisampled texture must have mipLevelCount 1, not ${mips}`,
        label,
        { mipLevelCount: mips },
      );
    }
    const forbidden =
      TextureUsage.STORAGE_BINDING |
      TextureUsage.COPY_DST |
      TextureUsage.COPY_SRC |
      TextureUsage.TEXTURE_BINDING;
    if ((usage & TextureUsage.RENDER_ATTACHMENT) === 0 || (usage & forbidden) !== 0) {
      const actual = usageNames(usage, TextureUsage);
      throw new UsageError(
        `A multisampled texture needs RENDER_ATTACHMENT and cannot be sampled, copied or stored — resolve it first (usage ${actual})`,
        'RENDER_ATTACHMENT',
        actual,
        label,
      );
    }
  }
  const info = FORMAT_INFO[format];
  if (usage & TextureUsage.RENDER_ATTACHMENT) {
    if (info.float32 && !isDepthFormat(format) && !caps.features.floatRenderTargets) {
      throw new UnsupportedFeatureError(
        'floatRenderTargets',
        caps.backend,
        `${format} cannot be a render target; use rgba16float or the CPU path`,
        label,
      );
    }
    if (info.half && !caps.features.halfFloatRenderTargets) {
      throw new UnsupportedFeatureError(
        'halfFloatRenderTargets',
        caps.backend,
        `${format} cannot be a render target; use rgba8unorm`,
        label,
      );
    }
  }
  if (usage & TextureUsage.STORAGE_BINDING && !STORAGE_FORMATS.includes(format))
    throw new ValidationError(
      'texture-storage-format',
      `Format ${format} has no STORAGE_BINDING in WebGPU (storage formats here: ${STORAGE_FORMATS.join(', ')})`,
      label,
      { format },
    );
  if (usage & TextureUsage.STORAGE_BINDING && !caps.features.storageTextures) {
    throw new UnsupportedFeatureError(
      'storageTextures',
      caps.backend,
      'write the texture from a render pass instead',
      label,
    );
  }
  if (
    isDepthFormat(format) &&
    (usage & (TextureUsage.STORAGE_BINDING | TextureUsage.COPY_DST)) !== 0
  ) {
    const actual = usageNames(usage, TextureUsage);
    throw new UsageError(
      `Depth format ${format} cannot have STORAGE_BINDING or COPY_DST usage (usage ${actual})`,
      'RENDER_ATTACHMENT|TEXTURE_BINDING',
      actual,
      label,
    );
  }
}

export function requireTextureUsage(
  usage: number,
  bit: number,
  operation: string,
  label?: string,
): void {
  if ((usage & bit) === 0) {
    const required = usageNames(bit, TextureUsage);
    const actual = usageNames(usage, TextureUsage);
    throw new UsageError(
      `${operation} needs TextureUsage.${required}, but the texture's usage is ${actual}`,
      required,
      actual,
      label,
    );
  }
}
