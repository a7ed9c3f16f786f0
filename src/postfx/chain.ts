/**
 * The post-process chain: the scene renders into `post.target` (HDR); `post.apply(encoder, dst)`
 * records bloom (bright pass with a soft knee, progressive tent downsample, tent upsample mixing
 * back), then one fused pass of exposure, tone curve, sRGB encoding and grading into any rgba8/bgra8
 * target. Compute on WebGPU, fullscreen fragment passes on WebGL2 (and on WebGPU on request);
 * `post.path` and `post.reason` say which and why. Both paths give the same pixels (tested).
 */
import { BufferUsage, TextureUsage } from '../rhi/core/flags.js';
import { UsageError, ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import type { QuerySet } from '../rhi/core/query-set.js';
import { PostFxOptionError, settingsOf, type ChainSettings, type Effect } from './options.js';
import { choosePostPath, type HdrFormatRequest } from './path.js';
import { PostPasses, type PostPath, type WrittenBy } from './passes.js';
import { packPassUniforms, SLOT_BYTES, type Extent } from './uniforms.js';
import { POST_UNIFORM_BYTES } from './shaders.js';

/** Timestamp queries for `apply`: pass i writes `first + 2i` (begin) and `first + 2i + 1` (end). */
export interface PassTimestamps {
  querySet: QuerySet;
  first: number;
}

/** Options of `createPostProcess`: size, HDR format, path and the effects in order. */
export interface PostProcessOptions {
  width: number;
  height: number;
  /** The scene target's format: 'auto' takes rgba16float where it can be rendered to. */
  hdrFormat?: HdrFormatRequest;
  path?: 'auto' | PostPath;
  effects?: Effect[];
  label?: string;
}

/** Sizes of the bloom levels for a W×H chain: half size, then halving, down to about 8 texels. */
export function bloomLevels(width: number, height: number): Extent[] {
  const count = Math.max(1, Math.min(6, Math.floor(Math.log2(Math.min(width, height))) - 3));
  const out: Extent[] = [];
  let w = width;
  let h = height;
  for (let i = 0; i < count; i++) {
    w = Math.max(1, Math.floor(w / 2));
    h = Math.max(1, Math.floor(h / 2));
    out.push({ width: w, height: h });
  }
  return out;
}

function checkSize(width: unknown, height: unknown, max: number): void {
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
      throw new PostFxOptionError(name, v, `must be an integer from 1 to ${max}`);
  }
}

/** A post-process chain: draw the scene into `target`, then `apply(encoder, dst)` runs the effects. */
export class PostProcess {
  readonly device: Device;
  readonly path: PostPath;
  /** Why this path and format were taken. */
  readonly reason: string;
  readonly hdrFormat: TextureFormat;
  readonly label: string;
  #width = 0;
  #height = 0;
  #settings: ChainSettings;
  #target!: Texture;
  #down: Texture[] = [];
  #up: Texture[] = [];
  #uniforms!: Buffer;
  readonly #passes: PostPasses;
  #destroyed = false;

  constructor(device: Device, options: PostProcessOptions) {
    this.device = device;
    this.label = options.label ?? 'post-process';
    checkSize(options.width, options.height, device.caps.limits.maxTextureDimension2D);
    const choice = choosePostPath(device.caps, options.path ?? 'auto', options.hdrFormat ?? 'auto');
    this.path = choice.path;
    this.hdrFormat = choice.format;
    this.reason = choice.reason;
    this.#settings = settingsOf(options.effects ?? []);
    this.#passes = new PostPasses(device, this.label);
    this.#allocate(options.width, options.height);
  }

