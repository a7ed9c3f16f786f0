/**
 * A particle module: one thing a particle system does, in one file — its options and their checks,
 * its part of the update kernel (the kernel language of src/compute/kernel.ts, which WebGPU runs
 * as compute, WebGL2 as a fragment ping-pong, and the CPU path translated to JavaScript), and its
 * part of the CPU reference. A system is a stack of modules in three stages (spawn, update,
 * render); modules/index.ts lists them. DEVELOPING.md, "Adding a particle module", has the steps.
 *
 * Modelled on Bevy Hanabi's modifiers (each declares what it needs and writes its code into one
 * stage of one generated shader) and Niagara's module stacks.
 */
import type { Device } from '../../rhi/core/device.js';
import type { UniformType, UniformValue } from '../../compute/layout.js';
import type { ModuleStage, ParticleOptions, ParticlePath } from '../options.js';

/** A module's own options (beyond the flat options it owns), resolved: plain data. */
export type ModuleOptions = Readonly<Record<string, unknown>>;

/**
 * A module's part of the update kernel. The canonical update is written in phases, and each module
 * puts its statements in one: in the order the stack lists the modules within a phase.
 *
 * - `spawn`: statements of `fn spawn(index) -> Particle`, with the randoms `r0`…`r6` in scope;
 *   the spawn modules together declare `spawnPos`, `spawnVel` (vec3f) and `spawnLife` (f32).
 * - `velocity`: statements changing `v` (vec3f, the velocity) before the forces.
 * - `force`: terms of the acceleration: `acc = acc + …;` (`position.xyz`: where the particle is).
 *   The forces' sum is added once, `v = v + acc * params.dt`.
 * - `drag`: statements changing `v` after the forces.
 * - `collide`: statements after the step (`x`: the new position, `v`, `age`, `position`: the old).
 * - `kill`: a condition (bool) under which the particle dies this step.
 * - `event`: statements after the step's outcome is known (`dead`, and `x`, `v` as it ended; with
 *   a continuous system `born`, what a death respawns as): they set `keep` attributes.
 */
export interface KernelPart {
  /** What of the module's options changes the code (a change makes a new kernel). */
  key?: string;
  /** Uniforms it adds, read as `params.<name>` (names must not collide with other modules'). */
  uniforms?: ReadonlyArray<readonly [string, UniformType]>;
  /** Kernel-language functions it calls. */
  helpers?: string;
  spawn?: string;
  velocity?: string;
  force?: string;
  drag?: string;
  collide?: string;
  kill?: string;
  event?: string;
  /** The module reads the scene's depth (`ignisSceneDepth`). */
  sceneDepth?: boolean;
  /**
   * State it adds: one vec4f per particle each, beside position and velocity (the state's layout
   * is the canonical two plus these). In the update it is a variable of its name (read it, assign
   * it); `spawn` is its value at every (re)spawn, a vec4f expression with `spawnPos`, `spawnVel`
   * and `spawnLife` in scope. Names must not collide with other modules' (the door checks).
   */
  attributes?: ReadonlyArray<{
    readonly name: string;
    readonly spawn: string;
    /** Not reset at a death: the `event` phase writes it every step (an event record). */
    readonly keep?: boolean;
    /**
     * Set at a (re)spawn only: a death and the sleep after it keep it (a sub-emitter's tint, which
     * a trail still reads after its particle is gone).
     */
    readonly persist?: boolean;
  }>;
  /** Attributes of another runner it reads with `ignisSource(j)` (a sub-emitter's parent). */
  source?: readonly string[];
}

/** One particle in a step of the reference, float32 values (every operation rounded with fround). */
export interface ReferenceParticle {
  /** Where it was when the step began. */
  x0: number;
  y0: number;
  z0: number;
  /** Where it goes (after the integration; the collide phase may change it). */
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  vz: number;
  age: number;
  life: number;
  /** Set by a collide part that bounced it this step (the events module's 'collision'). */
  collided?: boolean;
}

/** A spawn in the reference: the eight randoms `r`, and what the spawn modules write. */
export interface ReferenceSpawn {
  readonly r: readonly number[];
  /** The slot being spawned. */
  readonly index: number;
  /** A sub-emitter's parent's arrays (the reference's `source`), when there is one. */
  readonly source?: Readonly<Record<string, Float32Array>>;
  px: number;
  py: number;
  pz: number;
  vx: number;
  vy: number;
  vz: number;
  life: number;
}

