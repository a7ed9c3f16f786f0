/**
 * An effect's image: PNG bytes decoded by fast-png (the same texels in every browser, in Deno and
 * in Node — no canvas, no colour management, no premultiplication) into an rgba8unorm texture.
 */
import { decode, convertIndexedToRgb } from 'fast-png';
import type { Device } from '../rhi/core/device.js';
import type { Texture } from '../rhi/core/texture.js';
import { TextureUsage } from '../rhi/core/flags.js';

/** The PNG's texels as RGBA, 8 bits each (grey, grey + alpha, RGB, palette and 16-bit PNGs widened or narrowed). */
export function decodePngRgba(bytes: Uint8Array): {
  width: number;
  height: number;
  data: Uint8Array;
} {
  const png = decode(bytes);
  const { width, height } = png;
  let src: ArrayLike<number> = png.data;
  let channels = png.channels;
  let shift = png.depth === 16 ? 8 : 0;
  if (png.palette) {
    src = convertIndexedToRgb(png);
    channels = src.length / (width * height);
    shift = 0;
  } else if (png.depth < 8) {
    throw new Error(`PNGs of ${png.depth}-bit grey are not read: save it with 8 bits per channel`);
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const at = i * channels;
    const c = (k: number): number => (src[at + k]! >> shift) & 255;
    const grey = channels <= 2;
    data[4 * i] = c(0);
    data[4 * i + 1] = grey ? c(0) : c(1);
    data[4 * i + 2] = grey ? c(0) : c(2);
    data[4 * i + 3] = channels === 2 ? c(1) : channels === 4 ? c(3) : 255;
  }
  return { width, height, data };
}

/** An rgba8unorm texture holding the PNG, for sprites and ribbons (sampled; COPY_DST to update). */
export function pngTexture(device: Device, label: string, bytes: Uint8Array): Texture {
  const { width, height, data } = decodePngRgba(bytes);
  const texture = device.createTexture({
    label,
    size: { width, height },
    format: 'rgba8unorm',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture }, data, { bytesPerRow: 4 * width }, { width, height });
  return texture;
}
