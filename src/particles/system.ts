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
 *
 * The system is a stack of modules (modules/*.ts, `ps.modules`), resolved at the door
 * (resolve.ts); this class is the facade over the simulation (simulation.ts) and the rendering
 * (renderer.ts).
 */
import { ValidationError } from '../rhi/core/errors.js';
import type { Device } from '../rhi/core/device.js';
import type { CommandEncoder } from '../rhi/core/command-encoder.js';
import type { RenderPass } from '../rhi/core/render-pass.js';
import type { PassTimestampWrites } from '../rhi/core/descriptors.js';
import { ParticleOptionError } from './errors.js';
import type {
  Camera,
  DrawMode,
  ParticleModule,
  ParticleModuleInput,
  ParticleOptions,
  ParticleEventKind,
  ParticleOptionsInput,
  ParticlePath,
} from './options.js';
import { checkOnDevice, mergeOptions, pathFor, resolveOptions } from './resolve.js';
import { kernelKey } from './kernel.js';
import type { PathChoice } from '../compute/paths/choose.js';
import type { KernelSource } from '../compute/paths/path.js';
import { ParticleSimulation, type ParticleArrays } from './simulation.js';
import { ParticleRenderer } from './renderer.js';
import { loadFrontEnd } from '../compute/front-end.js';
import { hasUserCode } from './modules/index.js';

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

/** A particle system: `update(encoder, dt)`, `prepareDraw`, `draw(pass, camera)`, `read()`, on the path it was created for. */
export class ParticleSystem {
  readonly path: ParticlePath;
  /** Why this path was taken. */
  readonly reason: string;
  readonly device: Device;
  /** GPU bytes per particle: the state and its trail (docs/particles.md, "Paths and memory"). */
  get bytesPerParticle(): number {
    return (
      this.#sim.runner.bytesPerElement.gpu +
      (this.#sim.trail?.bytesPerParticle ?? 0) +
      (this.#sim.living?.bytesPerParticle ?? 0)
    );
  }
  /** JavaScript bytes per particle of the state (the CPU path's arrays; 0 on the GPU paths). */
  readonly hostBytesPerParticle: number;
  readonly #sim: ParticleSimulation;
  readonly #renderer: ParticleRenderer;
  /** The list it was made from (`modules: [...]`), kept for setOptions; null when made from flat options. */
  #list: ParticleModuleInput[] | null;
  /** A `setCapacity` is reading the state back: every other call waits for it (an error says so). */
  #resizing = false;
  #destroyed = false;

  /** Made by `createParticleSystem` (options resolved and checked against the device there). */
  constructor(
    device: Device,
    options: ParticleOptions,
    path: PathChoice,
    list: ParticleModuleInput[] | null = null,
  ) {
    this.device = device;
    this.path = path.path;
    this.reason = path.reason;
    this.#list = list;
    this.#sim = new ParticleSimulation(device, options, path.path);
    try {
      this.#renderer = new ParticleRenderer(device, this.#sim);
      if (
        options.drawMode === 'splat' &&
        (!device.caps.features.compute || this.#renderer.state !== 'buffers')
      )
        throw new ParticleOptionError(
          'drawMode',
          'splat',
          !device.caps.features.compute
            ? `needs caps.features.compute, which is false on ${device.caps.backend}; use 'auto', 'instanced' or 'pulled'`
            : `needs the state in storage buffers; the ${path.path} path keeps it in textures here`,
        );
    } catch (e) {
      this.#sim.destroy();
      throw e;
    }
    this.hostBytesPerParticle = this.#sim.runner.bytesPerElement.host;
  }

  /** The draw mode in use: the one asked for, or under `auto` the provisional then the measured one. */
  get drawMode(): DrawMode {
    return this.#renderer.drawMode;
  }

  /** Why `drawMode` is what it is; under `auto`, the measured figures once they are in. */
  get drawModeReason(): string {
    return this.#renderer.drawModeReason;
  }

  /** Resolves with the mode once it is decided (at once for a fixed mode; after the measurement under `auto`). */
  get drawModeDecided(): Promise<DrawMode> {
    return this.#renderer.decided;
  }

  get options(): Readonly<ParticleOptions> {
    return this.#sim.options;
  }

  /** The modules that run, in stages (spawn, update, render), each with its options. */
  get modules(): readonly ParticleModule[] {
    return this.#sim.options.modules;
  }

  /** Steps taken so far (creation is step 0). */
  get stepIndex(): number {
    return this.#sim.stepIndex;
  }

  /** With `events`: the state a sub-emitter reads (its event records), where it lives. */
  get eventSource(): KernelSource {
    return this.#sim.runner.source;
  }

  /** How the ping-pong state is stored: 'f32' or 'f16' (no float32 render targets). */
  get precision(): 'f32' | 'f16' {
    return this.#sim.runner.precision;
  }

  /** State size in texels where it is in textures (`texelFetch(state, ivec2(i % width, i / width))`). */
  get stateSize(): { width: number; height: number } {
    return this.#sim.runner.size;
  }

  /** Particle slots: the capacity (all alive when continuous). `setCapacity` changes it. */
  get count(): number {
    return this.#sim.count;
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

  /**
   * Changes the capacity of a live system, keeping its particles: slots below the new count keep
   * what they hold (read back from the GPU, written into the new state); new slots are dead with
   * emission (the emitter fills them next) or spawned as at creation when continuous. Other calls
   * on the system are errors until it resolves.
   */
  async setCapacity(count: number): Promise<void> {
    this.#assertAlive('setCapacity');
    const next = mergeOptions(this.#sim.options, this.#list, { count });
    if (count === this.count) return;
    this.#resizing = true;
    try {
      if (await this.#sim.resize(next, () => this.#destroyed)) this.#renderer.resized();
    } finally {
      this.#resizing = false;
    }
  }

  /**
   * Changes options that are uniforms (forces, emitter position and radius, speeds, lives, colours,
   * sizes, blending). Options that change the kernel's code (emitter shape, the number of
   * attractors, turbulence on/off, the module stack) or the count need a new system.
   */
  setOptions(input: ParticleOptionsInput): void {
    this.#assertAlive('setOptions');
    const previous = this.#sim.options;
    const next = mergeOptions(this.#sim.options, this.#list, input);
    this.#renderer.optionsChanged(previous, next);
    for (const key of ['count', 'path', 'drawMode', 'seed'] as const) {
      if (next[key] !== previous[key])
        throw new ParticleOptionError(
          key,
          next[key],
          key === 'count'
            ? 'changes the capacity: await ps.setCapacity(count) (it moves the state)'
            : 'cannot change on a live system; create a new one',
        );
    }
    if (kernelKey(next) !== kernelKey(previous))
      throw new ParticleOptionError(
        'modules',
        kernelKey(next),
        `changes the update kernel (was ${kernelKey(previous)}: emitter shape, attractors, turbulence on/off, the stack); create a new system`,
      );
    checkOnDevice(this.device, next, this.path);
    if (input.modules) this.#list = [...input.modules];
    this.#sim.setOptions(next);
  }

  /**
   * Records one update of `dt` seconds into `encoder` (a compute pass, or the ping-pong pass; the
   * CPU path updates and uploads now) followed by the barrier the draw needs. `timestampWrites`
   * times the update pass (the CPU path has none: it is timed on the CPU); where the system
   * compacts (`compacted`), from the update pass's beginning to the end of the living list's pass.
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
    this.#sim.update(encoder, dt, options.timestampWrites);
  }

  /** Resumes emission after `stop()`; a non-looping emitter that has finished starts its cycle again. */
  start(): void {
    this.#assertAlive('start');
    this.#sim.start();
  }

  /** Stops emitting: no new particles; the living ones live out their lives. */
  stop(): void {
    this.#assertAlive('stop');
    this.#sim.stop();
  }

  /** Whether the emitter runs (false after `stop()` or when a non-looping one has finished; true when continuous). */
  get emitting(): boolean {
    return this.#sim.emitting;
  }

  /**
   * Back to the state at creation: every particle as then (dead, with emission), the emitter's
   * clock at 0 and playing, `prewarm` simulated again at the next update. Steps go on counting.
   */
  reset(): void {
    this.#assertAlive('reset');
    this.#sim.reset();
  }

  /** Convenience: records an update alone and submits it. */
  step(dt: number): void {
    const encoder = this.device.createCommandEncoder({ label: 'particles step' });
    this.update(encoder, dt);
    this.device.queue.submit([encoder.finish()]);
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
    this.#renderer.prepare(encoder, camera, target, options.timestampWrites);
  }

  /** Draws every particle: one draw call (raster modes), or the splat's resolve (`splat`). */
  draw(pass: RenderPass, camera: Camera): void {
    this.#assertAlive('draw');
    this.#renderer.draw(pass, camera);
  }

  /**
   * The whole state: `position` (x, y, z, age) and `velocity` (vx, vy, vz, life), 4 floats per
   * particle, and `attributes`: the state modules add (a tether's `origin`), by name. For tests and tools.
   */
  async read(): Promise<ParticleArrays> {
    this.#assertAlive('read');
    return this.#sim.read();
  }

  /**
   * `events`: the events of the last update's step — `{ kind, step, count }`, counted on the GPU
   * (16 bytes read back, a promise: await it outside the frame), and with `{ positions: true }` where
   * they happened (x, y, z each; a readback of the records, for tools and tests).
   */
  async events(
    options: { positions?: boolean } = {},
  ): Promise<{ kind: ParticleEventKind; step: number; count: number; positions?: Float32Array }> {
    this.#assertAlive('events');
    const kind = this.#sim.options.events;
    if (!kind)
      throw new ValidationError(
        'particles-no-events',
        "events() needs the events module: create the system with events: 'death' (or 'birth', 'floor')",
        'particle system',
      );
    return { kind, ...(await this.#sim.events(options.positions === true)) };
  }

  /**
   * `trail`: the positions the trails hold, newest first — `{ length, recorded, positions }`, with
   * `positions` holding `length` copies of the position state (x, y, z, age; 4 floats per
   * particle), copy k from k steps ago, zeros where fewer than k + 1 steps are recorded. For tests
   * and tools, not per frame.
   */
  async readTrail(): Promise<{ length: number; recorded: number; positions: Float32Array }> {
    this.#assertAlive('readTrail');
    const trail = this.#sim.trail;
    if (!trail)
      throw new ValidationError(
        'particles-no-trail',
        'readTrail() needs the trail module: create the system with trail: { length, … }',
        'particle system',
      );
    return { length: trail.length, recorded: trail.filled, positions: await trail.read() };
  }

  /**
   * `sort: true`: the slots in the order the last `prepareDraw` sorted them — the order they are
   * drawn in, farthest from its camera first, dead slots last. For tests and tools, not per frame.
   */
  async sortOrder(): Promise<Uint32Array> {
    this.#assertAlive('sortOrder');
    const order = await this.#renderer.sortOrder();
    if (!order)
      throw new ValidationError(
        'particles-sort-unprepared',
        this.#sim.options.sort
          ? 'sortOrder() before the first prepareDraw: no order has been made yet'
          : 'sortOrder() needs sort: true (this system draws in slot order)',
        'particle system',
      );
    return order;
  }

  /**
   * Whether the draws cover the living only (options.compact): after each update the GPU lists
   * the living particles and the draws take their counts from it (living.ts).
   */
  get compacted(): boolean {
    return this.#sim.living !== null;
  }

  /**
   * The number of living particles (life > 0) after the last update, from the GPU: where the
   * system compacts, the count the draws used (4 bytes back, no pass of its own); elsewhere a
   * reduction (16 bytes back). A promise through the readback pool: the frame never waits for it.
   */
  async livingCount(): Promise<number> {
    this.#assertAlive('livingCount');
    const living = this.#sim.living;
    if (living && living.step === this.#sim.stepIndex) return living.readCount();
    const { living: n } = await this.#sim.runner.reduce(
      { living: 'velocity.w > 0.0' },
      { living: (i, s) => ((s.velocity as Float32Array)[4 * i + 3] as number) > 0 },
    );
    return n as number;
  }

  /**
   * `compact`: the slots the last update's list holds, in the order they are drawn (slot order).
   * For tests and tools, not per frame.
   */
  async livingSlots(): Promise<Uint32Array> {
    this.#assertAlive('livingSlots');
    const living = this.#sim.living;
    if (!living || living.step !== this.#sim.stepIndex)
      throw new ValidationError(
        'particles-no-living',
        living
          ? 'livingSlots() before the first update since the state was seeded: the list is made by update()'
          : `livingSlots() needs a system that compacts (compact: ${String(this.#sim.options.compact)} here, ps.compacted is false): WebGPU with the state in storage buffers, and compact: true or 'auto' with emission`,
        'particle system',
      );
    return living.read();
  }

  /** Counts from a small GPU reduction (16 bytes read back), never a full readback. */
  async stats(): Promise<ParticleStats> {
    this.#assertAlive('stats');
    const counts = await this.#sim.counts();
    const emission = this.#sim.emission;
    return {
      count: this.count,
      ...counts,
      emitted: emission?.emittedLastStep ?? 0,
      emittedTotal: emission?.emittedTotal ?? 0,
      emitting: this.emitting,
    };
  }

  /**
   * Resolves once the update's shaders have compiled; rejects with the ShaderCompileError where
   * the browser's compiler refused them (WebGPU compiles asynchronously). `createParticleSystem`
   * waits for it; after a `setOptions` that changes the kernel (a new behavior, a module added),
   * await it to hear about a refusal rather than see an update that does nothing.
   */
  async compiled(): Promise<void> {
    this.#assertAlive('compiled');
    await this.#sim.runner.compiled();
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#sim.destroy();
    this.#renderer.destroy();
  }
}

/**
 * Creates a particle system from options or a module list: every option is checked first, here
 * at the door (`ParticleOptionError` names it), against the device and the path it will run on.
 */
export async function createParticleSystem(
  device: Device,
  options: ParticleOptionsInput = {},
): Promise<ParticleSystem> {
  // a sub-emitter runs where its parent does, unless a path is asked for (checked against it)
  const parent = options.subEmitter?.parent;
  const resolved = resolveOptions(
    parent && options.path === undefined ? { ...options, path: parent.path } : options,
  );
  const path = pathFor(device, resolved);
  checkOnDevice(device, resolved, path.path);
  // the WGSL front end, where this system will translate: a path that runs the update as GLSL or
  // JavaScript, or code of yours (checked on every path). WebGPU compute with Ignis's own modules
  // never loads it.
  if (path.path !== 'compute' || hasUserCode(resolved)) await loadFrontEnd();
  const system = new ParticleSystem(
    device,
    resolved,
    path,
    options.modules ? [...options.modules] : null,
  );
  // WebGPU compiles asynchronously: a kernel the browser's compiler refuses (a behavior's WGSL
  // that Ignis's front end let through) is an error here, not a system whose updates do nothing
  try {
    await system.compiled();
  } catch (e) {
    system.destroy();
    throw e;
  }
  return system;
}
