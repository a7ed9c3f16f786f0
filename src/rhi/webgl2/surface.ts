import { Surface } from '../core/surface.js';
import type { CommandBuffer } from '../core/command-buffer.js';
import { TextureUsage } from '../core/flags.js';
import { ValidationError } from '../core/errors.js';
import { WebGL2Texture } from './texture.js';
import type { WebGL2Device } from './device.js';

/**
 * The canvas, as wgpu's GLES backend presents: an ordinary offscreen texture that passes render
 * into (with depth, MSAA resolves and MRT like any texture), copied to the default framebuffer by
 * one y-flipping `blitFramebuffer` at the end of each submit that drew into it. The default
 * framebuffer itself is never a render target, so nothing else in the backend special-cases it.
 * Cost: one full-canvas blit per presenting submit, and the texture's memory.
 */
export class WebGL2Surface extends Surface {
  readonly format = 'rgba8unorm' as const;
  #texture: WebGL2Texture | null = null;

  constructor(
    private readonly device: WebGL2Device,
    private readonly canvas: HTMLCanvasElement | OffscreenCanvas,
  ) {
    super(device.caps.limits);
    const attributes = device.gl.getContextAttributes();
    if (attributes?.antialias) {
      // a blit into a multisampled default framebuffer is INVALID_OPERATION in GL ES 3.0
      throw new ValidationError(
        'surface-antialias',
        'the shared WebGL2 context was created with antialias: true; Ignis presents its canvas with a blit, which needs antialias: false (use MSAA textures with a resolveTarget for antialiasing)',
      );
    }
  }

  // the drawing buffer may be smaller than the canvas (a browser's limit), and is 1×1 where the
  // canvas has no pixels: a 0-sized canvas reads 0, as on WebGPU
  get width(): number {
    return Math.min(this.canvas.width, this.device.gl.drawingBufferWidth);
  }
  get height(): number {
    return Math.min(this.canvas.height, this.device.gl.drawingBufferHeight);
  }

  protected resizeImpl(width: number, height: number): void {
    this.canvas.width = width;
    this.canvas.height = height;
  }

  /** After a context restore: the canvas texture belonged to the lost context. */
  forgetTexture(): void {
    this.#texture = null;
  }

  override getCurrentTexture(): WebGL2Texture {
    return super.getCurrentTexture() as WebGL2Texture;
  }

  protected currentTextureImpl(): WebGL2Texture {
    const t = this.#texture;
    if (t && t.width === this.width && t.height === this.height) return t;
    t?.destroy();
    this.#texture = new WebGL2Texture(this.device, {
      label: 'surface',
      size: { width: this.width, height: this.height },
      format: this.format,
      usage:
        TextureUsage.RENDER_ATTACHMENT |
        TextureUsage.COPY_SRC |
        TextureUsage.COPY_DST |
        TextureUsage.TEXTURE_BINDING,
    });
    return this.#texture;
  }

  /** After a submit: presents the canvas texture if a pass, resolve or copy of it wrote to it. */
  presentIfDrawn(commandBuffers: readonly CommandBuffer[]): void {
    const t = this.#texture;
    if (t && commandBuffers.some((cb) => cb.writes(t))) this.present(t);
  }

  /**
   * On a context the host shares (`createDevice({ gl })`), the host may have drawn into the canvas
   * since Ignis last presented (three.js rendering its scene, say): a pass that loads the canvas
   * texture starts from what the canvas shows, copied back by one y-flipping blit. On a context
   * Ignis owns, the canvas only ever shows the texture, so nothing is copied.
   */
  loadFromCanvas(texture: WebGL2Texture): void {
    if (this.device.ownsContext || texture !== this.#texture) return;
    const { state, framebuffers } = this.device;
    state.bindReadFramebuffer(null);
    state.bindDrawFramebuffer(framebuffers.single(texture, 0));
    this.#blitFlipped(texture);
  }

  present(texture: WebGL2Texture): void {
    const { state, framebuffers } = this.device;
    framebuffers.bindForRead(texture, 0);
    state.bindDrawFramebuffer(null);
    this.#blitFlipped(texture);
  }

  /**
   * Copies the bound read framebuffer into the bound draw framebuffer upside down: texture rows are
   * WebGPU's (top row first in memory, i.e. GL's y = 0), the window's are GL's.
   */
  #blitFlipped(texture: WebGL2Texture): void {
    const { gl, state } = this.device;
    state.scissorTest(false);
    gl.blitFramebuffer(
      0,
      0,
      texture.width,
      texture.height,
      0,
      texture.height,
      texture.width,
      0,
      gl.COLOR_BUFFER_BIT,
      gl.NEAREST,
    );
  }
}
