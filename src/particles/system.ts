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
 * float) render targets exist, else the CPU. `drawMode: 'auto'` is decided by measurement at the
 * first draw (draw-mode.ts): the fastest draw differs between devices.
 *
 * A frame: `update(encoder, dt)` → `prepareDraw(encoder, camera, target)` (records the splat's
 * compute pass in `splat` mode; nothing in the raster modes) → render pass → `draw(pass, camera)`.
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
import { FORMAT_INFO, type TextureFormat } from '../rhi/core/formats.js';
import { TextureUsage } from '../rhi/core/flags.js';
import type { Sampler } from '../rhi/core/sampler.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { UniformRing } from '../compute/uniform-ring.js';
import {
  resolveOptions,
  ParticleOptionError,
  type DrawMode,
  splatBlocker,
  type ParticleOptions,
  type SoftParticles,
  type ParticleOptionsInput,
  type ParticlePath,
} from './options.js';
import { kernelKey, kernelParams, particleKernel } from './kernel.js';
import { KernelError } from '../compute/kernel-error.js';
import { createState } from './reference.js';
import { stepStateFast } from './cpu-step.js';
import { EmissionSchedule, emits } from './emission.js';
import { choosePath, type PathChoice } from '../compute/paths/choose.js';
import {
  createDrawPipeline,
  drawPipelineId,
  packDrawCamera,
  packDrawLook,
  DrawParamsScratch,
  DRAW_PARAMS_BYTES,
  DRAW_PARAMS_SLOT,
  type Camera,
  type DrawPipeline,
  type StateKind,
} from './draw.js';
import { SplatDraw } from './splat.js';
import { DepthSort } from './sort.js';
import type { ParticleCollision } from './collision.js';
import { compileLook, type CompiledLook } from './look.js';
import { candidateModes, provisionalMode, isSoftwareAdapter } from './draw-mode.js';
import { measureDrawModes } from './calibrate.js';

/** What a draw pipeline is made for, from the pass it draws in. */
interface PassShape {
  format: TextureFormat;
  depthFormat: TextureFormat | undefined;
  sampleCount: number;
  blending: 'additive' | 'alpha';
  /** options.texture is set: the sprite pipeline. */
  textured: boolean;
  /** options.softParticles is set: the scene depth is read. */
  soft: boolean;
  /** options.look, compiled (null: the disc or the sprite). */
  look: CompiledLook | null;
  /** options.sort: drawn back to front through the depth sort's order. */
  sorted: boolean;
}

/** Counts read back from a particle system (alive, newborn, rising) and the emitter's counts. */
export interface ParticleStats {
  /** The capacity: particle slots. */
  count: number;
  /** Particles with age < life (continuous: all of them right after an update, the dead respawn). */
  alive: number;
  /** Particles the last update emitted (emission only; 0 when continuous). */
  emitted: number;
  /** Particles emitted since creation or `reset()` (emission only). */
  emittedTotal: number;
  /** Whether the emitter runs: false after `stop()`, or when a non-looping one has finished. */
  emitting: boolean;
  /** Particles (re)spawned by the last update (age exactly 0, alive). */
  newborn: number;
  /** Particles moving upwards. */
  rising: number;
}

const DRAW_SLOTS = 16;

