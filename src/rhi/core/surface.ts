import type { Texture } from './texture.js';
import type { TextureFormat } from './formats.js';
import type { Limits } from './caps.js';
import { validateSurfaceSize, validateSurfaceDrawable } from './validate/surface.js';

/** What a surface presents to: a canvas, or anything with a backing size (the null backend's). */
export interface SurfaceCanvas {
  width: number;
  height: number;
}

/**
 * The canvas a device presents to. `getCurrentTexture()` gives this frame's color target (a
 * RENDER_ATTACHMENT | COPY_SRC | COPY_DST texture); the frame is presented when the submit that drew it ends
 * the task (WebGPU) or when the browser composites (WebGL2).
 *
 * Core checks the calls (`resize`'s size, a texture of a canvas with no pixels); backends only
 * translate (`resizeImpl`, `currentTextureImpl`).
 */
export abstract class Surface {
  abstract readonly format: TextureFormat;
  abstract readonly width: number;
  abstract readonly height: number;

  constructor(protected readonly limits: Limits) {}

  /**
   * Matches the canvas backing size to `width × height` (device pixels): integers from 0 (a hidden
   * canvas) to `maxTextureDimension2D`.
   */
  resize(width: number, height: number): void {
    validateSurfaceSize(width, height, this.limits);
    this.resizeImpl(width, height);
  }

  /** This frame's color target; a canvas of 0 pixels has none (a typed error naming its size). */
  getCurrentTexture(): Texture {
    validateSurfaceDrawable(this.width, this.height);
    return this.currentTextureImpl();
  }

  protected abstract resizeImpl(width: number, height: number): void;
  protected abstract currentTextureImpl(): Texture;
}
