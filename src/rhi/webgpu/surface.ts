import { Surface } from '../core/surface.js';
import type { TextureFormat } from '../core/formats.js';
import { TextureUsage } from '../core/flags.js';
import { ValidationError } from '../core/errors.js';
import { WebGPUTexture } from './texture.js';
import type { WebGPUDevice } from './device.js';

export class WebGPUSurface extends Surface {
  readonly format: TextureFormat;
  readonly #context: GPUCanvasContext;
  #wrappers = new WeakMap<GPUTexture, WebGPUTexture>();

  constructor(
    private readonly device: WebGPUDevice,
    private readonly canvas: HTMLCanvasElement | OffscreenCanvas,
  ) {
    super(device.caps.limits);
    const context = canvas.getContext('webgpu');
    if (!context)
      throw new ValidationError(
        'surface-context',
        'canvas.getContext("webgpu") returned null: the canvas already has a context of another kind (a canvas holds one context for its life; give the device a new canvas)',
      );
    this.#context = context;
    this.format = navigator.gpu.getPreferredCanvasFormat() as TextureFormat;
    this.#configure();
  }

  /** After `device.restore()`: the context configured with the new GPUDevice. */
  reconfigure(): void {
    this.#wrappers = new WeakMap();
    this.#configured = false;
    this.#configure();
  }

  /**
   * A context is configured only while the canvas has pixels: Firefox makes the swap chain's
   * texture as soon as a configured canvas is resized, and one of 0×0 is a validation error on the
   * device although nothing drew. Unconfigured at 0, configured again by the next real size.
   */
  #configured = false;
  #configure(): void {
    if (this.canvas.width === 0 || this.canvas.height === 0) {
      if (this.#configured) this.#context.unconfigure();
      this.#configured = false;
      return;
    }
    if (this.#configured) return;
    this.#configured = true;
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

  protected resizeImpl(width: number, height: number): void {
    if (width === 0 || height === 0) {
      // unconfigured before the canvas loses its pixels (see #configure)
      if (this.#configured) this.#context.unconfigure();
      this.#configured = false;
    }
    this.canvas.width = width;
    this.canvas.height = height;
    this.#configure();
  }

  override getCurrentTexture(): WebGPUTexture {
    return super.getCurrentTexture() as WebGPUTexture;
  }

  protected currentTextureImpl(): WebGPUTexture {
    this.#configure(); // a canvas given pixels by `canvas.width = …` rather than by resize()
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
