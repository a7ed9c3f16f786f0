/**
 * `drawMode: 'splat'`: additive particles drawn by a compute pass instead of the rasteriser
 * (WebGPU, state in storage buffers). Two halves:
 *
 * - `prepare` (before the render pass, `ps.prepareDraw`): one thread per particle adds its disc to
 *   a fixed-point accumulation buffer (4 × u32 per pixel, 16.16 — 3 with `targetAlpha: 'keep'`,
 *   whose alpha is not summed: a quarter fewer atomics and bytes) with `atomicAdd`;
 * - `resolve` (in the render pass, `ps.draw`): a full-screen triangle adds the sums onto the target
 *   (blend one, one) and zeroes them for the next frame.
 *
 * Addition of integers commutes, so the image is the same run to run, whatever order the threads
 * run in (float blending is not). A channel whose sum at one pixel passes 65,535.99 (2^32 − 1 in
 * 16.16) saturates: a bit per pixel records the overflow and the resolve outputs 65,536 there,
 * which an 8-bit or float16 target shows as full intensity (never a wrapped, dark pixel).
 */
import { BufferUsage } from '../rhi/core/flags.js';
import { ValidationError } from '../rhi/core/errors.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Device } from '../rhi/core/device.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { ComputePipeline } from '../rhi/core/compute-pipeline.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { ShaderModule } from '../rhi/core/shader-module.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import drawWgsl from '../../shaders/particles/draw.wgsl?raw';
import splatWgsl from '../../shaders/particles/splat.wgsl?raw';
import resolveWgsl from '../../shaders/particles/splat-resolve.wgsl?raw';
import splatLivingWgsl from '../../shaders/particles/splat-living.wgsl?raw';
import { DRAW_PARAMS_BYTES, tintWgsl } from './draw.js';

/**
 * Bytes of accumulation per pixel: four u32 channels (three when the target's alpha is kept: 12),
 * plus one saturation bit.
 */
export const SPLAT_BYTES_PER_PIXEL = 16;

export interface SplatFrame {
  /** The uniform buffer and offset holding this frame's DrawParams (with the target size). */
  uniforms: Buffer;
  offset: number;
  positions: Buffer;
  velocities: Buffer;
  /** Each particle's tint (a sub-emitter's inheritColor): required by a tinted SplatDraw. */
  tints?: Buffer | undefined;
  count: number;
  width: number;
  height: number;
  /** Splat the living only (options.compact): the list, its count, and the dispatch's arguments. */
  living?: { list: Buffer; total: Buffer; args: Buffer; offset: number } | undefined;
}

export class SplatDraw {
  readonly #device: Device;
  readonly #modules: ShaderModule[] = [];
  readonly #compute: ComputePipeline;
  /** The living-only splat (options.compact), made at its first use. */
  #computeLiving: ComputePipeline | null = null;
  readonly #resolvers = new Map<string, RenderPipeline>();
  #accum: Buffer | null = null;
  #saturated: Buffer | null = null;
  #size = { width: 0, height: 0 };
  /** The frame `prepare` recorded and `resolve` has not drawn yet. */
  #pending: SplatFrame | null = null;

  /** Each particle's colour times its tint (binding 8): a sub-emitter's inheritColor. */
  readonly tinted: boolean;
  /** Channels summed per pixel: 4 (r, g, b, a), or 3 when the target's alpha is kept. */
  readonly channels: 3 | 4;

