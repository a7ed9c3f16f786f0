/**
 * A GPU particle system with one API whatever the path:
 *
 * | path | update | state | draw reads it as |
 * |---|---|---|---|
 * | `compute` | a compute pass (the kernel of kernel.ts) | two STORAGE\|VERTEX buffers (32 B/particle) | instance attributes (instanced) or storage (pulled) |
 * | `pingpong` | a fragment pass over RGBA32F textures, MRT, swapped | 2 × 2 textures (64 B/particle) | `texelFetch` by index |
 * | `cpu` | the TypeScript reference, then an upload | Float32Arrays + GPU copy (64 B/particle) | like compute (WebGPU) or ping-pong (WebGL2) |
 *
 * `path: 'auto'` takes compute where `caps.features.compute`, else ping-pong where float (or half
 * float) render targets exist, else the CPU. `drawMode: 'auto'` takes `pulled`: measured here it
 * draws the same pixels 5–7× faster than `instanced` (docs/benchmarks.md).
 */
import {
  LimitExceededError,
  UnsupportedFeatureError,
  ValidationError,
} from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { Buffer } from '../rhi/core/buffer.js';
import type { Texture } from '../rhi/core/texture.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { RenderPipeline } from '../rhi/core/render-pipeline.js';
import type { TextureFormat } from '../rhi/core/formats.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { UniformRing } from '../compute/uniform-ring.js';
import {
  resolveOptions,
  ParticleOptionError,
  type DrawMode,
  type ParticleOptions,
  type ParticleOptionsInput,
  type ParticlePath,
} from './options.js';
import { kernelKey, kernelParams, particleKernel } from './kernel.js';
import { createState } from './reference.js';
import { stepStateFast } from './cpu-step.js';
import { choosePath, type PathChoice } from '../compute/paths/choose.js';
import {
  createDrawPipeline,
  drawPipelineId,
  packDrawParams,
  DrawParamsScratch,
  DRAW_PARAMS_BYTES,
  DRAW_PARAMS_SLOT,
  type Camera,
  type DrawPipeline,
  type StateKind,
} from './draw.js';

export interface ParticleStats {
  count: number;
  /** Particles with age < life (all of them right after an update: the dead respawn). */
  alive: number;
  /** Particles (re)spawned by the last update (age exactly 0). */
  newborn: number;
  /** Particles moving upwards. */
  rising: number;
}

const DRAW_SLOTS = 16;

export class ParticleSystem {
  readonly path: ParticlePath;
  readonly drawMode: DrawMode;
  /** Why this path was taken. */
  readonly reason: string;
  readonly count: number;
  readonly device: Device;
  /** GPU bytes per particle of the state (docs/particles.md, "Paths and memory"). */
  readonly bytesPerParticle: number;
  /** JavaScript bytes per particle of the state (the CPU path's arrays; 0 on the GPU paths). */
  readonly hostBytesPerParticle: number;
  #options: ParticleOptions;
  #stepIndex = 0;
  #time = 0;
  readonly #runner: ElementwiseRunner;
  readonly #state: StateKind;
  readonly #drawRing: UniformRing;
  readonly #drawScratch = new DrawParamsScratch();
  readonly #pipelines = new Map<string, DrawPipeline>();
  #destroyed = false;

