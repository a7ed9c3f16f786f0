/**
 * The canonical update rule in TypeScript, emulating float32 (every operation rounded with
 * Math.fround, u32 arithmetic wrapping): the oracle the GPU paths are checked against, and the
 * update of the CPU path. See docs/particles.md for the rule itself.
 */
import type { EmitRange, ParticleOptions } from './options.js';
import { emits } from './emission.js';
import { startsDead } from './modules/events.js';
import {
  moduleDef,
  stackOf,
  type ModuleOptions,
  type ParticleModuleDef,
  type ReferencePart,
} from './modules/index.js';
import type { ReferenceParticle, ReferenceSpawn } from './modules/module.js';
import type { CollisionFrame } from './collision.js';

const f = Math.fround;

/** PCG hash over u32 (wrapping). */
export function pcg(v: number): number {
  const s = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const w = Math.imul(((s >>> ((s >>> 28) + 4)) ^ s) >>> 0, 277803737) >>> 0;
  return ((w >>> 22) ^ w) >>> 0;
}

/** `f32(pcg(k)) / 2^32`, in [0, 1]. */
export function rand(k: number): number {
  return f(f(pcg(k >>> 0)) / 4294967296);
}

/** The base of particle randoms at step n: `pcg(seed ^ pcg(n))`. */
export function stepBase(seed: number, n: number): number {
  return pcg((seed ^ pcg(n)) >>> 0);
}

/** Writes spawn(i, n) into pos/vel at 4i (the spawn modules' reference parts); returns r7 (used for the initial age at step 0). */
export function spawn(
  o: ParticleOptions,
  base: number,
  i: number,
  pos: Float32Array,
  vel: Float32Array,
  /** A sub-emitter's parent's arrays (stepState's `source`). */
  source?: Readonly<Record<string, Float32Array>>,
): number {
  const k = (base + Math.imul(i, 8)) >>> 0;
  const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => rand((k + j) >>> 0));
  const s: ReferenceSpawn = {
    r,
    index: i,
    ...(source ? { source } : {}),
    px: 0,
    py: 0,
    pz: 0,
    vx: 0,
    vy: 0,
    vz: 0,
    life: 0,
  };
  for (const { def, own } of stackOf(o))
    if (def.stage === 'spawn') def.reference?.spawn?.(o, own, s);
  pos.set([s.px, s.py, s.pz, 0], 4 * i);
  vel.set([s.vx, s.vy, s.vz, s.life], 4 * i);
  return r[7] as number;
}

/** Step 0: every particle is spawn(i, 0) with age r7 · life. */
/** The state of every particle: x y z age | vx vy vz life, 4 floats per particle each. */
export interface ParticleState {
  position: Float32Array;
  velocity: Float32Array;
  /** The state attributes the stack's modules add (4 floats per particle each), by name. */
  attributes?: Record<string, Float32Array>;
}

/** The attributes a stack adds, with their spawn values in the reference (modules' reference parts). */
type SpawnContext = { index: number; source?: Readonly<Record<string, Float32Array>> };
type AddedAttribute = {
  name: string;
  /** Set at a (re)spawn only (module.ts's `persist`): a death and sleep keep it. */
  persist: boolean;
  spawn: (position: ArrayLike<number>, velocity: ArrayLike<number>, at: SpawnContext) => number[];
};
const ADDED = new WeakMap<ParticleOptions, AddedAttribute[]>();

function addedAttributes(o: ParticleOptions): AddedAttribute[] {
  let added = ADDED.get(o);
  if (!added) ADDED.set(o, (added = listAttributes(o)));
  return added;
}

function listAttributes(o: ParticleOptions): AddedAttribute[] {
  return o.modules.flatMap((m) => {
    const def = moduleDef(m.module);
    const spawnOf = def?.reference?.attribute;
    return (def?.kernel?.(o, m.options).attributes ?? []).map((a) => ({
      name: a.name,
      persist: a.persist === true,
      spawn: (p: ArrayLike<number>, v: ArrayLike<number>, at: SpawnContext) => {
        if (!spawnOf)
          throw new Error(`the reference has no spawn value for ${m.module}'s attribute ${a.name}`);
        return spawnOf(m.options, a.name, p, v, at);
      },
    }));
  });
}

/** Slot i's added attributes as at a (re)spawn (from its spawned position and velocity), or zero. */
function setAttributes(
  o: ParticleOptions,
  i: number,
  pos: Float32Array,
  vel: Float32Array,
  attributes: Record<string, Float32Array> | undefined,
  dead = false,
  source?: Readonly<Record<string, Float32Array>>,
): void {
  if (!attributes) return;
  const p = pos.subarray(4 * i, 4 * i + 4);
  const v = vel.subarray(4 * i, 4 * i + 4);
  const at: SpawnContext = source ? { index: i, source } : { index: i };
  for (const a of addedAttributes(o))
    if (!(dead && a.persist))
      attributes[a.name]?.set(dead ? [0, 0, 0, 0] : a.spawn(p, v, at).map(f), 4 * i);
}

