/**
 * Element state in textures: element i lives at texel (i % width, floor(i / width)) of a
 * width × height RGBA texture. The width is a power of two near √count, within the device limit.
 */
import { LimitExceededError } from '../rhi/core/errors.js';

export interface StateTextureSize {
  width: number;
  height: number;
}

export function stateTextureSize(count: number, maxDimension: number, label?: string): StateTextureSize {
  const width = Math.min(maxDimension, 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(Math.sqrt(count))))));
  const height = Math.ceil(count / width);
  if (height > maxDimension) {
    throw new LimitExceededError('maxTextureDimension2D', count, maxDimension * maxDimension, 'Element count (state texture texels)', label);
  }
  return { width, height: Math.max(1, height) };
}

/** `count` vec4s → a width × height texel array (padding zeroed). */
export function padToTexels(data: Float32Array, size: StateTextureSize): Float32Array {
  const out = new Float32Array(size.width * size.height * 4);
  out.set(data.subarray(0, Math.min(data.length, out.length)));
  return out;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half bits → number. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? Number.NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** number → IEEE half bits (round to nearest even). */
export function floatToHalfBits(value: number): number {
  f32[0] = value;
  const x = u32[0] as number;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 112;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = m >> shift;
    const rest = m & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mant >> 13);
  const rest = mant & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

export function toHalfs(data: Float32Array): Uint16Array {
  const out = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = floatToHalfBits(data[i] as number);
  return out;
}

export function fromHalfs(data: Uint16Array): Float32Array {
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = halfToFloat(data[i] as number);
  return out;
}