/** A particle system: `update(encoder, dt)`, `prepareDraw`, `draw(pass, camera)`, `read()`, on the path it was created for. */
export class ParticleSystem {
  readonly path: ParticlePath;
  /** Why this path was taken. */
  readonly reason: string;
  #count: number;
  readonly device: Device;
  /** GPU bytes per particle of the state (docs/particles.md, "Paths and memory"). */
  readonly bytesPerParticle: number;
  /** JavaScript bytes per particle of the state (the CPU path's arrays; 0 on the GPU paths). */
  readonly hostBytesPerParticle: number;
  #options: ParticleOptions;
  #stepIndex = 0;
  #time = 0;
  /** Emission over time (`emitRate`/`bursts`); null when continuous. */
  #emission: EmissionSchedule | null;
  /** Whether the `prewarm` seconds have been simulated (at the first update). */
  #prewarmed = false;
  /** options.look compiled for both shader languages. */
  #look: CompiledLook | null;
  /** The linear sampler of options.texture, made at the first textured draw. */
  #spriteSampler: Sampler | null = null;
  #runner: ElementwiseRunner;
  /** A `setCapacity` is reading the state back: every other call waits for it (an error says so). */
  #resizing = false;
  #stopRestore: () => void = () => {};
  #lastRead: { position: Float32Array; velocity: Float32Array } | null = null;
  readonly #state: StateKind;
  readonly #drawRing: UniformRing;
  readonly #drawScratch = new DrawParamsScratch();
  #lastShape: PassShape | null = null;
  /** What the look's part of `#drawScratch` was packed from (see `#writeParams`). */
  readonly #packedLook: {
    options: ParticleOptions | null;
    runner: unknown;
    count: number;
    sortWidth: number;
  } = { options: null, runner: null, count: -1, sortWidth: -1 };
  readonly #pipelines = new Map<string, DrawPipeline>();
  #lastPipeline: { mode: DrawMode; shape: PassShape; pipeline: RenderPipeline } | null = null;
  #destroyed = false;
  #drawMode: DrawMode;
  #drawModeReason: string;
  /** auto: the measured mode, applied at the next prepareDraw (or draw, in loops without one). */
  #measured: DrawMode | null = null;
  #calibration: 'fixed' | 'waiting' | 'running' | 'done' = 'fixed';
  readonly #decided: Promise<DrawMode>;
  #resolveDecided: (mode: DrawMode) => void = () => {};
  #prepareSeen = false;
  #splat: SplatDraw | null = null;
  /** options.sort: the depth sort, made at the first prepareDraw (again after setCapacity). */
  #sort: DepthSort | null = null;
  /** The step the order was last made for (-1: never): a sorted draw needs this step's. */
  #sortedStep = -1;
  /** What a running measurement made; destroyed with the system if it is still running. */
  readonly #calibrationResources: Array<{ destroy(): void }> = [];
  /** auto: the fastest raster mode measured (what a splat falls back to when blending turns to alpha). */
  #rasterFallback: 'instanced' | 'pulled' = 'pulled';

  constructor(device: Device, options: ParticleOptions) {
    checkTexture(device, options.texture);
    checkSceneDepth(device, options.softParticles);
    this.#look = options.look ? compileLook(options.look.code) : null;
    this.device = device;
    this.#options = options;
    this.#count = options.count;
    this.#emission = emits(options) ? new EmissionSchedule() : null;
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
    checkCollision(device, options.collision, choice.path);
    if (options.drawMode === 'auto') {
      this.#drawMode = provisionalMode(device.caps);
      this.#drawModeReason = `provisional (${isSoftwareAdapter(device.caps) ? 'a software adapter' : 'a hardware adapter'}): measured at the first draw`;
      this.#calibration = 'waiting';
      this.#rasterFallback = this.#drawMode === 'instanced' ? 'instanced' : 'pulled';
      this.#decided = new Promise((resolve) => (this.#resolveDecided = resolve));
    } else {
      this.#drawMode = options.drawMode;
      this.#drawModeReason = 'chosen in the options';
      this.#decided = Promise.resolve(options.drawMode);
    }
    this.#runner = this.#makeRunner(options, choice.path);
    this.reason = choice.reason;
    this.#state = Object.keys(this.#runner.buffers).length > 0 ? 'buffers' : 'textures';
    if (
      options.drawMode === 'splat' &&
      (!device.caps.features.compute || this.#state !== 'buffers')
    ) {
      this.#runner.destroy();
      throw new ParticleOptionError(
        'drawMode',
        'splat',
        !device.caps.features.compute
          ? `needs caps.features.compute, which is false on ${device.caps.backend}; use 'auto', 'instanced' or 'pulled'`
          : `needs the state in storage buffers; the ${choice.path} path keeps it in textures here`,
      );
    }
    this.bytesPerParticle = this.#runner.bytesPerElement.gpu;
    this.hostBytesPerParticle = this.#runner.bytesPerElement.host;
    this.#seed();
    // after device.restore() the state is gone (textures come back zeroed): re-seed it as at
    // creation (step 0's spawn); steps and time go on from where they were
    this.#stopRestore = device.onRestored(() =>
      this.#seed(this.#options.onRestore === 'last-read'),
    );
    this.#drawRing = new UniformRing(device, DRAW_SLOTS, DRAW_PARAMS_SLOT, 'particles draw params');
  }

  /** The update's runner for `options` on `path` (its kernel, its state, the CPU loop). */
  #makeRunner(options: ParticleOptions, path: ParticlePath): ElementwiseRunner {
    try {
      return new ElementwiseRunner(this.device, particleKernel(options), {
        count: options.count,
        mode: path,
        label: 'particles',
        // the canonical rule as a tight loop (bit-identical to reference.ts); the step's values
        // (its index, dt) arrive as parameters. A behaviour runs its JavaScript translation.
        cpu: options.behavior
          ? undefined
          : {
              step: (state, _count, params) =>
                stepStateFast(
                  this.#options,
                  params.stepIndex as number,
                  params.dt as number,
                  {
                    position: state.position as Float32Array,
                    velocity: state.velocity as Float32Array,
                  },
                  this.#emission
                    ? {
                        start: params['emitStart'] as number,
                        count: params['emitCount'] as number,
                      }
                    : undefined,
                ),
            },
      });
    } catch (e) {
      if (e instanceof KernelError)
        throw new ParticleOptionError('behavior', '(its WGSL)', `cannot be used: ${e.message}`);
      if (e instanceof LimitExceededError)
        throw new ParticleOptionError(
          'count',
          options.count,
          `exceeds what the ${path} path can hold on this device: ${e.message}`,
        );
      throw e;
    }
  }

  /** The state as at creation, or (`onRestore: 'last-read'`) what the last read() returned. */
  #seed(lastRead = false): void {
    const state = (lastRead && this.#lastRead) || createState(this.#options);
    this.#runner.write('position', state.position);
    this.#runner.write('velocity', state.velocity);
  }

  /** The draw mode in use: the one asked for, or under `auto` the provisional then the measured one. */
  get drawMode(): DrawMode {
    return this.#drawMode;
  }

  /** Why `drawMode` is what it is; under `auto`, the measured figures once they are in. */
  get drawModeReason(): string {
    return this.#drawModeReason;
  }

  /** Resolves with the mode once it is decided (at once for a fixed mode; after the measurement under `auto`). */
  get drawModeDecided(): Promise<DrawMode> {
    return this.#decided;
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
    if (this.#resizing)
      throw new ValidationError(
        'particles-resizing',
        `${op} while setCapacity() is moving the state: await it first`,
        'particle system',
        { op },
      );
  }

  /** Particle slots: the capacity (all alive when continuous). `setCapacity` changes it. */
  get count(): number {
    return this.#count;
  }

  /**
   * Changes the capacity of a live system, keeping its particles: slots below the new count keep
   * what they hold (read back from the GPU, written into the new state); new slots are dead with
   * emission (the emitter fills them next) or spawned as at creation when continuous. Other calls
   * on the system are errors until it resolves.
   */
  async setCapacity(count: number): Promise<void> {
    this.#assertAlive('setCapacity');
    const next = resolveOptions({ ...this.#options, count });
    if (count === this.#count) return;
    this.#resizing = true;
    try {
      const old = await this.#runner.read();
      if (this.#destroyed) return;
      const runner = this.#makeRunner(next, this.path);
      const state = createState(next);
      const keep = Math.min(count, this.#count);
      state.position.set((old.position as Float32Array).subarray(0, 4 * keep));
      state.velocity.set((old.velocity as Float32Array).subarray(0, 4 * keep));
      runner.write('position', state.position);
      runner.write('velocity', state.velocity);
      this.#runner.destroy();
      this.#runner = runner;
      this.#sort?.destroy();
      this.#sort = null;
      this.#sortedStep = -1;
      this.#options = next;
      this.#count = count;
      // the emitter's ring goes on at the first new slot (or wraps into the smaller ring)
      if (this.#emission) this.#emission.head = count > keep ? keep : this.#emission.head % count;
    } finally {
      this.#resizing = false;
    }
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
    // (a look a splat cannot draw under drawMode 'splat' was refused by resolveOptions above)
    const blocker = splatBlocker(next);
    if (
      blocker !== null &&
      this.#options.drawMode === 'auto' &&
      (this.#drawMode === 'splat' || this.#measured === 'splat')
    ) {
      // auto measured splat fastest, but the new look rules a splat out: the fastest raster mode
      this.#drawMode = this.#rasterFallback;
      this.#measured = null;
      this.#drawModeReason = `${this.#drawModeReason}; a splat ${blocker}, so ${this.#rasterFallback}`;
    }
    for (const key of ['count', 'path', 'drawMode', 'seed'] as const) {
      if (next[key] !== this.#options[key])
        throw new ParticleOptionError(
          key,
          next[key],
          key === 'count'
            ? 'changes the capacity: await ps.setCapacity(count) (it moves the state)'
            : 'cannot change on a live system; create a new one',
        );
    }
    if (kernelKey(next) !== kernelKey(this.#options)) {
      throw new ParticleOptionError(
        'emitter.shape/attractors/turbulence',
        kernelKey(next),
        'changes the update kernel; create a new system',
      );
    }
    checkTexture(this.device, next.texture);
    checkSceneDepth(this.device, next.softParticles);
    checkCollision(this.device, next.collision, this.path);
    if (next.look?.code !== this.#options.look?.code)
      this.#look = next.look ? compileLook(next.look.code) : null;
    if (!next.sort && this.#sort) {
      this.#sort.destroy();
      this.#sort = null;
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
    if (!this.#prewarmed) {
      this.#prewarmed = true;
      const steps = Math.round(this.#options.prewarm * 60);
      for (let i = 0; i < steps; i++) this.#advance(encoder, 1 / 60);
    }
    this.#advance(encoder, dt, options.timestampWrites);
    this.#runner.barrierForDraw(encoder);
  }

  /** One step: the emitter's slots for it, then the update. */
  #advance(encoder: CommandEncoder, dt: number, timestampWrites?: PassTimestampWrites): void {
    this.#stepIndex++;
    this.#time += dt;
    const emit = this.#emission?.advance(this.#options, dt);
    this.#runner.step(
      encoder,
      kernelParams(this.#options, this.#stepIndex, dt, this.#time, emit),
      timestampWrites,
      this.#options.collision ? { sceneDepth: this.#options.collision.depth } : {},
    );
  }

  #needsEmission(op: string): EmissionSchedule {
    this.#assertAlive(op);
    if (!this.#emission)
      throw new ValidationError(
        'particles-continuous',
        `${op} needs emission over time: this system is continuous (every particle alive, respawning); create it with emitRate or bursts`,
        'particle system',
        { op },
      );
    return this.#emission;
  }

  /** Resumes emission after `stop()`; a non-looping emitter that has finished starts its cycle again. */
  start(): void {
    const e = this.#needsEmission('start');
    if (e.finished(this.#options)) e.clock = 0;
    e.playing = true;
  }

  /** Stops emitting: no new particles; the living ones live out their lives. */
  stop(): void {
    this.#needsEmission('stop').playing = false;
  }

  /** Whether the emitter runs (false after `stop()` or when a non-looping one has finished; true when continuous). */
  get emitting(): boolean {
    return !this.#emission || (this.#emission.playing && !this.#emission.finished(this.#options));
  }

  /**
   * Back to the state at creation: every particle as then (dead, with emission), the emitter's
   * clock at 0 and playing, `prewarm` simulated again at the next update. Steps go on counting.
   */
  reset(): void {
    this.#assertAlive('reset');
    if (this.#emission) this.#emission = new EmissionSchedule();
    this.#prewarmed = false;
    this.#seed();
  }

  /** Convenience: records an update alone and submits it. */
  step(dt: number): void {
    const encoder = this.device.createCommandEncoder({ label: 'particles step' });
    this.update(encoder, dt);
    this.device.queue.submit([encoder.finish()]);
  }

  /** The shape of `pass` a draw pipeline must match: exactly one colour attachment. */
  #shape(pass: RenderPass): PassShape {
    const formats = pass.colorFormats;
    if (formats.length !== 1) {
      throw new ValidationError(
        'particles-pass',
        `particles draw into a pass with exactly one colour attachment; this pass has ${formats.length} ([${formats.join(', ')}])`,
        'particle system',
        { attachments: formats },
      );
    }
    const format = formats[0] as TextureFormat;
    const depthFormat = pass.depthStencilFormat;
    const sampleCount = pass.sampleCount;
    const o = this.#options;
    const textured = o.texture !== null;
    const soft = o.softParticles !== null;
    // the last shape again when nothing changed: a draw every frame makes no object for it
    const last = this.#lastShape;
    if (
      last &&
      last.format === format &&
      last.depthFormat === depthFormat &&
      last.sampleCount === sampleCount &&
      last.blending === o.blending &&
      last.textured === textured &&
      last.soft === soft &&
      last.look === this.#look &&
      last.sorted === o.sort
    )
      return last;
    return (this.#lastShape = {
      format,
      depthFormat,
      sampleCount,
      blending: o.blending,
      textured,
      soft,
      look: this.#look,
      sorted: o.sort,
    });
  }

  /** The raster pipeline of `mode` for `shape`, made once (the last one is kept at hand: no key is built per frame). */
  #pipeline(mode: 'instanced' | 'pulled', shape: PassShape): RenderPipeline {
    const last = this.#lastPipeline;
    if (
      last &&
      last.mode === mode &&
      // #shape hands back the same object while nothing in it changes; another object goes
      // through the cache by id below
      last.shape === shape
    )
      return last.pipeline;
    const id = `${mode}|${drawPipelineId(shape)}`;
    let p = this.#pipelines.get(id);
    if (!p) {
      p = createDrawPipeline(this.device, { state: this.#state, mode, ...shape });
      this.#pipelines.set(id, p);
    }
    this.#lastPipeline = { mode, shape, pipeline: p.pipeline };
    return p.pipeline;
  }

  #checkCamera(camera: Camera): void {
    if (!camera || camera.view?.length !== 16 || camera.projection?.length !== 16) {
      throw new ValidationError(
        'particles-camera',
        'camera needs view and projection 4x4 matrices (16 numbers each)',
        'particle system',
      );
    }
  }

  /**
   * Writes this draw's DrawParams into the next ring slot; returns its offset in
   * `#drawRing.buffer`. The look's part is packed again only when what it is made of changed (the
   * options object, replaced by every setOptions; the runner and count, by setCapacity; the sort
   * order's width); the camera's part every draw.
   */
  #writeParams(camera: Camera, target?: { width: number; height: number }): number {
    const o = this.#options;
    const runner = this.#runner;
    const sortWidth = this.#sort?.width ?? 0;
    const look = this.#packedLook;
    if (
      look.options !== o ||
      look.runner !== runner ||
      look.count !== this.count ||
      look.sortWidth !== sortWidth
    ) {
      packDrawLook(
        this.#drawScratch,
        o.colors,
        o.colorStops,
        [o.sizeOverLife[0], o.sizeOverLife[1], o.size],
        runner.size.width,
        this.count,
        o,
        sortWidth,
      );
      look.options = o;
      look.runner = runner;
      look.count = this.count;
      look.sortWidth = sortWidth;
    }
    const offset = this.#drawRing.take();
    const params = packDrawCamera(this.#drawScratch, camera, target);
    this.device.queue.writeBuffer(this.#drawRing.buffer, offset, params);
    return offset;
  }

  /** Under `auto`, switches to the measured mode once it is in. */
  #applyMeasured(): void {
    if (this.#measured === null) return;
    this.#drawMode = this.#measured;
    this.#measured = null;
  }

  /**
   * Records what the draw needs before the render pass: with `sort`, the depth sort of this
   * frame's particles seen from `camera` (sort.ts); in `splat` mode, the compute pass that
   * accumulates every particle into a buffer the size of `target` (the texture the pass draws
   * into, or its size); otherwise nothing. Call it every frame, after `update` and before the
   * pass: under `drawMode: 'auto'` a loop that calls it lets `splat` be measured too.
   */
  prepareDraw(
    encoder: CommandEncoder,
    camera: Camera,
    target: { readonly width: number; readonly height: number },
    options: { timestampWrites?: PassTimestampWrites } = {},
  ): void {
    this.#assertAlive('prepareDraw');
    this.#checkCamera(camera);
    const { width, height } = target ?? {};
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
      throw new ValidationError(
        'particles-target',
        `prepareDraw target must be the pass's colour texture or its { width, height } in pixels; got ${String(width)}x${String(height)}`,
        'particle system',
        { width, height },
      );
    this.#prepareSeen = true;
    this.#applyMeasured();
    if (this.#options.sort) {
      this.#sort ??= new DepthSort(this.device, this.count, this.path);
      this.#sort.record(encoder, camera.view, { runner: this.#runner, count: this.count });
      this.#sortedStep = this.#stepIndex;
    }
    if (this.#drawMode !== 'splat') return;
    const buffers = this.#runner.buffers;
    const offset = this.#writeParams(camera, { width, height });
    this.#splat ??= new SplatDraw(this.device);
    this.#splat.prepare(
      encoder,
      {
        uniforms: this.#drawRing.buffer,
        offset,
        positions: buffers.position as Buffer,
        velocities: buffers.velocity as Buffer,
        count: this.count,
        width,
        height,
      },
      options.timestampWrites,
    );
  }

  /** Draws every particle: one draw call (raster modes), or the splat's resolve (`splat`). */
  draw(pass: RenderPass, camera: Camera): void {
    this.#assertAlive('draw');
    this.#checkCamera(camera);
    const shape = this.#shape(pass);
    if (shape.sorted && (!this.#sort || this.#sortedStep !== this.#stepIndex))
      throw new ValidationError(
        'particles-sort-unprepared',
        `sort: true draws in the order prepareDraw made; call ps.prepareDraw(encoder, camera, target) after update and before the pass (${this.#sort ? `the order is from step ${this.#sortedStep}, the state at step ${this.#stepIndex}` : 'no order has been made yet'})`,
        'particle system',
        { sortedStep: this.#sortedStep, stepIndex: this.#stepIndex },
      );
    if (!this.#prepareSeen) this.#applyMeasured();
    if (this.#calibration === 'waiting') {
      this.#calibration = 'running';
      void this.#calibrate(shape, camera, pass.width, pass.height);
    }
    if (this.#drawMode === 'splat') {
      this.#splat ??= new SplatDraw(this.device);
      this.#splat.resolve(pass);
      return;
    }
    this.#recordRaster(
      pass,
      this.#drawMode,
      shape,
      this.#drawRing.buffer,
      this.#writeParams(camera),
    );
  }

  #recordRaster(
    pass: RenderPass,
    mode: 'instanced' | 'pulled',
    shape: PassShape,
    uniforms: Buffer,
    offset: number,
    count = this.count,
  ): void {
    pass.setPipeline(this.#pipeline(mode, shape));
    pass.setUniformBuffer(0, uniforms, offset, DRAW_PARAMS_BYTES);
    const buffers = this.#runner.buffers;
    const order = shape.sorted ? this.#sort?.order : undefined;
    if (this.#state === 'buffers') {
      if (order) {
        pass.setStorageBuffer(1, buffers.position as Buffer);
        pass.setStorageBuffer(2, buffers.velocity as Buffer);
        pass.setStorageBuffer(6, order as Buffer);
      } else if (mode === 'instanced') {
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
      if (order) pass.setTexture(6, order as Texture);
    }
    const sprite = this.#options.texture;
    if (shape.textured && sprite) {
      pass.setTexture(3, sprite);
      pass.setSampler(
        4,
        (this.#spriteSampler ??= this.device.createSampler({
          label: 'particles sprite',
          magFilter: 'linear',
          minFilter: 'linear',
        })),
      );
    }
    const soft = this.#options.softParticles;
    if (shape.soft && soft) {
      if (soft.depth.width !== pass.width || soft.depth.height !== pass.height)
        throw new ValidationError(
          'particles-soft-depth',
          `softParticles.depth is ${soft.depth.width}x${soft.depth.height}; the pass draws ${pass.width}x${pass.height}: the scene depth must be the target's size`,
          'particle system',
          { depth: [soft.depth.width, soft.depth.height], pass: [pass.width, pass.height] },
        );
      pass.setTexture(5, soft.depth);
    }
    if (mode === 'instanced') pass.draw(4, count);
    else pass.draw(6 * count);
  }

  /**
   * `drawMode: 'auto'`: times every candidate mode drawing the current state into a private target
   * shaped like the pass (draw-mode.ts) and switches to the fastest. It starts with the first
   * CALIBRATION_START particles and grows the sample eightfold while the fastest mode draws it in
   * under CALIBRATION_ENOUGH_MS, so a software rasteriser measures a small sample quickly and a
   * real GPU measures enough work to time. Runs once, in the background; never throws (a failure
   * keeps the provisional mode and says why in `drawModeReason`).
   */
  async #calibrate(shape: PassShape, camera: Camera, width: number, height: number): Promise<void> {
    const device = this.device;
    const { modes, notes } = candidateModes(device.caps, {
      look: splatBlocker({ ...this.#options, blending: shape.blending }),
      buffers: this.#state === 'buffers',
      prepared: this.#prepareSeen,
      depth: shape.depthFormat !== undefined,
    });
    const owned = this.#calibrationResources;
    try {
      // the frame whose draw started this is submitted first
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.#destroyed) return;
      const best = await measureDrawModes({
        device,
        count: this.count,
        options: this.#options,
        stateWidth: this.#runner.size.width,
        buffers: this.#runner.buffers,
        shape,
        camera,
        width,
        height,
        modes,
        notes,
        owned,
        destroyed: () => this.#destroyed,
        recordRaster: (pass, mode, uniforms, offset, n) =>
          this.#recordRaster(pass, mode, shape, uniforms, offset, n),
      });
      if (this.#destroyed) return;
      const blocker = splatBlocker(this.#options);
      if (blocker !== null && best.mode === 'splat') {
        this.#measured = best.raster;
        this.#drawModeReason = `${best.reason}; the options changed (a splat ${blocker}), so ${best.raster}`;
      } else {
        this.#measured = best.mode;
        this.#drawModeReason = best.reason;
      }
      this.#rasterFallback = best.raster;
    } catch (e) {
      this.#drawModeReason = `${this.#drawModeReason}; the measurement failed (${(e as Error).message}), so the provisional mode stays`;
    } finally {
      for (const r of owned.splice(0)) r.destroy();
      this.#calibration = 'done';
      this.#resolveDecided(this.#measured ?? this.#drawMode);
    }
  }

  /** The whole state: `position` (x, y, z, age) and `velocity` (vx, vy, vz, life), 4 floats per particle. For tests and tools. */
  async read(): Promise<{ position: Float32Array; velocity: Float32Array }> {
    this.#assertAlive('read');
    const s = await this.#runner.read();
    const out = { position: s.position as Float32Array, velocity: s.velocity as Float32Array };
    if (this.#options.onRestore === 'last-read')
      this.#lastRead = { position: out.position.slice(), velocity: out.velocity.slice() };
    return out;
  }

  /**
   * `sort: true`: the slots in the order the last `prepareDraw` sorted them — the order they are
   * drawn in, farthest from its camera first, dead slots last. For tests and tools, not per frame.
   */
  async sortOrder(): Promise<Uint32Array> {
    this.#assertAlive('sortOrder');
    if (!this.#sort)
      throw new ValidationError(
        'particles-sort-unprepared',
        this.#options.sort
          ? 'sortOrder() before the first prepareDraw: no order has been made yet'
          : 'sortOrder() needs sort: true (this system draws in slot order)',
        'particle system',
      );
    return this.#sort.read();
  }

  /** Counts from a small GPU reduction (16 bytes read back), never a full readback. */
  async stats(): Promise<ParticleStats> {
    this.#assertAlive('stats');
    const counts = await this.#runner.reduce(
      {
        alive: 'position.w < velocity.w',
        newborn: 'position.w == 0.0 && velocity.w > 0.0',
        rising: 'velocity.y > 0.0',
      },
      {
        alive: (i, s) =>
          ((s.position as Float32Array)[4 * i + 3] as number) <
          ((s.velocity as Float32Array)[4 * i + 3] as number),
        newborn: (i, s) =>
          (s.position as Float32Array)[4 * i + 3] === 0 &&
          ((s.velocity as Float32Array)[4 * i + 3] as number) > 0,
        rising: (i, s) => ((s.velocity as Float32Array)[4 * i + 1] as number) > 0,
      },
    );
    return {
      count: this.count,
      alive: counts.alive as number,
      emitted: this.#emission?.emittedLastStep ?? 0,
      emittedTotal: this.#emission?.emittedTotal ?? 0,
      emitting: this.emitting,
      newborn: counts.newborn as number,
      rising: counts.rising as number,
    };
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#stopRestore();
    this.#runner.destroy();
    this.#drawRing.destroy();
    this.#splat?.destroy();
    this.#sort?.destroy();
    this.#spriteSampler?.destroy();
    for (const r of this.#calibrationResources.splice(0)) r.destroy();
    // a measurement never started leaves nothing waiting: the mode stays the provisional one
    if (this.#calibration === 'waiting') this.#resolveDecided(this.#drawMode);
    for (const p of this.#pipelines.values()) {
      p.pipeline.destroy();
      for (const m of p.modules) m.destroy();
    }
  }
}

/** options.texture must be a live, filterable texture of this device that shaders may sample. */
function checkTexture(device: Device, texture: Texture | null): void {
  if (texture === null) return;
  if (texture.device !== device)
    throw new ParticleOptionError('texture', texture.label, 'belongs to another device');
  if (texture.destroyed) throw new ParticleOptionError('texture', texture.label, 'is destroyed');
  if ((texture.usage & TextureUsage.TEXTURE_BINDING) === 0)
    throw new ParticleOptionError('texture', texture.label, 'needs TextureUsage.TEXTURE_BINDING');
  const info = FORMAT_INFO[texture.format];
  if (info.kind !== 'unorm' && !(info.kind === 'float' && info.half))
    throw new ParticleOptionError(
      'texture',
      texture.label,
      `has format ${texture.format}, which cannot be filtered; use an 8-bit unorm or a 16-bit float format`,
    );
  if (texture.sampleCount !== 1)
    throw new ParticleOptionError('texture', texture.label, 'is multisampled');
}

/**
 * options.collision.depth: on the GPU paths a depth texture of this device (checked as the soft
 * particles' is), on the CPU path an array.
 */
function checkCollision(device: Device, c: ParticleCollision | null, path: ParticlePath): void {
  if (c === null) return;
  const texture = (c.depth as Texture).kind === 'texture';
  if (path === 'cpu' && texture)
    throw new ParticleOptionError(
      'collision.depth',
      (c.depth as Texture).label,
      'is a texture, but the CPU path reads the scene depth from { data: Float32Array, width, height }',
    );
  if (path !== 'cpu' && !texture)
    throw new ParticleOptionError(
      'collision.depth',
      '{ data, width, height }',
      `is an array, but the ${path} path reads the scene depth from a depth texture`,
    );
  if (texture) depthTextureProblem(device, c.depth as Texture, 'collision.depth');
}

/** options.softParticles.depth must be a live depth texture of this device that shaders may read. */
function checkSceneDepth(device: Device, soft: SoftParticles | null): void {
  if (soft === null) return;
  depthTextureProblem(device, soft.depth, 'softParticles.depth');
}

/** A scene depth texture's problem, as a ParticleOptionError naming `option`. */
function depthTextureProblem(device: Device, depth: Texture, option: string): void {
  const why =
    depth.device !== device
      ? 'belongs to another device'
      : depth.destroyed
        ? 'is destroyed'
        : (depth.usage & TextureUsage.TEXTURE_BINDING) === 0
          ? 'needs TextureUsage.TEXTURE_BINDING'
          : FORMAT_INFO[depth.format].kind !== 'depth'
            ? `has format ${depth.format}; the scene depth is a depth format (depth24plus, depth32float)`
            : depth.sampleCount !== 1
              ? 'is multisampled'
              : null;
  if (why) throw new ParticleOptionError(option, depth.label, why);
}

/** Creates a particle system; every option is checked first (`ParticleOptionError` names it). */
export async function createParticleSystem(
  device: Device,
  options: ParticleOptionsInput = {},
): Promise<ParticleSystem> {
  return new ParticleSystem(device, resolveOptions(options));
}