/**
 * The CPU reference's part of a module (reference.ts composes them, phase by phase as the kernel;
 * float32 emulated with Math.fround, float64 where the reference sums forces). The reference is
 * written by hand, apart from the kernel, so that the GPU paths have something to be checked by.
 */
export interface ReferencePart {
  /** Spawn modules: their part of a spawn (position, velocity, life) from the randoms. */
  spawn?(o: ParticleOptions, own: ModuleOptions, s: ReferenceSpawn): void;
  /** The velocity phase (before the forces). */
  velocity?(o: ParticleOptions, own: ModuleOptions, p: ReferenceParticle, dt: number): void;
  /**
   * Adds this module's acceleration at (x, y, z) at `time` to `out` (float64); `attribute(name)`:
   * this particle's value, as the step starts, of `position`, `velocity` or an attribute a module
   * added (4 numbers).
   */
  accelerate?(
    own: ModuleOptions,
    x: number,
    y: number,
    z: number,
    time: number,
    out: Float64Array,
    attribute: (name: string) => ArrayLike<number>,
  ): void;
  /** The drag phase (after the forces). */
  drag?(o: ParticleOptions, own: ModuleOptions, p: ReferenceParticle, dt: number): void;
  /** Once a step: what `collide` needs (a camera's matrices …). */
  prepare?(o: ParticleOptions, own: ModuleOptions): unknown;
  /** The collide phase (after the integration). */
  collide?(o: ParticleOptions, own: ModuleOptions, p: ReferenceParticle, prepared: unknown): void;
  /** Whether the particle dies this step (besides its age reaching its life). */
  kill?(o: ParticleOptions, own: ModuleOptions, p: ReferenceParticle): boolean;
  /**
   * The `event` phase: the values of this module's `keep` attributes after the step. `p` is the
   * particle as the step left it (before a death's respawn), `born` the slot's new position and
   * velocity when it was respawned (continuous systems), else null.
   */
  event?(
    o: ParticleOptions,
    own: ModuleOptions,
    p: ReferenceParticle,
    dead: boolean,
    born: { position: ArrayLike<number>; velocity: ArrayLike<number> } | null,
  ): Record<string, number[]>;
  /**
   * The value of an attribute this module adds, at a (re)spawn, from the spawned position and
   * velocity; `spawn`: the slot and (a sub-emitter's) its parent's arrays, when a spawn made it.
   */
  attribute?(
    own: ModuleOptions,
    name: string,
    position: ArrayLike<number>,
    velocity: ArrayLike<number>,
    spawn?: { readonly index: number; readonly source?: Readonly<Record<string, Float32Array>> },
  ): number[];
}

/** One module's definition. */
export interface ParticleModuleDef {
  readonly name: string;
  readonly stage: ModuleStage;
  /** What it does, in a line (shown in `ps.modules` docs and errors). */
  readonly summary: string;
  /** The flat options (keys of ParticleOptions) it owns: its options when the stack is made from them. */
  readonly keys: ReadonlyArray<keyof ParticleOptions>;
  /** Whether flat options make it part of the stack. */
  present(o: ParticleOptions): boolean;
  /**
   * Its flat options' values when a module list leaves it out: an update module is then off (these
   * values turn it off); spawn and render modules take DEFAULT_OPTIONS' values (undefined here).
   */
  readonly absent?: Partial<ParticleOptions>;
  /**
   * Checks its options and returns its own ones completed with their defaults: `o` holds every
   * flat option merged over the defaults, `own` what was given beside `module` in a module list
   * (empty when made from flat options). Throws ParticleOptionError naming the option.
   */
  resolve(o: ParticleOptions, own: ModuleOptions): ModuleOptions;
  /** Checks against the device and the path the system runs on (textures of this device …). */
  checkDevice?(device: Device, o: ParticleOptions, path: ParticlePath): void;
  /** Its part of the update kernel (spawn and update modules). */
  kernel?(o: ParticleOptions, own: ModuleOptions): KernelPart;
  /** Its uniform values for a step (read every step: a camera, a force that changes). */
  values?(o: ParticleOptions, own: ModuleOptions): Record<string, UniformValue>;
  /** Its part of the CPU reference. */
  readonly reference?: ReferencePart;
  /** The CPU path's loop (cpu-step.ts) implements it; a stack with any other module runs the kernel's JavaScript translation. */
  readonly fastCpu?: boolean;
}

/** Defines a module (a typed identity: the definition is the value). */
export function defineModule(def: ParticleModuleDef): ParticleModuleDef {
  return def;
}
