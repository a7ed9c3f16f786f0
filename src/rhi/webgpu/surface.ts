import type { Surface } from '../core/surface.js';
import type { TextureFormat } from '../core/formats.js';
import { TextureUsage } from '../core/flags.js';
import { WebGPUTexture } from './texture.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUSurface implements Surface {
  readonly format: TextureFormat;
  readonly #context: GPUCanvasContext;
  #wrappers = new WeakMap<GPUTexture, WebGPUTexture>();

  constructor(
    private readonly device: WebGPUDevice,
    private readonly canvas: HTMLCanvasElement | OffscreenCanvas,
  ) {
    const context = canvas.getContext('webgpu');
    if (!context) throw new Error('canvas.getContext("webgpu") returned null');
    this.#context = context;
    this.format = navigator.gpu.getPreferredCanvasFormat() as TextureFormat;
    this.#configure();
  }

  /** After `device.restore()`: the context configured with the new GPUDevice. */
  reconfigure(): void {
    this.#wrappers = new WeakMap();
    this.#configure();
  }

  #configure(): void {
    this.#context.configure({
      device: this.device.gpu,
      format: this.format,
      usage:
        GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.COPY_DST,
      alphaMode: 'premultiplied',
    });
  }

  get width(): number {
    return this.canvas.width;
  }
  get height(): number {
    return this.canvas.height;
  }

  resize(width: number, height: number): void {
    this.canvas.width = width;
    this.canvas.height = height;
  }

  getCurrentTexture(): WebGPUTexture {
    const gpu = this.#context.getCurrentTexture();
    let wrapper = this.#wrappers.get(gpu);
    if (!wrapper) {
      wrapper = new WebGPUTexture(
        this.device,
        {
          label: 'surface',
          size: { width: gpu.width, height: gpu.height },
          format: this.format,
          usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC | TextureUsage.COPY_DST,
        },
        gpu,
      );
      this.#wrappers.set(gpu, wrapper);
    }
    return wrapper;
  }
}
