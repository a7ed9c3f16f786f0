import { Texture, texelView, unpadRows, type TexelArray } from '../core/texture.js';
import { FORMAT_INFO } from '../core/formats.js';
import type { TextureDescriptor } from '../core/descriptors.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUTexture extends Texture {
  readonly gpu: GPUTexture;
  #view: GPUTextureView | null = null;
  readonly #device: WebGPUDevice;
  /** Surface textures belong to the canvas: destroy() only forgets them. */
  readonly #owned: boolean;

  constructor(device: WebGPUDevice, desc: TextureDescriptor, existing?: GPUTexture) {
    super(device, desc);
    this.#device = device;
    this.#owned = existing === undefined;
    this.gpu =
      existing ??
      device.gpu.createTexture({
        label: desc.label,
        size: [desc.size.width, desc.size.height],
        format: desc.format,
        usage: desc.usage,
        mipLevelCount: desc.mipLevelCount ?? 1,
        sampleCount: desc.sampleCount ?? 1,
      });
  }

  override adopt(fresh: WebGPUTexture): void {
    super.adopt(fresh);
    this.#view = null;
  }

  /** The default view (all mips), created once. */
  get view(): GPUTextureView {
    this.#view ??= this.gpu.createView({ label: this.label });
    return this.#view;
  }

  protected async readImpl(
    mipLevel: number,
    x: number,
    y: number,
    width: number,
    height: number,
  ): Promise<TexelArray> {
    const bpt = FORMAT_INFO[this.format].bytesPerTexel;
    const rowBytes = width * bpt;
    const stride = Math.ceil(rowBytes / 256) * 256;
    const size = stride * (height - 1) + rowBytes;
    const padded = await this.#device.readback.read(size, (encoder, staging) =>
      encoder.copyTextureToBuffer(
        { texture: this.gpu, mipLevel, origin: [x, y] },
        { buffer: staging, bytesPerRow: stride },
        [width, height],
      ),
    );
    return texelView(this.format, unpadRows(new Uint8Array(padded), rowBytes, stride, height));
  }

  protected destroyImpl(): void {
    this.#device.bindGroups.evict(this.id);
    if (this.#owned) this.gpu.destroy();
  }
}