  constructor(device: Device, options: ParticleOptions) {
    this.device = device;
    this.#options = options;
    this.count = options.count;
    const requested = options.path;
    let choice: PathChoice;
    try {
      choice = choosePath(device.caps, {
        path: requested,
        hasCpu: true,
        attributes: 2,
        label: 'particle system',
      });
    } catch (e) {
      const why =
        e instanceof UnsupportedFeatureError
          ? `needs caps.features.${e.feature}, which is false on ${device.caps.backend}; ${e.fallback}`
          : (e as Error).message;
      throw new ParticleOptionError('path', requested, why);
    }
    this.path = choice.path;
    this.drawMode = options.drawMode === 'auto' ? 'pulled' : options.drawMode;
    try {
      this.#runner = new ElementwiseRunner(device, particleKernel(options), {
        count: options.count,
        mode: choice.path,
        label: 'particles',
        // the canonical rule as a tight loop (bit-identical to reference.ts); the step's values
        // (its index, dt) arrive as parameters
        cpu: {
          step: (state, _count, params) =>
            stepStateFast(this.#options, params.stepIndex as number, params.dt as number, {
              position: state.position as Float32Array,
              velocity: state.velocity as Float32Array,
            }),
        },
      });
    } catch (e) {
      if (e instanceof LimitExceededError)
        throw new ParticleOptionError(
          'count',
          options.count,
          `exceeds what the ${choice.path} path can hold on this device: ${e.message}`,
        );
      throw e;
    }
    this.reason = choice.reason;
    this.#state = Object.keys(this.#runner.buffers).length > 0 ? 'buffers' : 'textures';
    this.bytesPerParticle = this.#runner.bytesPerElement.gpu;
    this.hostBytesPerParticle = this.#runner.bytesPerElement.host;
    const initial = createState(options);
    this.#runner.write('position', initial.position);
    this.#runner.write('velocity', initial.velocity);
    this.#drawRing = new UniformRing(device, DRAW_SLOTS, DRAW_PARAMS_SLOT, 'particles draw params');
  }

  get options(): Readonly<ParticleOptions> {
    return this.#options;
  }

  /** Steps taken so far (creation is step 0). */
  get stepIndex(): number {
    return this.#stepIndex;
  }

  /** How the ping-pong state is stored: 'f32' or 'f16' (no float32 render targets). */
  get precision(): 'f32' | 'f16' {
    return this.#runner.precision;
  }

  /** State size in texels where it is in textures (`texelFetch(state, ivec2(i % width, i / width))`). */
  get stateSize(): { width: number; height: number } {
    return this.#runner.size;
  }

  #assertAlive(op: string): void {
    if (this.#destroyed)
      throw new ValidationError(
        'particles-destroyed',
        `${op} on a destroyed particle system`,
        'particle system',
      );
  }

  /**
   * Changes options that are uniforms (forces, emitter position and radius, speeds, lives, colours,
   * sizes, blending). Options that change the kernel's code (emitter shape, the number of
   * attractors, turbulence on/off) or the count need a new system.
   */
  setOptions(input: ParticleOptionsInput): void {
    this.#assertAlive('setOptions');
    const next = resolveOptions({
      ...this.#options,
      ...input,
      emitter: { ...this.#options.emitter, ...input.emitter },
      turbulence: { ...this.#options.turbulence, ...input.turbulence },
    });
    for (const key of ['count', 'path', 'drawMode', 'seed'] as const) {
      if (next[key] !== this.#options[key])
        throw new ParticleOptionError(
          key,
          next[key],
          'cannot change on a live system; create a new one',
        );
    }
    if (kernelKey(next) !== kernelKey(this.#options)) {
      throw new ParticleOptionError(
        'emitter.shape/attractors/turbulence',
        kernelKey(next),
        'changes the update kernel; create a new system',
      );
    }
    this.#options = next;
  }

  /**
   * Records one update of `dt` seconds into `encoder` (a compute pass, or the ping-pong pass; the
   * CPU path updates and uploads now) followed by the barrier the draw needs. `timestampWrites`
   * times the update pass (the CPU path has none: it is timed on the CPU).
   */
  update(
    encoder: CommandEncoder,
    dt: number,
    options: { timestampWrites?: PassTimestampWrites } = {},
  ): void {
    this.#assertAlive('update');
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt < 0)
      throw new ValidationError(
        'particles-dt',
        `dt ${String(dt)} must be a finite non-negative number of seconds`,
        'particle system',
        { dt },
      );
    this.#stepIndex++;
    this.#time += dt;
    this.#runner.step(
      encoder,
      kernelParams(this.#options, this.#stepIndex, dt, this.#time),
      options.timestampWrites,
    );
    this.#runner.barrierForDraw(encoder);
  }

  /** Convenience: records an update alone and submits it. */
  step(dt: number): void {
    const encoder = this.device.createCommandEncoder({ label: 'particles step' });
    this.update(encoder, dt);
    this.device.queue.submit([encoder.finish()]);
  }

  /** The draw pipeline for the shape of `pass` (colour format, depth format, samples), made once. */
  #pipeline(pass: RenderPass): RenderPipeline {
    const formats = pass.colorFormats;
    if (formats.length !== 1) {
      throw new ValidationError(
        'particles-pass',
        `particles draw into a pass with exactly one colour attachment; this pass has ${formats.length} ([${formats.join(', ')}])`,
        'particle system',
        { attachments: formats },
      );
    }
    const shape = {
      format: formats[0] as TextureFormat,
      depthFormat: pass.depthStencilFormat,
      sampleCount: pass.sampleCount,
      blending: this.#options.blending,
    };
    const id = drawPipelineId(shape);
    let p = this.#pipelines.get(id);
    if (!p) {
      p = createDrawPipeline(this.device, { state: this.#state, mode: this.drawMode, ...shape });
      this.#pipelines.set(id, p);
    }
    return p.pipeline;
  }

  /** Draws every particle as a camera-facing quad: one draw call. */
  draw(pass: RenderPass, camera: Camera): void {
    this.#assertAlive('draw');
    if (!camera || camera.view?.length !== 16 || camera.projection?.length !== 16) {
      throw new ValidationError(
        'particles-camera',
        'camera needs view and projection 4x4 matrices (16 numbers each)',
        'particle system',
      );
    }
    const pipeline = this.#pipeline(pass);
    const o = this.#options;
    const offset = this.#drawRing.take();
    const params = packDrawParams(
      this.#drawScratch,
      camera,
      o.colors,
      o.colorStops,
      [o.sizeOverLife[0], o.sizeOverLife[1], o.size],
      this.#runner.size.width,
      this.count,
    );
    this.device.queue.writeBuffer(this.#drawRing.buffer, offset, params);
    pass.setPipeline(pipeline);
    pass.setUniformBuffer(0, this.#drawRing.buffer, offset, DRAW_PARAMS_BYTES);
    const buffers = this.#runner.buffers;
    if (this.#state === 'buffers') {
      if (this.drawMode === 'instanced') {
        pass.setVertexBuffer(0, buffers.position as Buffer);
        pass.setVertexBuffer(1, buffers.velocity as Buffer);
      } else {
        pass.setStorageBuffer(1, buffers.position as Buffer);
        pass.setStorageBuffer(2, buffers.velocity as Buffer);
      }
    } else {
      const t = this.#runner.textures;
      pass.setTexture(1, t.position as Texture);
      pass.setTexture(2, t.velocity as Texture);
    }
    if (this.drawMode === 'instanced') pass.draw(4, this.count);
    else pass.draw(6 * this.count);
  }

  /** The whole state: `position` (x, y, z, age) and `velocity` (vx, vy, vz, life), 4 floats per particle. For tests and tools. */
  async read(): Promise<{ position: Float32Array; velocity: Float32Array }> {
    this.#assertAlive('read');
    const s = await this.#runner.read();
    return { position: s.position as Float32Array, velocity: s.velocity as Float32Array };
  }

  /** Counts from a small GPU reduction (16 bytes read back), never a full readback. */
  async stats(): Promise<ParticleStats> {
    this.#assertAlive('stats');
    const counts = await this.#runner.reduce(
      {
        alive: 'position.w < velocity.w',
        newborn: 'position.w == 0.0',
        rising: 'velocity.y > 0.0',
      },
      {
        alive: (i, s) =>
          ((s.position as Float32Array)[4 * i + 3] as number) <
          ((s.velocity as Float32Array)[4 * i + 3] as number),
        newborn: (i, s) => (s.position as Float32Array)[4 * i + 3] === 0,
        rising: (i, s) => ((s.velocity as Float32Array)[4 * i + 1] as number) > 0,
      },
    );
    return {
      count: this.count,
      alive: counts.alive as number,
      newborn: counts.newborn as number,
      rising: counts.rising as number,
    };
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#runner.destroy();
    this.#drawRing.destroy();
    for (const p of this.#pipelines.values()) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
  }
}

/** Creates a particle system; every option is checked first (`ParticleOptionError` names it). */
export async function createParticleSystem(
  device: Device,
  options: ParticleOptionsInput = {},
): Promise<ParticleSystem> {
  return new ParticleSystem(device, resolveOptions(options));
}
