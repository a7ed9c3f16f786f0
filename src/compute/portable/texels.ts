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
  /** Mip levels the texture has (the host copy holds level 0). */
  readonly levels: number;
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
  levels = 1,
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
  return { width, height, data, levels };
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

/** What `textureSampleLevel` reads of a sampler on the CPU. */
export interface SamplerState {
  readonly addressModeU: string;
  readonly addressModeV: string;
  readonly magFilter: string;
  readonly minFilter: string;
  readonly lodMinClamp: number;
  readonly lodMaxClamp: number;
}

/** Texel index `i` of a row or column of `n` under an address mode. */
function address(i: number, n: number, mode: string): number {
  if (mode === 'repeat') return ((i % n) + n) % n;
  if (mode === 'mirror-repeat') {
    const period = 2 * n;
    const m = ((i % period) + period) % period;
    return m < n ? m : period - 1 - m;
  }
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/**
 * `textureSampleLevel(t, s, coords, level)` on the CPU: level 0 of the host copy (a level above 0
 * of a texture with mips is a RangeError), filtered as the sampler says — `magFilter` where the
 * clamped level is 0 or less, else `minFilter` (WebGPU's rule for an explicit level) — at texel
 * centres, each texel's index wrapped by the address mode, in f32 arithmetic. A GPU computes the
 * weights in fixed point (often 8 bits of fraction): results agree within that.
 */
export function sampleTexel(
  t: DecodedTexture,
  s: SamplerState,
  coords: readonly number[],
  level: number,
): number[] {
  const lod = Math.min(Math.max(level, s.lodMinClamp), s.lodMaxClamp);
  if (lod > 0 && t.levels > 1 && Math.round(lod) > 0)
    throw new RangeError(
      `textureSampleLevel at level ${level}: the CPU path samples level 0 of a texture's host copy`,
    );
  const filter = lod <= 0 ? s.magFilter : s.minFilter;
  const u = (coords[0] as number) * t.width;
  const v = (coords[1] as number) * t.height;
  const texel = (x: number, y: number): number => {
    const i = address(x, t.width, s.addressModeU);
    const j = address(y, t.height, s.addressModeV);
    return 4 * (j * t.width + i);
  };
  const d = t.data;
  if (filter !== 'linear') {
    const i = texel(Math.floor(u), Math.floor(v));
    return [d[i], d[i + 1], d[i + 2], d[i + 3]] as number[];
  }
  const x = Math.fround(u - 0.5);
  const y = Math.fround(v - 0.5);
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = Math.fround(x - x0);
  const fy = Math.fround(y - y0);
  const a = texel(x0, y0);
  const b = texel(x0 + 1, y0);
  const c = texel(x0, y0 + 1);
  const e = texel(x0 + 1, y0 + 1);
  const out: number[] = [];
  for (let k = 0; k < 4; k++) {
    const top = Math.fround(
      (d[a + k] as number) +
        Math.fround(fx * Math.fround((d[b + k] as number) - (d[a + k] as number))),
    );
    const bottom = Math.fround(
      (d[c + k] as number) +
        Math.fround(fx * Math.fround((d[e + k] as number) - (d[c + k] as number))),
    );
    out.push(Math.fround(top + Math.fround(fy * Math.fround(bottom - top))));
  }
  return out;
}
