import type { VertexFormat } from './descriptors.js';

/** The texture formats Ignis supports on every backend (a subset of WebGPU's). */
export type ColorFormat =
  | 'r8unorm'
  | 'rg8unorm'
  | 'rgba8unorm'
  | 'rgba8unorm-srgb'
  | 'bgra8unorm'
  | 'r16float'
  | 'rg16float'
  | 'rgba16float'
  | 'r32float'
  | 'rg32float'
  | 'rgba32float';
/** A depth format. */
export type DepthStencilFormat =
  'depth16unorm' | 'depth24plus' | 'depth24plus-stencil8' | 'depth32float';
/** Every texture format Ignis supports, colour and depth. */
export type TextureFormat = ColorFormat | DepthStencilFormat;

export interface FormatInfo {
  /** Bytes of one texel as laid out in a buffer copy; 0 where the format cannot be copied (depth:
   * WebGL2 cannot read depth back, so no backend offers it). */
  readonly bytesPerTexel: number;
  readonly components: 1 | 2 | 3 | 4;
  readonly kind: 'unorm' | 'float' | 'depth' | 'depth-stencil';
  /** Needs `features.floatRenderTargets` to be rendered to. */
  readonly float32: boolean;
  readonly half: boolean;
}

export const FORMAT_INFO: Readonly<Record<TextureFormat, FormatInfo>> = {
  r8unorm: { bytesPerTexel: 1, components: 1, kind: 'unorm', float32: false, half: false },
  rg8unorm: { bytesPerTexel: 2, components: 2, kind: 'unorm', float32: false, half: false },
  rgba8unorm: { bytesPerTexel: 4, components: 4, kind: 'unorm', float32: false, half: false },
  'rgba8unorm-srgb': {
    bytesPerTexel: 4,
    components: 4,
    kind: 'unorm',
    float32: false,
    half: false,
  },
  bgra8unorm: { bytesPerTexel: 4, components: 4, kind: 'unorm', float32: false, half: false },
  r16float: { bytesPerTexel: 2, components: 1, kind: 'float', float32: false, half: true },
  rg16float: { bytesPerTexel: 4, components: 2, kind: 'float', float32: false, half: true },
  rgba16float: { bytesPerTexel: 8, components: 4, kind: 'float', float32: false, half: true },
  r32float: { bytesPerTexel: 4, components: 1, kind: 'float', float32: true, half: false },
  rg32float: { bytesPerTexel: 8, components: 2, kind: 'float', float32: true, half: false },
  rgba32float: { bytesPerTexel: 16, components: 4, kind: 'float', float32: true, half: false },
  depth16unorm: { bytesPerTexel: 0, components: 1, kind: 'depth', float32: false, half: false },
  depth24plus: { bytesPerTexel: 0, components: 1, kind: 'depth', float32: false, half: false },
  'depth24plus-stencil8': {
    bytesPerTexel: 0,
    components: 2,
    kind: 'depth-stencil',
    float32: false,
    half: false,
  },
  depth32float: { bytesPerTexel: 0, components: 1, kind: 'depth', float32: true, half: false },
};

/** Every supported texture format. */
export const TEXTURE_FORMATS = Object.keys(FORMAT_INFO) as TextureFormat[];

/**
 * WebGPU's render target pixel byte cost and component alignment of each colour format (its
 * texture format capabilities table: 8-bit unorm formats cost more than their texels, being
 * widened in render target memory).
 */
const RENDER_TARGET_COST: Partial<
  Record<TextureFormat, readonly [cost: number, alignment: number]>
> = {
  r8unorm: [1, 1],
  rg8unorm: [2, 1],
  rgba8unorm: [8, 1],
  'rgba8unorm-srgb': [8, 1],
  bgra8unorm: [8, 1],
  r16float: [2, 2],
  rg16float: [4, 2],
  rgba16float: [8, 2],
  r32float: [4, 4],
  rg32float: [8, 4],
  rgba32float: [16, 4],
};

/**
 * Bytes per sample of a pipeline's or pass's colour targets, as WebGPU counts them against
 * `limits.maxColorAttachmentBytesPerSample`: each target's cost, aligned to its component size.
 */
export function colorBytesPerSample(formats: readonly TextureFormat[]): number {
  let total = 0;
  for (const format of formats) {
    const [cost, alignment] = RENDER_TARGET_COST[format] ?? [FORMAT_INFO[format].bytesPerTexel, 1];
    total = Math.ceil(total / alignment) * alignment + cost;
  }
  return total;
}

/** Whether a format is a depth format. */
export function isDepthFormat(format: TextureFormat): format is DepthStencilFormat {
  const kind = FORMAT_INFO[format].kind;
  return kind === 'depth' || kind === 'depth-stencil';
}

/** Whether a value names a supported texture format. */
export function isTextureFormat(value: unknown): value is TextureFormat {
  // an own entry: `value in FORMAT_INFO` accepted 'toString' and '__proto__'
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(FORMAT_INFO, value);
}

/** Bytes a texture of this format and size occupies, summed over its mip chain (for accounting). */
export function textureByteSize(
  format: TextureFormat,
  width: number,
  height: number,
  mipLevelCount: number,
  sampleCount: number,
): number {
  const texel = FORMAT_INFO[format].bytesPerTexel || (format === 'depth16unorm' ? 2 : 4);
  let bytes = 0;
  for (let level = 0; level < mipLevelCount; level++) {
    bytes += Math.max(1, width >> level) * Math.max(1, height >> level) * texel;
  }
  return bytes * sampleCount;
}

/** Number of levels in the full mip chain of a width × height texture. */
export function fullMipCount(width: number, height: number): number {
  return Math.floor(Math.log2(Math.max(width, height, 1))) + 1;
}

/** Bytes of one vertex attribute of each vertex format. */
export const VERTEX_FORMAT_BYTES: Readonly<Record<VertexFormat, number>> = {
  uint8: 1,
  uint8x2: 2,
  uint8x4: 4,
  sint8: 1,
  sint8x2: 2,
  sint8x4: 4,
  unorm8: 1,
  unorm8x2: 2,
  unorm8x4: 4,
  snorm8: 1,
  snorm8x2: 2,
  snorm8x4: 4,
  uint16: 2,
  uint16x2: 4,
  uint16x4: 8,
  sint16: 2,
  sint16x2: 4,
  sint16x4: 8,
  unorm16: 2,
  unorm16x2: 4,
  unorm16x4: 8,
  snorm16: 2,
  snorm16x2: 4,
  snorm16x4: 8,
  float16: 2,
  float16x2: 4,
  float16x4: 8,
  float32: 4,
  float32x2: 8,
  float32x3: 12,
  float32x4: 16,
  uint32: 4,
  uint32x2: 8,
  uint32x3: 12,
  uint32x4: 16,
  sint32: 4,
  sint32x2: 8,
  sint32x3: 12,
  sint32x4: 16,
  'unorm10-10-10-2': 4,
  'unorm8x4-bgra': 4,
};
