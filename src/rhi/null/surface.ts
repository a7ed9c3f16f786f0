import { Surface, type SurfaceCanvas } from '../core/surface.js';
import { TextureUsage } from '../core/flags.js';
import { NullTexture } from './texture.js';
import type { NullDevice } from './device.js';

/**
 * A canvas with no pixels shown: the texture of the canvas's size that passes draw into, made again
 * when the size changes (as the WebGL2 surface does). For Node tests of code that draws to
 * `device.surface` and resizes it.
 */
export class NullSurface extends Surface {
  readonly format = 'rgba8unorm' as const;
  #texture: NullTexture | null = null;

  constructor(
    private readonly device: NullDevice,
    private readonly canvas: SurfaceCanvas,
  ) {
    super(device.caps.limits);
  }

  get width(): number {
    return this.canvas.width;
  }
  get height(): number {
    return this.canvas.height;
  }

  protected resizeImpl(width: number, height: number): void {
    this.canvas.width = width;
    this.canvas.height = height;
  }

  override getCurrentTexture(): NullTexture {
    return super.getCurrentTexture() as NullTexture;
  }

  protected currentTextureImpl(): NullTexture {
    const t = this.#texture;
    if (t && !t.destroyed && t.width === this.width && t.height === this.height) return t;
    t?.destroy();
    this.#texture = new NullTexture(this.device, {
      label: 'surface',
      size: { width: this.width, height: this.height },
      format: this.format,
      usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC | TextureUsage.COPY_DST,
    });
    return this.#texture;
  }
}
