import type { Surface } from '../core/surface.js';
import { TextureUsage } from '../core/flags.js';
import { WebGL2Texture } from './texture.js';
import type { WebGL2Device } from './device.js';

/**
 * The canvas' default framebuffer, as a texture: passes that target it bind framebuffer 0 and are
 * not y-flipped (the browser composites rows bottom-up); reads flip rows so they come out top-down
 * like WebGPU's. Without `preserveDrawingBuffer`, read the surface in the task that drew it.
 */
export class WebGL2Surface implements Surface {
  readonly format = 'rgba8unorm' as const;
  #texture: WebGL2Texture | null = null;

  constructor(
    private readonly device: WebGL2Device,
    private readonly canvas: HTMLCanvasElement | OffscreenCanvas,
  ) {}

  get width(): number {
    return this.device.gl.drawingBufferWidth;
  }
  get height(): number {
    return this.device.gl.drawingBufferHeight;
  }

  resize(width: number, height: number): void {
    this.canvas.width = width;
    this.canvas.height = height;
  }

  getCurrentTexture(): WebGL2Texture {
    const t = this.#texture;
    if (t && t.width === this.width && t.height === this.height) return t;
    this.#texture = new WebGL2Texture(
      this.device,
      {
        label: 'surface',
        size: { width: this.width, height: this.height },
        format: this.format,
        usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
      },
      true,
    );
    return this.#texture;
  }
}