  /** The HDR colour target the scene renders into (RENDER_ATTACHMENT | TEXTURE_BINDING | COPY_SRC | COPY_DST). */
  get target(): Texture {
    return this.#target;
  }
  get width(): number {
    return this.#width;
  }
  get height(): number {
    return this.#height;
  }
  /** The bloom's level textures after `apply` (downsampled, then upsampled), for tests and tools. */
  get levels(): { down: readonly Texture[]; up: readonly Texture[] } {
    return { down: this.#down, up: this.#up };
  }
  get settings(): Readonly<ChainSettings> {
    return this.#settings;
  }

  #assertAlive(op: string): void {
    if (this.#destroyed)
      throw new ValidationError(
        'postfx-destroyed',
        `${op} on a destroyed post-process chain`,
        this.label,
      );
  }

  #allocate(width: number, height: number): void {
    this.#width = width;
    this.#height = height;
    const device = this.device;
    this.#target = device.createTexture({
      label: `${this.label} target`,
      size: { width, height },
      format: this.hdrFormat,
      usage:
        TextureUsage.RENDER_ATTACHMENT |
        TextureUsage.TEXTURE_BINDING |
        TextureUsage.COPY_SRC |
        TextureUsage.COPY_DST,
    });
    const levelUsage =
      TextureUsage.TEXTURE_BINDING |
      TextureUsage.COPY_SRC |
      (this.path === 'compute' ? TextureUsage.STORAGE_BINDING : TextureUsage.RENDER_ATTACHMENT);
    const levels = bloomLevels(width, height);
    const make = (name: string, e: Extent): Texture =>
      device.createTexture({
        label: `${this.label} ${name}`,
        size: e,
        format: this.hdrFormat,
        usage: levelUsage,
      });
    this.#down = levels.map((e, i) => make(`bloom down ${i}`, e));
    this.#up = levels.slice(0, -1).map((e, i) => make(`bloom up ${i}`, e));
    // slots: prefilter, downs, ups, composite
    const slots = 2 * levels.length + 1;
    this.#uniforms = device.createBuffer({
      label: `${this.label} uniforms`,
      size: slots * SLOT_BYTES,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    this.#writeUniforms();
  }

  #release(): void {
    this.#target.destroy();
    for (const t of [...this.#down, ...this.#up]) t.destroy();
    this.#uniforms.destroy();
  }

  /** Slot offsets: prefilter 0, down i at i (i ≥ 1), up i at L + i, composite at 2L. */
  #slot(kind: 'prefilter' | 'down' | 'up' | 'composite', i = 0): number {
    const L = this.#down.length;
    const index = kind === 'prefilter' ? 0 : kind === 'down' ? i : kind === 'up' ? L + i : 2 * L;
    return index * SLOT_BYTES;
  }

  #writeUniforms(): void {
    const L = this.#down.length;
    const data = new ArrayBuffer((2 * L + 1) * SLOT_BYTES);
    const size = { width: this.#width, height: this.#height };
    const s = this.#settings;
    const ext = (t: Texture): Extent => ({ width: t.width, height: t.height });
    packPassUniforms(data, this.#slot('prefilter'), {
      src: size,
      dst: ext(this.#down[0] as Texture),
      settings: s,
    });
    for (let i = 1; i < L; i++)
      packPassUniforms(data, this.#slot('down', i), {
        src: ext(this.#down[i - 1] as Texture),
        dst: ext(this.#down[i] as Texture),
        settings: s,
      });
    for (let i = L - 2; i >= 0; i--) {
      const below = i === L - 2 ? (this.#down[L - 1] as Texture) : (this.#up[i + 1] as Texture);
      packPassUniforms(data, this.#slot('up', i), {
        src: ext(this.#down[i] as Texture),
        dst: ext(this.#up[i] as Texture),
        aux: ext(below),
        settings: s,
      });
    }
    const bloomOut = this.#bloomOutput();
    packPassUniforms(data, this.#slot('composite'), {
      src: size,
      dst: size,
      aux: bloomOut ? ext(bloomOut) : size,
      settings: s.bloom ? s : { ...s, bloom: null },
    });
    this.device.queue.writeBuffer(this.#uniforms, 0, data);
  }

  /** The bloom's result at half size: the top upsampled level, or the only level. */
  #bloomOutput(): Texture | null {
    if (!this.#settings.bloom) return null;
    return this.#up[0] ?? (this.#down[0] as Texture);
  }

  /**
   * What `apply` records, pass by pass: each bloom pass ('bloom: …'), then the fused exposure, tone
   * curve and grading ('tone map + grade'). With `timestamps`, pass i writes queries first + 2i, + 2i + 1.
   */
  get passes(): string[] {
    const L = this.#down.length;
    if (!this.#settings.bloom) return ['tone map + grade'];
    return [
      'bloom: bright pass',
      ...Array.from({ length: L - 1 }, (_, i) => `bloom: down ${i + 1}`),
      ...Array.from({ length: L - 1 }, (_, i) => `bloom: up ${L - 2 - i}`),
      'tone map + grade',
    ];
  }

  /** Changes effect values live (no rebuild: they are uniforms); the effect list's kinds may change too. */
  setOptions(options: { effects: Effect[] }): void {
    this.#assertAlive('setOptions');
    this.#settings = settingsOf(options.effects);
    this.#writeUniforms();
  }

  /** Follows the canvas: reallocates the target and levels at the new size. */
  resize(width: number, height: number): void {
    this.#assertAlive('resize');
    checkSize(width, height, this.device.caps.limits.maxTextureDimension2D);
    if (width === this.#width && height === this.#height) return;
    this.#release();
    this.#allocate(width, height);
  }

  /**
   * Records the chain: reads `post.target` (rendered by an earlier pass of `encoder` or an earlier
   * submit) and writes `dst`, an rgba8unorm or bgra8unorm RENDER_ATTACHMENT of the chain's size
   * (the canvas texture, typically).
   */
  apply(
    encoder: CommandEncoder,
    dst: Texture,
    options: { timestamps?: PassTimestamps } = {},
  ): void {
    this.#assertAlive('apply');
    if (!dst || typeof dst !== 'object' || !('format' in dst))
      throw new PostFxOptionError('dst', dst, 'must be a texture');
    if (dst.format !== 'rgba8unorm' && dst.format !== 'bgra8unorm') {
      throw new PostFxOptionError(
        'dst.format',
        dst.format,
        "must be 'rgba8unorm' or 'bgra8unorm' (the chain ends in 8-bit sRGB-encoded colour)",
      );
    }
    if (dst.width !== this.#width || dst.height !== this.#height) {
      throw new PostFxOptionError(
        'dst size',
        `${dst.width}x${dst.height}`,
        `must equal the chain's ${this.#width}x${this.#height}; call post.resize() first`,
      );
    }
    if (!(dst.usage & TextureUsage.RENDER_ATTACHMENT)) {
      throw new UsageError(
        `post.apply() renders into dst, which needs RENDER_ATTACHMENT`,
        'RENDER_ATTACHMENT',
        String(dst.usage),
        dst.label,
      );
    }
    const compute = this.path === 'compute';
    const u = (offset: number): { buffer: Buffer; offset: number; size: number } => ({
      buffer: this.#uniforms,
      offset,
      size: POST_UNIFORM_BYTES,
    });
    let passIndex = 0;
    const ts = (): { timestampWrites?: PassTimestampWrites } => {
      const t = options.timestamps;
      const first = t ? t.first + 2 * passIndex : 0;
      passIndex++;
      return t
        ? {
            timestampWrites: {
              querySet: t.querySet,
              beginningOfPassWriteIndex: first,
              endOfPassWriteIndex: first + 1,
            },
          }
        : {};
    };
    const levelWriter: WrittenBy = compute ? 'compute' : 'render';
    const bloomOut = this.#bloomOutput();
    if (bloomOut) {
      const L = this.#down.length;
      const down = this.#down;
      this.#passes.record(
        encoder,
        'prefilter',
        { src0: this.#target, writtenBy: 'render' },
        down[0] as Texture,
        u(this.#slot('prefilter')),
        compute,
        ts(),
      );
      for (let i = 1; i < L; i++) {
        this.#passes.record(
          encoder,
          'down',
          { src0: down[i - 1] as Texture, writtenBy: levelWriter },
          down[i] as Texture,
          u(this.#slot('down', i)),
          compute,
          ts(),
        );
      }
      for (let i = L - 2; i >= 0; i--) {
        const below = i === L - 2 ? (down[L - 1] as Texture) : (this.#up[i + 1] as Texture);
        this.#passes.record(
          encoder,
          'up',
          { src0: down[i] as Texture, src1: below, writtenBy: levelWriter },
          this.#up[i] as Texture,
          u(this.#slot('up', i)),
          compute,
          ts(),
        );
      }
    }
    // the composite reads the scene (rendered) and the bloom (this path's writes): declare both
    if (bloomOut)
      encoder.barrier({
        from: compute ? 'compute-write' : 'render-write',
        to: 'fragment-read',
        resources: [bloomOut],
      });
    this.#passes.record(
      encoder,
      'composite',
      { src0: this.#target, src1: bloomOut ?? this.#target, writtenBy: 'render' },
      dst,
      u(this.#slot('composite')),
      false,
      ts(),
    );
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#release();
    this.#passes.destroy();
  }
}

/** Creates a post-process chain; every option is checked first (`PostFxOptionError` names it). */
export function createPostProcess(device: Device, options: PostProcessOptions): PostProcess {
  return new PostProcess(device, options);
}
