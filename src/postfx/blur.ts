/**
 * A separable Gaussian blur on its own, for any texture: `blur(device, { radius })` then
 * `b.apply(encoder, src, dst)`. Horizontal then vertical, through an intermediate of dst's format.
 * Compute (workgroup-memory tiles) on WebGPU, fragment passes elsewhere or on request.
 * σ = radius / 3; clamp-to-edge borders.
 */
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import { UsageError, ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import type { PassTimestamps } from './chain.js';
import { PostFxOptionError } from './options.js';
import { choosePostPath } from './path.js';
import { PostPasses, type PostPath, type WrittenBy } from './passes.js';
import { packPassUniforms, SLOT_BYTES } from './uniforms.js';
import { MAX_BLUR_RADIUS } from './math.js';
import { POST_UNIFORM_BYTES } from './shaders.js';

/** Options of `blur`: radius in texels, path, label. */
export interface BlurOptions {
  /** Half-width of the kernel in texels, 0…35 (0 copies). */
  radius: number;
  path?: 'auto' | PostPath;
  label?: string;
  /** How `src` was written, for the barrier before the first pass: 'render' (default) or 'compute'. */
}

function checkRadius(radius: unknown): number {
  if (
    typeof radius !== 'number' ||
    !Number.isInteger(radius) ||
    radius < 0 ||
    radius > MAX_BLUR_RADIUS
  ) {
    throw new PostFxOptionError(
      'radius',
      radius,
      `must be an integer from 0 to ${MAX_BLUR_RADIUS}`,
    );
  }
  return radius;
}

/** A separable Gaussian blur from one texture into another, as compute or fragment passes. */
export class Blur {
  readonly device: Device;
  readonly path: PostPath;
  readonly reason: string;
  readonly label: string;
  #radius: number;
  readonly #passes: PostPasses;
  readonly #uniforms: Buffer;
  #temp: Texture | null = null;
  /** Size and radius the uniform buffer holds. */
  #written = '';
  #destroyed = false;

  constructor(device: Device, options: BlurOptions) {
    this.device = device;
    this.label = options.label ?? 'blur';
    this.#radius = checkRadius(options.radius);
    const choice = choosePostPath(device.caps, options.path ?? 'auto', 'auto');
    this.path = choice.path;
    this.reason = choice.reason.split(';')[0] as string;
    this.#passes = new PostPasses(device, this.label);
    this.#uniforms = device.createBuffer({
      label: `${this.label} uniforms`,
      size: 2 * SLOT_BYTES,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
  }

  get radius(): number {
    return this.#radius;
  }

  setRadius(radius: number): void {
    this.#radius = checkRadius(radius);
  }

  /** The texture usage `dst` needs on this path. */
  get dstUsage(): number {
    return this.path === 'compute' ? TextureUsage.STORAGE_BINDING : TextureUsage.RENDER_ATTACHMENT;
  }

  #intermediate(dst: Texture): Texture {
    const t = this.#temp;
    if (t && t.width === dst.width && t.height === dst.height && t.format === dst.format) return t;
    t?.destroy();
    this.#temp = this.device.createTexture({
      label: `${this.label} intermediate`,
      size: { width: dst.width, height: dst.height },
      format: dst.format,
      usage: TextureUsage.TEXTURE_BINDING | this.dstUsage,
    });
    return this.#temp;
  }

  /** Records the blur of `src` into `dst` (same size; `src` was last written by a render pass, or as `srcWrittenBy` says). */
  apply(
    encoder: CommandEncoder,
    src: Texture,
    dst: Texture,
    srcWrittenBy: WrittenBy = 'render',
    options: { timestamps?: PassTimestamps } = {},
  ): void {
    if (this.#destroyed)
      throw new ValidationError('postfx-destroyed', 'apply on a destroyed blur', this.label);
    if (!(src.usage & TextureUsage.TEXTURE_BINDING)) {
      throw new UsageError(
        `blur reads src "${src.label}", which needs TEXTURE_BINDING`,
        'TEXTURE_BINDING',
        String(src.usage),
        src.label,
      );
    }
    if (!(dst.usage & this.dstUsage)) {
      const needed = this.path === 'compute' ? 'STORAGE_BINDING' : 'RENDER_ATTACHMENT';
      throw new UsageError(
        `the ${this.path} blur writes dst "${dst.label}", which needs ${needed}`,
        needed,
        String(dst.usage),
        dst.label,
      );
    }
    if (src.width !== dst.width || src.height !== dst.height) {
      throw new PostFxOptionError(
        'dst size',
        `${dst.width}x${dst.height}`,
        `must equal src's ${src.width}x${src.height}`,
      );
    }
    // the uniforms change only with the size or the radius: written then, not every frame
    const key = `${dst.width}x${dst.height}r${this.#radius}`;
    if (key !== this.#written) {
      const size = { width: dst.width, height: dst.height };
      const data = new ArrayBuffer(2 * SLOT_BYTES);
      packPassUniforms(data, 0, { src: size, dst: size, blur: { radius: this.#radius, axis: 0 } });
      packPassUniforms(data, SLOT_BYTES, {
        src: size,
        dst: size,
        blur: { radius: this.#radius, axis: 1 },
      });
      this.device.queue.writeBuffer(this.#uniforms, 0, data);
      this.#written = key;
    }
    const compute = this.path === 'compute';
    const temp = this.#intermediate(dst);
    const u = (offset: number): { buffer: Buffer; offset: number; size: number } => ({
      buffer: this.#uniforms,
      offset,
      size: POST_UNIFORM_BYTES,
    });
    const t = options.timestamps;
    const ts = (i: number): PassTimestampWrites | undefined =>
      t
        ? {
            querySet: t.querySet,
            beginningOfPassWriteIndex: t.first + 2 * i,
            endOfPassWriteIndex: t.first + 2 * i + 1,
          }
        : undefined;
    this.#passes.record(
      encoder,
      'blur',
      { src0: src, writtenBy: srcWrittenBy },
      temp,
      u(0),
      compute,
      { axis: 0, timestampWrites: ts(0) },
    );
    this.#passes.record(
      encoder,
      'blur',
      { src0: temp, writtenBy: compute ? 'compute' : 'render' },
      dst,
      u(SLOT_BYTES),
      compute,
      { axis: 1, timestampWrites: ts(1) },
    );
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#temp?.destroy();
    this.#uniforms.destroy();
    this.#passes.destroy();
  }
}

/** A separable Gaussian blur of `radius` texels (σ = radius / 3), on the device's best path. */
export function blur(device: Device, options: BlurOptions): Blur {
  return new Blur(device, options);
}
