import { Resource } from './resource.js';
import { TextureUsage } from './flags.js';
import { FORMAT_INFO, textureByteSize, type TextureFormat } from './formats.js';
import { ValidationError } from './errors.js';
import { requireTextureUsage } from './validate/texture.js';
import { validateTextureRegion } from './validate/copy.js';
import type { TextureDescriptor } from './descriptors.js';
import type { Device } from './device.js';
import { orZero } from './validate/copy.js';

/** Which part of a texture `texture.read()` reads: mip level, origin, size. */
export interface TextureReadOptions {
  mipLevel?: number;
  origin?: { x?: number; y?: number };
  size?: { width: number; height: number };
}

/** Texel data read back with tightly packed rows (no 256-byte padding). */
export type TexelArray = Uint8Array | Uint16Array | Float32Array;

/** A 2-D image. Backends subclass it. */
export abstract class Texture extends Resource {
  readonly kind = 'texture' as const;
  readonly width: number;
  readonly height: number;
  readonly format: TextureFormat;
  readonly usage: number;
  readonly mipLevelCount: number;
  readonly sampleCount: number;
  /** Mip level 0's texels, tight rows (devices with `hostShadows`, sampled colour textures). */
  #shadow: Uint8Array | null = null;
  #shadowStale = false;

  constructor(device: Device, desc: TextureDescriptor) {
    super(device, desc.label);
    this.width = desc.size.width;
    this.height = desc.size.height;
    this.format = desc.format;
    this.usage = desc.usage;
    this.mipLevelCount = desc.mipLevelCount ?? 1;
    this.sampleCount = desc.sampleCount ?? 1;
    const bytes = FORMAT_INFO[this.format].bytesPerTexel;
    if (device.hostShadows && this.usage & TextureUsage.TEXTURE_BINDING && bytes > 0)
      if (this.sampleCount === 1) this.#shadow = new Uint8Array(this.width * this.height * bytes);
  }

  /**
   * The host copy of mip level 0 (tight rows, the format's bytes), or null where the device keeps
   * none. `stale` when the GPU wrote the texture in a way the copy cannot follow (a render pass,
   * a copy into it). `queue.writeTexture` to level 0 keeps it current.
   */
  get hostShadow(): { readonly bytes: Uint8Array; readonly stale: boolean } | null {
    return this.#shadow ? { bytes: this.#shadow, stale: this.#shadowStale } : null;
  }

  /** @internal Core's queue: `rows` of `bytesPerRow` written at (x, y) of level 0, or null (stale). */
  updateShadow(
    x: number,
    y: number,
    width: number,
    height: number,
    data: Uint8Array | null,
    offset = 0,
    bytesPerRow = 0,
  ): void {
    if (!this.#shadow) return;
    if (!data) {
      this.#shadowStale = true;
      return;
    }
    const texel = FORMAT_INFO[this.format].bytesPerTexel;
    for (let row = 0; row < height; row++) {
      const from = offset + row * bytesPerRow;
      this.#shadow.set(
        data.subarray(from, from + width * texel),
        ((y + row) * this.width + x) * texel,
      );
    }
    // a write of the whole level makes the copy whole again
    if (x === 0 && y === 0 && width === this.width && height === this.height)
      this.#shadowStale = false;
  }

  override get byteSize(): number {
    return textureByteSize(
      this.format,
      this.width,
      this.height,
      this.mipLevelCount,
      this.sampleCount,
    );
  }

  /**
   * Reads a region back with tight rows: `Uint8Array` for 8-bit formats, `Uint16Array` (raw half
   * floats) for 16-bit float formats, `Float32Array` for 32-bit float formats. Never stalls.
   */
  read(options: TextureReadOptions = {}): Promise<TexelArray> {
    this.assertAlive('read');
    requireTextureUsage(this.usage, TextureUsage.COPY_SRC, 'texture.read()', this.label);
    if (FORMAT_INFO[this.format].bytesPerTexel === 0) {
      throw new ValidationError(
        'copy-format',
        `Format ${this.format} cannot be read back`,
        this.label,
        { format: this.format },
      );
    }
    const mipLevel = orZero(options.mipLevel);
    const x = orZero(options.origin?.x);
    const y = orZero(options.origin?.y);
    const size = options.size ?? {
      width: Math.max(1, this.width >> mipLevel) - x,
      height: Math.max(1, this.height >> mipLevel) - y,
    };
    validateTextureRegion(this, mipLevel, x, y, size);
    return this.readImpl(mipLevel, x, y, size.width, size.height);
  }

  protected abstract readImpl(
    mipLevel: number,
    x: number,
    y: number,
    width: number,
    height: number,
  ): Promise<TexelArray>;
}

/** Wraps tight texel bytes in the typed array `Texture.read()` promises for this format. */
export function texelView(format: TextureFormat, bytes: ArrayBuffer): TexelArray {
  const info = FORMAT_INFO[format];
  if (info.float32) return new Float32Array(bytes);
  if (info.half) return new Uint16Array(bytes);
  return new Uint8Array(bytes);
}

/** Removes row padding: `rows` rows of `rowBytes` bytes, `stride` bytes apart in `src`. */
export function unpadRows(
  src: Uint8Array,
  rowBytes: number,
  stride: number,
  rows: number,
): ArrayBuffer {
  const out = new Uint8Array(rowBytes * rows);
  for (let r = 0; r < rows; r++)
    out.set(src.subarray(r * stride, r * stride + rowBytes), r * rowBytes);
  return out.buffer;
}