/** The reference's initial particle state for resolved options. */
export function createState(o: ParticleOptions): ParticleState {
  const position = new Float32Array(4 * o.count);
  const velocity = new Float32Array(4 * o.count);
  const added = addedAttributes(o);
  const attributes =
    added.length > 0
      ? Object.fromEntries(added.map((a) => [a.name, new Float32Array(4 * o.count)]))
      : undefined;
  const state: ParticleState = attributes
    ? { position, velocity, attributes }
    : { position, velocity };
  if (startsDead(o)) {
    // emission (or a sub-emitter): every slot dead (life -1) until the schedule (or an event) emits it
    for (let i = 0; i < o.count; i++) velocity[4 * i + 3] = -1;
    return state;
  }
  const base = stepBase(o.seed, 0);
  for (let i = 0; i < o.count; i++) {
    const r7 = spawn(o, base, i, position, velocity);
    setAttributes(o, i, position, velocity, attributes);
    position[4 * i + 3] = f(r7 * (velocity[4 * i + 3] as number));
  }
  return state;
}

export { curl } from './modules/turbulence.js';

type Force = { own: ModuleOptions; accelerate: NonNullable<ReferencePart['accelerate']> };
const FORCES = new WeakMap<ParticleOptions, Force[]>();

/** The stack's accelerations (the update modules' `accelerate` parts), in stack order. */
export function referenceForces(o: ParticleOptions): Force[] {
  let forces = FORCES.get(o);
  if (!forces) {
    forces = stackOf(o).flatMap(({ def, own }) =>
      def.reference?.accelerate ? [{ own, accelerate: def.reference.accelerate }] : [],
    );
    FORCES.set(o, forces);
  }
  return forces;
}

const NO_ATTRIBUTE = (): ArrayLike<number> => [0, 0, 0, 0];

/**
 * The sum of the stack's accelerations at (x, y, z) at `time` (float64, into `out`): the
 * attractors' strength · d / (|d|² + 0.01)^1.5, the turbulence's curl, any other module's.
 */
export function accelerate(
  o: ParticleOptions,
  x: number,
  y: number,
  z: number,
  time: number,
  out: Float64Array,
  attribute: (name: string) => ArrayLike<number> = NO_ATTRIBUTE,
  forces: Force[] = referenceForces(o),
): void {
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  for (const force of forces) force.accelerate(force.own, x, y, z, time, out, attribute);
}

/** Whether slot i is among the `emit` range's slots (the ring wraps at `capacity`). */
export function isEmitted(emit: EmitRange, capacity: number, i: number): boolean {
  return (i + capacity - emit.start) % capacity < emit.count;
}

/** What a step of the reference runs: each update module's part and what it prepared for the step. */
interface ReferenceStep {
  readonly parts: ReadonlyArray<{ def: ParticleModuleDef; own: ModuleOptions; prepared: unknown }>;
  readonly forces: Force[];
}

/** The stack's update parts for one step (`prepare` run once: a collision camera's matrices). */
function referenceStep(o: ParticleOptions, collision?: CollisionFrame | null): ReferenceStep {
  const parts = stackOf(o)
    .filter(({ def }) => def.stage === 'update' && def.reference)
    .map(({ def, own }) => ({
      def,
      own,
      prepared:
        def.name === 'collision' && collision !== undefined
          ? collision
          : def.reference?.prepare?.(o, own),
    }));
  return { parts, forces: referenceForces(o) };
}

/**
 * Step n ≥ 1 of particle i, in place: the update modules' reference parts, phase by phase as the
 * kernel (velocity, forces, drag, the step, collide, kill). `emit` (emission only): the step's
 * emitted slots; a particle that dies becomes dead (zeros, life -1) instead of respawning, a dead
 * one stays dead, and an emitted slot is spawned.
 */
export function stepParticle(
  o: ParticleOptions,
  n: number,
  dt: number,
  base: number,
  i: number,
  pos: Float32Array,
  vel: Float32Array,
  emit?: EmitRange,
  /** `collision`: the step's constants (stepState makes them once a step). */
  collision?: CollisionFrame | null,
  /** The attributes the stack's modules add (ParticleState.attributes). */
  attributes?: Record<string, Float32Array>,
): void {
  stepWith(referenceStep(o, collision), o, n, dt, base, i, pos, vel, emit, attributes);
}

