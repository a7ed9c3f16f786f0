/**
 * The simulation half of a particle system: the update's runner on its path (kernel.ts's kernel as
 * a compute pass, a fragment ping-pong or the CPU loop), the emission schedule, prewarm, the state
 * after a device loss, read-back and counts. renderer.ts draws what it holds; system.ts is the
 * facade over both.
 */
import { LimitExceededError, ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import type { Buffer } from '../rhi/core/buffer.js';
import { ElementwiseRunner } from '../compute/elementwise.js';
import { KernelError } from '../compute/kernel-error.js';
import { translateNow } from '../compute/kernel.js';
import { hasUserCode } from './modules/index.js';
import { ParticleOptionError } from './errors.js';
import type { ParticleOptions, ParticlePath } from './options.js';
import { kernelParams, particleKernel } from './kernel.js';
import { createState } from './reference.js';
import { fastCpuRuns, stepStateFast } from './cpu-step.js';
import { EmissionSchedule, emits } from './emission.js';
import { TrailHistory } from './trail-history.js';
import { LivingList, canCompact } from './living.js';
import { TableSource, sameTable, tableOf } from './table-source.js';

/** The state as `read()` returns it: 4 floats per particle each (and the attributes modules add). */
export interface ParticleArrays {
  position: Float32Array;
  velocity: Float32Array;
  /** The state attributes the stack's modules add, by name (absent when there are none). */
  attributes?: Record<string, Float32Array>;
}

/** Counts from the GPU: alive, newborn (spawned this step), rising. */
export interface StateCounts {
  alive: number;
  newborn: number;
  rising: number;
}

export class ParticleSimulation {
  readonly device: Device;
  readonly path: ParticlePath;
  options: ParticleOptions;
  runner: ElementwiseRunner;
  /** The trail module's ring of past positions (null without trails). */
  trail: TrailHistory | null = null;
  /** The living list the draws read (options.compact; null where the system draws every slot). */
  living: LivingList | null = null;
  stepIndex = 0;
  #time = 0;
  /** Emission over time (the `emission` module); null when continuous. */
  emission: EmissionSchedule | null;
  /** Whether the `prewarm` seconds have been simulated (at the first update). */
  #prewarmed = false;
  #lastRead: ParticleArrays | null = null;
  /** A sub-emitter: the parent's step whose events the last step read. */
  #parentStep = 0;
  /** The table the update reads as its source (a mesh's triangles, a heightfield), or null. */
  #table: TableSource | null = null;
  #stopRestore: () => void;

  constructor(device: Device, options: ParticleOptions, path: ParticlePath) {
    this.device = device;
    this.path = path;
    this.options = options;
    this.emission = emits(options) ? new EmissionSchedule() : null;
    this.runner = this.#makeRunner(options);
    try {
      this.trail = this.#makeTrail(options);
      this.living = this.#makeLiving(options);
      this.#table = this.#makeTable(options);
    } catch (e) {
      this.trail?.destroy();
      this.living?.destroy();
      this.runner.destroy();
      throw e;
    }
    this.seed();
    // after device.restore() the state is gone (textures come back zeroed): re-seed it as at
    // creation (step 0's spawn); steps and time go on from where they were
    this.#stopRestore = device.onRestored(() => this.seed(this.options.onRestore === 'last-read'));
  }

  get count(): number {
    return this.options.count;
  }

  /** The update's runner for `options` (its kernel, its state, the CPU loop). */
  #makeRunner(options: ParticleOptions): ElementwiseRunner {
    try {
      const kernel = particleKernel(options);
      // code of yours (a behavior, a registered module) is checked on every path: translated here
      // even where this path runs the WGSL (Ignis's own modules are known to translate)
      if (hasUserCode(options)) translateNow(kernel);
      return new ElementwiseRunner(this.device, kernel, {
        count: options.count,
        mode: this.path,
        label: 'particles',
        // the canonical stack as a tight loop (bit-identical to reference.ts); the step's values
        // (its index, dt) arrive as parameters. Any other stack runs its JavaScript translation.
        cpu: fastCpuRuns(options)
          ? {
              step: (state, _count, params) =>
                stepStateFast(
                  this.options,
                  params.stepIndex as number,
                  params.dt as number,
                  {
                    position: state.position as Float32Array,
                    velocity: state.velocity as Float32Array,
                  },
                  this.emission
                    ? {
                        start: params['emitStart'] as number,
                        count: params['emitCount'] as number,
                      }
                    : undefined,
                ),
            }
          : undefined,
      });
    } catch (e) {
      if (e instanceof KernelError)
        throw new ParticleOptionError(
          options.behavior ? 'behavior' : 'modules',
          '(its WGSL)',
          `cannot be used: ${e.message}`,
        );
      if (e instanceof LimitExceededError)
        throw new ParticleOptionError(
          'count',
          options.count,
          `exceeds what the ${this.path} path can hold on this device: ${e.message}`,
        );
      throw e;
    }
  }

  /** The table `options` read as the update's source (null when they read none). */
  #makeTable(options: ParticleOptions): TableSource | null {
    const made = tableOf(options);
    return made ? new TableSource(this.device, made, this.path) : null;
  }

  /** The trail history for `options` on the current runner (null without trails). */
  #makeTrail(options: ParticleOptions): TrailHistory | null {
    if (!options.trail) return null;
    try {
      return new TrailHistory(this.device, this.runner, options.trail.length);
    } catch (e) {
      if (e instanceof LimitExceededError)
        throw new ParticleOptionError(
          'trail.length',
          options.trail.length,
          `with count ${options.count} exceeds what the ${this.path} path can hold on this device: ${e.message}`,
        );
      throw e;
    }
  }

  /**
   * The living list for `options` (options.compact) on the current runner: `'auto'` compacts
   * where the device can and the system emits over time; `true` where it cannot is an error.
   */
  #makeLiving(options: ParticleOptions): LivingList | null {
    const state = Object.keys(this.runner.buffers).length > 0 ? 'buffers' : 'textures';
    const can = canCompact(this.device, state);
    if (options.compact === true && !can)
      throw new ParticleOptionError(
        'compact',
        true,
        !this.device.caps.features.indirect
          ? `needs indirect draws, which ${this.device.caps.backend} lacks (caps.features.indirect is false): leave it 'auto' and the dead are culled in the vertex stage`
          : `needs the state in storage buffers; the ${this.path} path keeps it in textures here`,
      );
    const wanted = options.compact === true || (options.compact === 'auto' && emits(options));
    return wanted && can ? new LivingList(this.device, options.count) : null;
  }

  /** New options on a live system: the trail's ring and the living list made again when they change. */
  setOptions(next: ParticleOptions): void {
    const before = this.options.trail?.length ?? 0;
    const after = next.trail?.length ?? 0;
    if (before !== after) {
      const trail = this.#makeTrail(next);
      this.trail?.destroy();
      this.trail = trail;
    }
    if (next.compact !== this.options.compact) {
      const living = this.#makeLiving(next);
      this.living?.destroy();
      this.living = living;
    }
    if (!sameTable(tableOf(next)?.from ?? null, this.#table?.from ?? null)) {
      // another mesh (a skinned mesh's posed vertices) or heightfield: its table
      const table = this.#makeTable(next);
      this.#table?.destroy();
      this.#table = table;
    }
    this.options = next;
  }

  /** The state as at creation, or (`onRestore: 'last-read'`) what the last read() returned. */
  seed(lastRead = false): void {
    const state = (lastRead && this.#lastRead) || createState(this.options);
    this.runner.write('position', state.position);
    this.runner.write('velocity', state.velocity);
    for (const [name, data] of Object.entries(state.attributes ?? {}))
      this.runner.write(name, data);
    this.trail?.reset();
    // the list describes the state before the seed: the draws cover every slot until the next update
    if (this.living) this.living.step = -1;
  }

  /** A new capacity: the state read back, the slots below it kept, the runner made again. */
  async resize(next: ParticleOptions, destroyed: () => boolean): Promise<boolean> {
    const old = await this.runner.read();
    if (destroyed()) return false;
    const runner = this.#makeRunner(next);
    const state = createState(next);
    const keep = Math.min(next.count, this.count);
    const arrays = { position: state.position, velocity: state.velocity, ...state.attributes };
    for (const [name, data] of Object.entries(arrays)) {
      data.set((old[name] as Float32Array).subarray(0, 4 * keep));
      runner.write(name, data);
    }
    this.runner.destroy();
    this.runner = runner;
    this.trail?.destroy();
    this.trail = null;
    this.trail = this.#makeTrail(next);
    this.living?.destroy();
    this.living = null;
    this.living = this.#makeLiving(next);
    // the emitter's ring goes on at the first new slot (or wraps into the smaller ring)
    if (this.emission)
      this.emission.head = next.count > keep ? keep : this.emission.head % next.count;
    this.options = next;
    return true;
  }

  /** Prewarm at the first update, one step of `dt`, the barrier the draw needs. */
  update(encoder: CommandEncoder, dt: number, timestampWrites?: PassTimestampWrites): void {
    if (!this.#prewarmed) {
      this.#prewarmed = true;
      const steps = Math.round(this.options.prewarm * 60);
      for (let i = 0; i < steps; i++) this.#advance(encoder, 1 / 60);
    }
    const living = this.living;
    if (!living) {
      this.#advance(encoder, dt, timestampWrites);
      this.runner.barrierForDraw(encoder);
      return;
    }
    // the timestamps span the update: the step pass's beginning (the CPU path has none: the
    // list's pass takes both) to the end of the living list's pass
    const stepPass = this.path !== 'cpu' && timestampWrites;
    this.#advance(
      encoder,
      dt,
      stepPass
        ? {
            querySet: timestampWrites.querySet,
            beginningOfPassWriteIndex: timestampWrites.beginningOfPassWriteIndex,
          }
        : undefined,
    );
    living.record(
      encoder,
      this.runner.buffers['velocity'] as Buffer,
      this.stepIndex,
      stepPass
        ? {
            querySet: timestampWrites.querySet,
            endOfPassWriteIndex: timestampWrites.endOfPassWriteIndex,
          }
        : timestampWrites,
    );
    this.runner.barrierForDraw(encoder);
  }

  /** One step: the emitter's slots for it, then the update. */
  #advance(encoder: CommandEncoder, dt: number, timestampWrites?: PassTimestampWrites): void {
    this.stepIndex++;
    this.#time += dt;
    const emit = this.emission?.advance(this.options, dt);
    const params = kernelParams(this.options, this.stepIndex, dt, this.#time, emit);
    const parent = this.options.subEmitter?.parent;
    if (parent) {
      // the parent's events of its last step, read once (a second step before the parent's
      // next one spawns nothing)
      params['fresh'] = parent.stepIndex !== this.#parentStep ? 1 : 0;
      this.#parentStep = parent.stepIndex;
    }
    // a skinned mesh posed on the GPU: its pose of now into the table the step reads
    this.#table?.gather(encoder);
    this.runner.step(encoder, params, timestampWrites, {
      ...(this.options.collision ? { sceneDepth: this.options.collision.depth } : {}),
      ...(parent ? { source: parent.eventSource } : {}),
      ...(this.#table ? { source: this.#table.source } : {}),
    });
    this.trail?.record(encoder, this.#time);
  }

  /** The emitter, or the error saying the system is continuous. */
  #needsEmission(op: string): EmissionSchedule {
    if (!this.emission)
      throw new ValidationError(
        'particles-continuous',
        `${op} needs emission over time: this system is continuous (every particle alive, respawning); create it with emitRate or bursts`,
        'particle system',
        { op },
      );
    return this.emission;
  }

  /** Resumes emission; a non-looping emitter that has finished starts its cycle again. */
  start(): void {
    const e = this.#needsEmission('start');
    if (e.finished(this.options)) e.clock = 0;
    e.playing = true;
  }

  /** Stops emitting: the living particles live out their lives. */
  stop(): void {
    this.#needsEmission('stop').playing = false;
  }

  /** Back to the state at creation (the emitter's clock too); prewarm again at the next update. */
  reset(): void {
    if (this.emission) this.emission = new EmissionSchedule();
    this.#prewarmed = false;
    this.seed();
  }

  /** Whether the emitter runs (false after `stop()` or when a non-looping one has finished; true when continuous). */
  get emitting(): boolean {
    return !this.emission || (this.emission.playing && !this.emission.finished(this.options));
  }

  async read(): Promise<ParticleArrays> {
    const { position, velocity, ...rest } = (await this.runner.read()) as Record<
      string,
      Float32Array
    >;
    const out: ParticleArrays = { position: position!, velocity: velocity! };
    if (Object.keys(rest).length > 0) out.attributes = rest;
    if (this.options.onRestore === 'last-read')
      this.#lastRead = {
        position: out.position.slice(),
        velocity: out.velocity.slice(),
        ...(out.attributes
          ? { attributes: Object.fromEntries(Object.entries(rest).map(([n, a]) => [n, a.slice()])) }
          : {}),
      };
    return out;
  }

  /**
   * The events module's records of the last step: how many particles raised one (a GPU reduction,
   * 16 bytes back) and, with `positions`, where (a readback of the records).
   */
  async events(
    positions: boolean,
  ): Promise<{ step: number; count: number; positions?: Float32Array }> {
    const step = this.stepIndex;
    const { events } = await this.runner.reduce(
      { events: 'eventPosition.w > 0.5' },
      { events: (i, s) => ((s['eventPosition'] as Float32Array)[4 * i + 3] as number) > 0.5 },
    );
    if (!positions) return { step, count: events as number };
    const records = (await this.runner.read())['eventPosition'] as Float32Array;
    const at: number[] = [];
    for (let i = 0; i < this.count; i++)
      if ((records[4 * i + 3] as number) > 0.5)
        at.push(
          records[4 * i] as number,
          records[4 * i + 1] as number,
          records[4 * i + 2] as number,
        );
    return { step, count: events as number, positions: new Float32Array(at) };
  }

  /** Counts from a small GPU reduction (16 bytes read back), never a full readback. */
  async counts(): Promise<StateCounts> {
    const counts = await this.runner.reduce(
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
      alive: counts.alive as number,
      newborn: counts.newborn as number,
      rising: counts.rising as number,
    };
  }

  destroy(): void {
    this.#stopRestore();
    this.trail?.destroy();
    this.living?.destroy();
    this.#table?.destroy();
    this.runner.destroy();
  }
}