  constructor(device: Device, tinted = false, channels: 3 | 4 = 4) {
    this.#device = device;
    this.tinted = tinted;
    this.channels = channels;
    const module = device.createShaderModule({
      label: `splat.wgsl${tinted ? ' (tinted)' : ''}${channels === 3 ? ' (alpha kept)' : ''}`,
      code: this.#code(splatWgsl),
    });
    this.#modules.push(module);
    this.#compute = device.createComputePipeline({
      label: 'particles splat',
      compute: { module, entryPoint: 'splat' },
    });
  }

  /** The splat's WGSL: draw.wgsl, the tint (or none), the channel count, then `code`. */
  #code(code: string): string {
    return drawWgsl + tintWgsl(this.tinted ? 'buffers' : null) + this.#channels() + code;
  }

  #channels(): string {
    return `const SPLAT_CHANNELS: u32 = ${this.channels}u;\n`;
  }

  /**
   * How the resolve reads and clears a pixel's sums: four channels as one vec4u (one 16-byte load
   * and store a pixel), three as u32s (a vec3u's array stride would be 16 bytes, not 12).
   */
  #sums(): string {
    if (this.channels === 4)
      return `@group(0) @binding(3) var<storage, read_write> accum: array<vec4u>;
fn loadSums(pixel: u32) -> vec4u { return accum[pixel]; }
fn clearSums(pixel: u32) { accum[pixel] = vec4u(0u); }
`;
    return `@group(0) @binding(3) var<storage, read_write> accum: array<u32>;
fn loadSums(pixel: u32) -> vec4u {
  return vec4u(accum[3u * pixel], accum[3u * pixel + 1u], accum[3u * pixel + 2u], 0u);
}
fn clearSums(pixel: u32) {
  accum[3u * pixel] = 0u;
  accum[3u * pixel + 1u] = 0u;
  accum[3u * pixel + 2u] = 0u;
}
`;
  }

  /** Whether a `prepare` is waiting for its `resolve`. */
  get pending(): boolean {
    return this.#pending !== null;
  }

  /** GPU bytes of the accumulation buffers (0 before the first prepare). */
  get bytes(): number {
    return (this.#accum?.size ?? 0) + (this.#saturated?.size ?? 0);
  }

  #buffers(width: number, height: number): { accum: Buffer; saturated: Buffer } {
    if (!this.#accum || this.#size.width !== width || this.#size.height !== height) {
      this.#accum?.destroy();
      this.#saturated?.destroy();
      const pixels = width * height;
      this.#accum = this.#device.createBuffer({
        label: `particles splat accumulation ${width}x${height}`,
        size: pixels * 4 * this.channels,
        usage: BufferUsage.STORAGE,
      });
      this.#saturated = this.#device.createBuffer({
        label: `particles splat saturation ${width}x${height}`,
        size: Math.ceil(pixels / 32) * 4,
        usage: BufferUsage.STORAGE,
      });
      this.#size = { width, height };
    }
    return { accum: this.#accum, saturated: this.#saturated as Buffer };
  }

  /** Records the accumulation compute pass (new buffers start zeroed; each resolve re-zeroes them). */
  prepare(
    encoder: CommandEncoder,
    frame: SplatFrame,
    timestampWrites?: PassTimestampWrites,
    /** Particles to splat (the first `count`); all of them when omitted. */
    count = frame.count,
  ): void {
    const { accum, saturated } = this.#buffers(frame.width, frame.height);
    // the state the update wrote (compute) is read here in a compute pass; the sums the last
    // resolve cleared (a fragment-stage write) are added to
    encoder.barrier({
      from: 'compute-write',
      to: 'compute-read',
      resources: [frame.positions, frame.velocities, ...(frame.tints ? [frame.tints] : [])],
    });
    for (const to of ['compute-read', 'compute-write'] as const)
      encoder.barrier({ from: 'render-write', to, resources: [accum, saturated] });
    const pass = encoder.beginComputePass({ label: 'particles splat', timestampWrites });
    const living = count === frame.count ? frame.living : undefined;
    pass.setPipeline(living ? this.#livingPipeline() : this.#compute);
    pass.setUniformBuffer(0, frame.uniforms, frame.offset, DRAW_PARAMS_BYTES);
    pass.setStorageBuffer(1, frame.positions);
    pass.setStorageBuffer(2, frame.velocities);
    pass.setStorageBuffer(3, accum);
    pass.setStorageBuffer(4, saturated);
    if (this.tinted) {
      if (!frame.tints) throw new Error('a tinted splat needs the tint attribute’s buffer');
      pass.setStorageBuffer(8, frame.tints);
    }
    if (living) {
      pass.setStorageBuffer(5, living.list, { access: 'read' });
      pass.setStorageBuffer(6, living.total, { access: 'read' });
      pass.dispatchIndirect(living.args, living.offset);
    } else pass.dispatchThreads(count, 64);
    pass.end();
    // the resolve reads and clears the sums in the fragment stage
    encoder.barrier({ from: 'compute-write', to: 'fragment-read', resources: [accum, saturated] });
    this.#pending = frame;
  }

  #livingPipeline(): ComputePipeline {
    if (!this.#computeLiving) {
      const module = this.#device.createShaderModule({
        label: 'splat-living.wgsl',
        code: this.#code(splatWgsl + splatLivingWgsl),
      });
      this.#modules.push(module);
      this.#computeLiving = this.#device.createComputePipeline({
        label: 'particles splat (living)',
        compute: { module, entryPoint: 'splatLiving' },
      });
    }
    return this.#computeLiving;
  }

  #resolver(format: TextureFormat, sampleCount: number): RenderPipeline {
    const id = `${format}|${sampleCount}`;
    let p = this.#resolvers.get(id);
    if (!p) {
      const module = this.#device.createShaderModule({
        label: 'splat-resolve.wgsl',
        code: drawWgsl + this.#channels() + this.#sums() + resolveWgsl,
      });
      this.#modules.push(module);
      p = this.#device.createRenderPipeline({
        label: `particles splat resolve (${format}, ${sampleCount}x)`,
        vertex: { module, entryPoint: 'fullscreen' },
        fragment: {
          module,
          entryPoint: 'resolve',
          targets: [
            {
              format,
              blend: {
                color: { srcFactor: 'one', dstFactor: 'one' },
                alpha: { srcFactor: 'one', dstFactor: 'one' },
              },
            },
          ],
        },
        multisample: { count: sampleCount },
      });
      this.#resolvers.set(id, p);
    }
    return p;
  }

  /** Draws the sums the last `prepare` accumulated into `pass` and clears them. */
  resolve(pass: RenderPass): void {
    const frame = this.#pending;
    if (!frame) {
      throw new ValidationError(
        'particles-splat-unprepared',
        "drawMode 'splat' draws what ps.prepareDraw(encoder, camera, target) accumulated before the render pass; call it once per frame before the pass",
        'particle system',
      );
    }
    if (pass.width !== frame.width || pass.height !== frame.height) {
      throw new ValidationError(
        'particles-splat-size',
        `the splat was prepared for ${frame.width}x${frame.height} but the pass is ${pass.width}x${pass.height}; pass the pass's target to prepareDraw`,
        'particle system',
        { prepared: [frame.width, frame.height], pass: [pass.width, pass.height] },
      );
    }
    if (pass.depthStencilFormat !== undefined) {
      throw new ValidationError(
        'particles-splat-depth',
        `drawMode 'splat' does not test against a depth attachment (this pass has ${pass.depthStencilFormat}); draw particles in a scene with depth with 'instanced' or 'pulled'`,
        'particle system',
      );
    }
    const { accum, saturated } = this.#buffers(frame.width, frame.height);
    pass.setPipeline(this.#resolver(pass.colorFormats[0] as TextureFormat, pass.sampleCount));
    pass.setUniformBuffer(0, frame.uniforms, frame.offset, DRAW_PARAMS_BYTES);
    pass.setStorageBuffer(3, accum);
    pass.setStorageBuffer(4, saturated);
    pass.draw(3);
    this.#pending = null;
  }

  destroy(): void {
    this.#accum?.destroy();
    this.#saturated?.destroy();
    this.#compute.destroy();
    this.#computeLiving?.destroy();
    for (const p of this.#resolvers.values()) p.destroy();
    for (const m of this.#modules) m.destroy();
  }
}
