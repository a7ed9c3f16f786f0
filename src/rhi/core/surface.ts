import type { Texture } from './texture.js';
import type { TextureFormat } from './formats.js';

/**
 * The canvas a device presents to. `getCurrentTexture()` gives this frame's color target (a
 * RENDER_ATTACHMENT | COPY_SRC | COPY_DST texture); the frame is presented when the submit that drew it ends
 * the task (WebGPU) or when the browser composites (WebGL2).
 */
export interface Surface {
  readonly format: TextureFormat;
  readonly width: number;
  readonly height: number;
  getCurrentTexture(): Texture;
  /** Matches the canvas backing size to `width × height` (device pixels). */
  resize(width: number, height: number): void;
}
