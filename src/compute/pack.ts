/**
 * Element state in textures: element i lives at texel (i % width, floor(i / width)) of a
 * width × height RGBA texture. The width is a power of two near √count, within the device limit.
 */
import { LimitExceededError } from '../rhi/core/errors.js';
import { floatToHalfBits, halfToFloat } from '../rhi/core/half.js';

export { floatToHalfBits, halfToFloat };

/** The texture a ping-pong path stores N elements in (one texel per element). */
export interface StateTextureSize {
  width: number;
  height: number;
}

/** The smallest state texture for `count` elements within `maxDimension`; a typed error when none fits. */
export function stateTextureSize(
  count: number,
  maxDimension: number,
  label?: string,
): StateTextureSize {
  const width = Math.min(
    maxDimension,
    2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(Math.sqrt(count))))),
  );
  const height = Math.ceil(count / width);
  if (height > maxDimension) {
    throw new LimitExceededError(
      'maxTextureDimension2D',
      count,
      maxDimension * maxDimension,
      'Element count (state texture texels)',
      label,
    );
  }
  return { width, height: Math.max(1, height) };
}

/** `count` vec4s → a width × height texel array (padding zeroed). */
export function padToTexels(data: Float32Array, size: StateTextureSize): Float32Array {
  const out = new Float32Array(size.width * size.height * 4);
  out.set(data.subarray(0, Math.min(data.length, out.length)));
  return out;
}

/** Float32 values to IEEE half-precision bits. */
export function toHalfs(data: Float32Array): Uint16Array {
  const out = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = floatToHalfBits(data[i] as number);
  return out;
}

/** IEEE half-precision bits to Float32 values. */
export function fromHalfs(data: Uint16Array): Float32Array {
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = halfToFloat(data[i] as number);
  return out;
}
