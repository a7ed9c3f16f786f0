/**
 * Texels of a sampled texture as the CPU path reads them: mip level 0 from the texture's host
 * copy, decoded to RGBA floats as a GPU's `textureLoad` returns them — unorm bytes × (1/255), sRGB
 * bytes to linear, halfs and floats as they are, missing channels (0, 0, 1), BGRA swizzled. And
 * storage textures as the CPU path writes them: `textureStore` encodes into a copy of the bytes.
 */
import { FORMAT_INFO, type TextureFormat } from '../../rhi/core/formats.js';
import { floatToHalfBits, halfToFloat } from '../../rhi/core/half.js';

/** A decoded texture: `data` holds 4 floats per texel, rows top to bottom. */
export interface DecodedTexture {
  readonly width: number;
  readonly height: number;
  readonly data: Float32Array;
}

/** 1/255 as f32: SwiftShader converts unorm8 with one f32 multiply; an exact x / 255 is within 1 ulp of it. */
const UNORM8 = Math.fround(1 / 255);

const srgbToLinear = (c: number): number =>
  c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;

/** Decodes level 0 of a texture of `format` from its tight bytes. */
export function decodeTexels(
  format: TextureFormat,
  width: number,
  height: number,
  bytes: Uint8Array,
): DecodedTexture {
  const info = FORMAT_INFO[format];
  const n = width * height;
  const data = new Float32Array(4 * n);
  const channels = info.components;
  const read: (i: number, c: number) => number =
    info.kind === 'unorm'
      ? (i, c) => Math.fround((bytes[i * info.bytesPerTexel + c] as number) * UNORM8)
      : info.half
        ? (() => {
            const h = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
            return (i: number, c: number) => halfToFloat(h[i * channels + c] as number);
          })()
        : (() => {
            const f = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
            return (i: number, c: number) => f[i * channels + c] as number;
          })();
  const srgb = format === 'rgba8unorm-srgb';
  const order = format === 'bgra8unorm' ? [2, 1, 0, 3] : [0, 1, 2, 3];
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 4; c++) {
      const from = order[c] as number;
      let v = from < channels ? read(i, from) : c === 3 ? 1 : 0;
      if (srgb && c < 3) v = srgbToLinear(v);
      data[4 * i + c] = v;
    }
  return { width, height, data };
}

/** `textureLoad(t, coords, level)` on the CPU: level 0, coordinates clamped to the texture. */
export function loadTexel(t: DecodedTexture, coords: readonly number[], level: number): number[] {
  if (level !== 0)
    throw new RangeError(
      `textureLoad at mip level ${level}: the CPU path reads level 0 of a texture's host copy`,
    );
  const x = Math.min(Math.max(coords[0] as number, 0), t.width - 1);
  const y = Math.min(Math.max(coords[1] as number, 0), t.height - 1);
  const i = 4 * (y * t.width + x);
  return [t.data[i], t.data[i + 1], t.data[i + 2], t.data[i + 3]] as number[];
}

/** A storage texture as the CPU path writes it: a copy of level 0's bytes, uploaded after the run. */
export interface StorageImage {
  readonly width: number;
  readonly height: number;
  readonly bytes: Uint8Array;
  /** Encodes RGBA floats into texel `i` (the format's channels). */
  readonly put: (i: number, v: number[]) => void;
}

/** A storage image of `format` over a copy of `bytes` (level 0, tight rows). */
export function storageImage(
  format: TextureFormat,
  width: number,
  height: number,
  source: Uint8Array,
): StorageImage {
  const bytes = source.slice();
  const info = FORMAT_INFO[format];
  const n = info.components;
  let put: (i: number, v: number[]) => void;
  if (info.kind === 'unorm')
    put = (i, v) => {
      for (let c = 0; c < n; c++) {
        const x = v[c] as number;
        // NaN and below 0 store 0, 1 and above 255 (WGSL's conversion to unorm clamps), else nearest
        bytes[i * n + c] = x > 0 ? (x < 1 ? Math.round(x * 255) : 255) : 0;
      }
    };
  else if (info.half) {
    const h = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
    put = (i, v) => {
      for (let c = 0; c < n; c++) h[i * n + c] = floatToHalfBits(v[c] as number);
    };
  } else {
    const f = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
    put = (i, v) => {
      for (let c = 0; c < n; c++) f[i * n + c] = v[c] as number;
    };
  }
  return { width, height, bytes, put };
}

/** `textureStore(t, coords, value)` on the CPU: coordinates outside the texture write nothing (WGSL). */
export function storeTexel(t: StorageImage, coords: readonly number[], value: number[]): void {
  const x = coords[0] as number;
  const y = coords[1] as number;
  if (x < 0 || y < 0 || x >= t.width || y >= t.height) return;
  t.put(y * t.width + x, value);
}
