import { Texture, texelView, type TexelArray } from '../core/texture.js';
import { FORMAT_INFO } from '../core/formats.js';
import type { TextureDescriptor } from '../core/descriptors.js';
import type { NullDevice } from './device.js';

export class NullTexture extends Texture {
  /** Tight texel bytes per mip level. */
  readonly levels: Uint8Array[] = [];
  readonly bytesPerTexel: number;
  constructor(device: NullDevice, desc: TextureDescriptor) {
    super(device, desc);
    this.bytesPerTexel = FORMAT_INFO[this.format].bytesPerTexel || 4;
    for (let l = 0; l < this.mipLevelCount; l++) {
      this.levels.push(
        new Uint8Array(this.levelWidth(l) * this.levelHeight(l) * this.bytesPerTexel),
      );
    }
  }
  levelWidth(level: number): number {
    return Math.max(1, this.width >> level);
  }
  levelHeight(level: number): number {
    return Math.max(1, this.height >> level);
  }
  /** Copies rows between `src` (at `srcOffset`, `srcStride` apart) and a region of a level. */
  writeRegion(
    level: number,
    x: number,
    y: number,
    w: number,
    h: number,
    src: Uint8Array,
    srcOffset: number,
    srcStride: number,
  ): void {
    const dst = this.levels[level] as Uint8Array;
    const rowBytes = w * this.bytesPerTexel;
    const levelStride = this.levelWidth(level) * this.bytesPerTexel;
    for (let r = 0; r < h; r++) {
      const from = srcOffset + r * srcStride;
      dst.set(src.subarray(from, from + rowBytes), (y + r) * levelStride + x * this.bytesPerTexel);
    }
  }
  readRegion(
    level: number,
    x: number,
    y: number,
    w: number,
    h: number,
    dst: Uint8Array,
    dstOffset: number,
    dstStride: number,
  ): void {
    const src = this.levels[level] as Uint8Array;
    const rowBytes = w * this.bytesPerTexel;
    const levelStride = this.levelWidth(level) * this.bytesPerTexel;
    for (let r = 0; r < h; r++) {
      const from = (y + r) * levelStride + x * this.bytesPerTexel;
      dst.set(src.subarray(from, from + rowBytes), dstOffset + r * dstStride);
    }
  }
  protected readImpl(
    mipLevel: number,
    x: number,
    y: number,
    width: number,
    height: number,
  ): Promise<TexelArray> {
    const out = new Uint8Array(width * height * this.bytesPerTexel);
    this.readRegion(mipLevel, x, y, width, height, out, 0, width * this.bytesPerTexel);
    return Promise.resolve(texelView(this.format, out.buffer));
  }
  protected destroyImpl(): void {}
}