/** stepParticle with the step's parts made once (stepState makes them once a step). */
function stepWith(
  step: ReferenceStep,
  o: ParticleOptions,
  n: number,
  dt: number,
  base: number,
  i: number,
  pos: Float32Array,
  vel: Float32Array,
  emit: EmitRange | ((i: number) => boolean) | undefined,
  attributes: Record<string, Float32Array> | undefined,
  source?: Readonly<Record<string, Float32Array>>,
): void {
  const at = 4 * i;
  if (emit) {
    if (typeof emit === 'function' ? emit(i) : isEmitted(emit, o.count, i)) {
      spawn(o, base, i, pos, vel, source);
      setAttributes(o, i, pos, vel, attributes, false, source);
      return;
    }
    if ((vel[at + 3] as number) < 0) {
      // asleep: the kernel zeroes what modules add (an event record of the step it died included)
      if (attributes)
        for (const a of addedAttributes(o)) if (!a.persist) attributes[a.name]?.fill(0, at, at + 4);
      return;
    }
  }
  dt = f(dt);
  const x0 = pos[at] as number;
  const y0 = pos[at + 1] as number;
  const z0 = pos[at + 2] as number;
  const p: ReferenceParticle = {
    x0,
    y0,
    z0,
    x: x0,
    y: y0,
    z: z0,
    vx: vel[at] as number,
    vy: vel[at + 1] as number,
    vz: vel[at + 2] as number,
    age: pos[at + 3] as number,
    life: vel[at + 3] as number,
  };
  for (const { def, own } of step.parts) def.reference?.velocity?.(o, own, p, dt);
  if (step.forces.length > 0) {
    const acc = new Float64Array(3);
    const attribute = (name: string): Float32Array =>
      (name === 'position' ? pos : name === 'velocity' ? vel : attributes?.[name])?.subarray(
        at,
        at + 4,
      ) ?? new Float32Array(4);
    accelerate(o, x0, y0, z0, n * dt, acc, attribute, step.forces);
    p.vx = f(p.vx + f(f(acc[0] as number) * dt));
    p.vy = f(p.vy + f(f(acc[1] as number) * dt));
    p.vz = f(p.vz + f(f(acc[2] as number) * dt));
  }
  for (const { def, own } of step.parts) def.reference?.drag?.(o, own, p, dt);
  p.x = f(x0 + f(p.vx * dt));
  p.y = f(y0 + f(p.vy * dt));
  p.z = f(z0 + f(p.vz * dt));
  p.age = f(p.age + dt);
  for (const { def, own, prepared } of step.parts) def.reference?.collide?.(o, own, p, prepared);
  let dead = p.age >= p.life;
  for (const { def, own } of step.parts) dead ||= def.reference?.kill?.(o, own, p) ?? false;
  if (dead) {
    if (emit) {
      pos.set([0, 0, 0, 0], at);
      vel.set([0, 0, 0, -1], at);
      setAttributes(o, i, pos, vel, attributes, true);
    } else {
      spawn(o, base, i, pos, vel, source);
      setAttributes(o, i, pos, vel, attributes, false, source);
    }
    const born = emit
      ? null
      : { position: pos.subarray(at, at + 4), velocity: vel.subarray(at, at + 4) };
    recordEvents(step, o, p, true, born, attributes, at);
    return;
  }
  pos.set([p.x, p.y, p.z, p.age], at);
  vel.set([p.vx, p.vy, p.vz, p.life], at);
  recordEvents(step, o, p, false, null, attributes, at);
}

/** The event phase: the modules' records of the step (the `events` module's), after its outcome. */
function recordEvents(
  step: ReferenceStep,
  o: ParticleOptions,
  p: ReferenceParticle,
  dead: boolean,
  born: { position: Float32Array; velocity: Float32Array } | null,
  attributes: Record<string, Float32Array> | undefined,
  at: number,
): void {
  for (const { def, own } of step.parts) {
    const records = def.reference?.event?.(o, own, p, dead, born);
    if (records)
      for (const [name, value] of Object.entries(records)) attributes?.[name]?.set(value, at);
  }
}

/**
 * Advances a whole state by one step (step index n ≥ 1). With emission (`emitRate` or `bursts`),
 * `emit` is the step's slots (an `EmissionSchedule`'s `advance`); none emitted when left out.
 */
export function stepState(
  o: ParticleOptions,
  n: number,
  dt: number,
  state: ParticleState,
  emit?: EmitRange,
  /**
   * A sub-emitter's parent's state after its own step n (its `attributes`: eventPosition,
   * eventVelocity): a child slot is born where its parent raised an event.
   */
  source?: Readonly<Record<string, Float32Array>>,
): void {
  const base = stepBase(o.seed, n);
  const sub = o.subEmitter;
  if (sub && !source?.['eventPosition'])
    throw new Error(
      "stepState of a sub-emitter needs its parent's state after the same step (source)",
    );
  const events = source?.['eventPosition'];
  const range =
    sub && events
      ? (i: number) => (events[4 * Math.floor(i / sub.count) + 3] as number) > 0.5
      : emits(o)
        ? (emit ?? { start: 0, count: 0 })
        : undefined;
  const step = referenceStep(o);
  for (let i = 0; i < o.count; i++)
    stepWith(
      step,
      o,
      n,
      dt,
      base,
      i,
      state.position,
      state.velocity,
      range,
      state.attributes,
      source,
    );
}
