import { ValidationError } from '../errors.js';
import { FORMAT_INFO } from '../formats.js';
import type { Extent2D } from '../descriptors.js';
import { isNonNegativeInteger } from './buffer.js';
import { show } from '../show.js';

/** The alignment WebGPU demands of `bytesPerRow` in buffer↔texture copies; kept on every backend. */
export const COPY_BYTES_PER_ROW_ALIGNMENT = 256;

export interface TextureRegion {
  readonly label: string;
  readonly format: keyof typeof FORMAT_INFO;
  readonly width: number;
  readonly height: number;
  readonly mipLevelCount: number;
  readonly sampleCount: number;
}

/**
 * An optional coordinate or level as WebGPU's dictionaries take it: a missing one is 0; anything
 * else (null too) is checked as given, never quietly made 0.
 */
export function orZero(value: number | undefined): number {
  return value === undefined ? 0 : value;
}

/** The region [origin, origin + extent) of mip `level` lies inside the texture. */
export function validateTextureRegion(
  texture: TextureRegion,
  mipLevel: number,
  x: number,
  y: number,
  extent: Extent2D,
): void {
  const { label } = texture;
  if (!isNonNegativeInteger(mipLevel) || mipLevel >= texture.mipLevelCount) {
    throw new ValidationError(
      'copy-mip-level',
      `mipLevel ${show(mipLevel)} is outside the texture's ${texture.mipLevelCount} levels`,
      label,
      { mipLevel },
    );
  }
  if (!isNonNegativeInteger(x) || !isNonNegativeInteger(y))
    throw new ValidationError(
      'copy-origin',
      `Copy origin (${show(x)}, ${show(y)}) must be non-negative integers`,
      label,
      { x, y },
    );
  if (
    extent === null ||
    typeof extent !== 'object' ||
    !isNonNegativeInteger(extent.width) ||
    !isNonNegativeInteger(extent.height)
  ) {
    // (WebGPU: an empty extent is a valid copy that copies nothing)
    throw new ValidationError(
      'copy-extent',
      `Copy extent ${show(extent?.width)}x${show(extent?.height)} must be integers ≥ 0`,
      label,
      { ...extent },
    );
  }
  const w = Math.max(1, texture.width >> mipLevel);
  const h = Math.max(1, texture.height >> mipLevel);
  if (
    !isNonNegativeInteger(x) ||
    !isNonNegativeInteger(y) ||
    x + extent.width > w ||
    y + extent.height > h
  ) {
    throw new ValidationError(
      'copy-texture-range',
      `Copy of ${extent.width}x${extent.height} at (${x}, ${y}) overruns mip ${mipLevel} of size ${w}x${h}`,
      label,
      { x, y, width: extent.width, height: extent.height, levelWidth: w, levelHeight: h },
    );
  }
  if (texture.sampleCount !== 1) {
    throw new ValidationError(
      'copy-multisampled',
      `A multisampled texture cannot be copied; resolve it first`,
      label,
      {},
    );
  }
}

/**
 * The buffer side of a buffer↔texture copy: `bytesPerRow` a multiple of 256 and at least one row of
 * texels (it may be left out for a copy of one row or none, as in WebGPU), the offset
 * texel-aligned, and the buffer long enough for every row. Returns the row pitch to use.
 */
export function validateBufferLayout(
  format: keyof typeof FORMAT_INFO,
  bufferSize: number,
  offset: number,
  given: number | undefined,
  extent: Extent2D,
  label: string | undefined,
  requireAlignment = true,
): number {
  const bytesPerTexel = FORMAT_INFO[format].bytesPerTexel;
  if (bytesPerTexel === 0) {
    throw new ValidationError(
      'copy-format',
      `Format ${format} cannot be copied to or from a buffer`,
      label,
      { format },
    );
  }
  const rowBytes = extent.width * bytesPerTexel;
  if (given === undefined && extent.height > 1)
    throw new ValidationError(
      'copy-bytes-per-row',
      `bytesPerRow is needed for a copy of ${extent.height} rows`,
      label,
      { bytesPerRow: given },
    );
  const bytesPerRow = given ?? rowBytes;
  if (
    !isNonNegativeInteger(bytesPerRow) ||
    (given !== undefined && requireAlignment && bytesPerRow % COPY_BYTES_PER_ROW_ALIGNMENT !== 0)
  ) {
    throw new ValidationError(
      'copy-bytes-per-row',
      `bytesPerRow ${show(bytesPerRow)} must be ${requireAlignment ? `a multiple of ${COPY_BYTES_PER_ROW_ALIGNMENT}` : 'an integer ≥ 0'}`,
      label,
      { bytesPerRow },
    );
  }
  if (!requireAlignment && bytesPerRow % bytesPerTexel !== 0 && extent.height > 1) {
    throw new ValidationError(
      'copy-bytes-per-row-texel',
      `bytesPerRow ${bytesPerRow} must be a multiple of the ${bytesPerTexel}-byte ${format} texel`,
      label,
      {
        bytesPerRow,
      },
    );
  }
  if (bytesPerRow < rowBytes && extent.height > 1) {
    throw new ValidationError(
      'copy-bytes-per-row-short',
      `bytesPerRow ${bytesPerRow} is less than one row of ${extent.width} ${format} texels (${rowBytes} bytes)`,
      label,
      {
        bytesPerRow,
        rowBytes,
      },
    );
  }
  // (WebGPU aligns the offset of buffer copies only; writeTexture's data may start anywhere)
  if (!isNonNegativeInteger(offset) || (requireAlignment && offset % bytesPerTexel !== 0)) {
    throw new ValidationError(
      'copy-offset',
      `Copy offset ${show(offset)} must be ${requireAlignment ? `a non-negative multiple of ${bytesPerTexel}` : 'an integer ≥ 0'}`,
      label,
      { offset },
    );
  }
  const needed =
    extent.height === 0 || extent.width === 0
      ? offset
      : offset + bytesPerRow * (extent.height - 1) + rowBytes;
  if (needed > bufferSize) {
    throw new ValidationError(
      'copy-buffer-range',
      `Copy needs ${needed} bytes but the buffer has ${bufferSize}`,
      label,
      { needed, bufferSize },
    );
  }
  // one row or none: the pitch is never used; backends get one every API accepts (WebGPU's
  // buffer copies want a multiple of 256 when one is given)
  if (
    extent.height <= 1 &&
    (given === undefined || bytesPerRow < rowBytes || bytesPerRow % bytesPerTexel !== 0)
  )
    return requireAlignment
      ? Math.max(1, Math.ceil(rowBytes / COPY_BYTES_PER_ROW_ALIGNMENT)) *
          COPY_BYTES_PER_ROW_ALIGNMENT
      : rowBytes;
  return bytesPerRow;
}
