/**
 * The canonical update rule in TypeScript, emulating float32 (every operation rounded with
 * Math.fround, u32 arithmetic wrapping): the oracle the GPU paths are checked against, and the
 * update of the CPU path. See docs/particles.md for the rule itself.
 */
import type { EmitRange, ParticleOptions } from './options.js';
import { emits } from './emission.js';
import { moduleDef, type ModuleOptions, type ReferencePart } from './modules/index.js';
import { collide, collisionFrame, type CollisionFrame } from './collision.js';

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

/** Writes spawn(i, n) into pos/vel at 4i; returns r7 (used for the initial age at step 0). */
export function spawn(
  o: ParticleOptions,
  base: number,
  i: number,
  pos: Float32Array,
  vel: Float32Array,
): number {
  const k = (base + Math.imul(i, 8)) >>> 0;
  const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => rand((k + j) >>> 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const e = o.emitter;
  const [ex, ey, ez] = e.position.map(f) as [number, number, number];
  const radius = f(e.radius);
  let px = ex;
  let py = ey;
  let pz = ez;
  if (e.shape === 'box') {
    px = f(ex + f(radius * f(f(2 * r[0]) - 1)));
    py = f(ey + f(radius * f(f(2 * r[1]) - 1)));
    pz = f(ez + f(radius * f(f(2 * r[2]) - 1)));
  } else if (e.shape === 'sphere') {
    const cosT = f(f(2 * r[0]) - 1);
    const sinT = f(Math.sqrt(f(Math.max(0, f(1 - f(cosT * cosT))))));
    const phi = f(f(6.2831855 * r[1]));
    const dist = f(radius * f(Math.cbrt(r[2])));
    px = f(ex + f(dist * f(sinT * f(Math.cos(phi)))));
    py = f(ey + f(dist * cosT));
    pz = f(ez + f(dist * f(sinT * f(Math.sin(phi)))));
  }
  const speed = f(f(o.speedMin) + f(r[4] * f(f(o.speedMax) - f(o.speedMin))));
  let vx: number;
  let vy: number;
  let vz: number;
  if (e.shape === 'cone') {
    const cosT = f(1 - f(r[3] * f(1 - f(Math.cos(e.angle)))));
    const sinT = f(Math.sqrt(f(Math.max(0, f(1 - f(cosT * cosT))))));
    const phi = f(6.2831855 * r[5]);
    vx = f(speed * f(sinT * f(Math.cos(phi))));
    vy = f(speed * cosT);
    vz = f(speed * f(sinT * f(Math.sin(phi))));
  } else {
    vx = f(f(o.spread) * f(f(2 * r[3]) - 1));
    vy = speed;
    vz = f(f(o.spread) * f(f(2 * r[5]) - 1));
  }
  const life = f(f(o.lifeMin) + f(r[6] * f(f(o.lifeMax) - f(o.lifeMin))));
  pos.set([px, py, pz, 0], 4 * i);
  vel.set([vx, vy, vz, life], 4 * i);
  return r[7];
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
type AddedAttribute = {
  name: string;
  spawn: (position: ArrayLike<number>, velocity: ArrayLike<number>) => number[];
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
    const spawnOf = def?.reference?.spawn;
    return (def?.kernel?.(o, m.options).attributes ?? []).map((a) => ({
      name: a.name,
      spawn: (p: ArrayLike<number>, v: ArrayLike<number>) => {
        if (!spawnOf)
          throw new Error(`the reference has no spawn value for ${m.module}'s attribute ${a.name}`);
        return spawnOf(m.options, a.name, p, v);
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
): void {
  if (!attributes) return;
  const p = pos.subarray(4 * i, 4 * i + 4);
  const v = vel.subarray(4 * i, 4 * i + 4);
  for (const a of addedAttributes(o))
    attributes[a.name]?.set(dead ? [0, 0, 0, 0] : a.spawn(p, v).map(f), 4 * i);
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
  if (emits(o)) {
    // emission: every slot dead (life -1) until the schedule emits it
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

/** Curl of the potential A = (sin(fy + cos(fz + t)), sin(fz + cos(fx + t)), sin(fx + cos(fy + t))). */
export function curl(
  x: number,
  y: number,
  z: number,
  fr: number,
  t: number,
): [number, number, number] {
  const ax = fr * x;
  const ay = fr * y;
  const az = fr * z;
  const dAz_dy = Math.cos(ax + Math.cos(ay + t)) * -Math.sin(ay + t) * fr;
  const dAy_dz = fr * Math.cos(az + Math.cos(ax + t));
  const dAx_dz = Math.cos(ay + Math.cos(az + t)) * -Math.sin(az + t) * fr;
  const dAz_dx = fr * Math.cos(ax + Math.cos(ay + t));
  const dAy_dx = Math.cos(az + Math.cos(ax + t)) * -Math.sin(ax + t) * fr;
  const dAx_dy = fr * Math.cos(ay + Math.cos(az + t));
  return [f(dAz_dy - dAy_dz), f(dAx_dz - dAz_dx), f(dAy_dx - dAx_dy)];
}

/**
 * The attractors' and the turbulence's acceleration at (x, y, z) at `time`, into `out` (in doubles:
 * the update rounds it to f32 when it is applied). Shared by the reference and the CPU path loop.
 */
export function accelerate(
  o: ParticleOptions,
  x: number,
  y: number,
  z: number,
  time: number,
  out: Float64Array,
): void {
  let ax = 0;
  let ay = 0;
  let az = 0;
  for (const a of o.attractors) {
    const dx = a.position[0] - x;
    const dy = a.position[1] - y;
    const dz = a.position[2] - z;
    const r2 = dx * dx + dy * dy + dz * dz + 0.01;
    const s = a.strength / (r2 * Math.sqrt(r2));
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  const turbulence = o.turbulence.strength;
  if (turbulence !== 0) {
    const c = curl(x, y, z, o.turbulence.frequency, time);
    ax += turbulence * c[0];
    ay += turbulence * c[1];
    az += turbulence * c[2];
  }
  out[0] = ax;
  out[1] = ay;
  out[2] = az;
}

const FORCES = new WeakMap<
  ParticleOptions,
  Array<{ own: ModuleOptions; accelerate: NonNullable<ReferencePart['accelerate']> }>
>();

/** The accelerations of the stack's modules beyond attractors and turbulence (their reference parts). */
function referenceForces(
  o: ParticleOptions,
): Array<{ own: ModuleOptions; accelerate: NonNullable<ReferencePart['accelerate']> }> {
  let forces = FORCES.get(o);
  if (!forces) {
    forces = [];
    for (const m of o.modules) {
      const add = moduleDef(m.module)?.reference?.accelerate;
      if (add) forces.push({ own: m.options, accelerate: add });
    }
    FORCES.set(o, forces);
  }
  return forces;
}

/** Whether slot i is among the `emit` range's slots (the ring wraps at `capacity`). */
export function isEmitted(emit: EmitRange, capacity: number, i: number): boolean {
  return (i + capacity - emit.start) % capacity < emit.count;
}

/**
 * Step n ≥ 1 of particle i, in place. `emit` (emission only): the step's emitted slots; a particle
 * that dies becomes dead (zeros, life -1) instead of respawning, a dead one stays dead, and an
 * emitted slot is spawned.
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
  collision: CollisionFrame | null = o.collision ? collisionFrame(o.collision) : null,
  /** The attributes the stack's modules add (ParticleState.attributes). */
  attributes?: Record<string, Float32Array>,
): void {
  const at = 4 * i;
  if (emit) {
    if (isEmitted(emit, o.count, i)) {
      spawn(o, base, i, pos, vel);
      setAttributes(o, i, pos, vel, attributes);
      return;
    }
    if ((vel[at + 3] as number) < 0) return;
  }
  dt = f(dt);
  let x = pos[at] as number;
  let y = pos[at + 1] as number;
  let z = pos[at + 2] as number;
  let vx = f((vel[at] as number) + f(f(o.gravity[0]) * dt));
  let vy = f((vel[at + 1] as number) + f(f(o.gravity[1]) * dt));
  let vz = f((vel[at + 2] as number) + f(f(o.gravity[2]) * dt));
  const forces = referenceForces(o);
  if (o.attractors.length > 0 || o.turbulence.strength !== 0 || forces.length > 0) {
    const acc = new Float64Array(3);
    accelerate(o, x, y, z, n * dt, acc);
    const attribute = (name: string): Float32Array =>
      (name === 'position' ? pos : name === 'velocity' ? vel : attributes?.[name])?.subarray(
        at,
        at + 4,
      ) ?? new Float32Array(4);
    for (const { own, accelerate: add } of forces) add(own, x, y, z, n * dt, acc, attribute);
    vx = f(vx + f(f(acc[0] as number) * dt));
    vy = f(vy + f(f(acc[1] as number) * dt));
    vz = f(vz + f(f(acc[2] as number) * dt));
  }
  const k = f(Math.max(0, f(1 - f(f(o.drag) * dt))));
  vx = f(vx * k);
  vy = f(vy * k);
  vz = f(vz * k);
  x = f(x + f(vx * dt));
  y = f(y + f(vy * dt));
  z = f(z + f(vz * dt));
  const age = f((pos[at + 3] as number) + dt);
  if (collision) {
    const s = [x, y, z, vx, vy, vz];
    collide(collision, pos[at] as number, pos[at + 1] as number, pos[at + 2] as number, s);
    [x, y, z, vx, vy, vz] = s as [number, number, number, number, number, number];
  }
  const life = vel[at + 3] as number;
  const floorY = f(o.floorY);
  if (o.bounce && y < floorY) {
    // bounce off the floor: on it, the vertical speed reversed and damped, the rest slowed
    const along = f(1 - o.bounce.friction);
    y = floorY;
    vx = f(vx * along);
    vy = f(-vy * f(o.bounce.restitution));
    vz = f(vz * along);
  }
  if (age >= life || (!o.bounce && y < floorY)) {
    if (emit) {
      pos.set([0, 0, 0, 0], at);
      vel.set([0, 0, 0, -1], at);
      setAttributes(o, i, pos, vel, attributes, true);
    } else {
      spawn(o, base, i, pos, vel);
      setAttributes(o, i, pos, vel, attributes);
    }
    return;
  }
  pos.set([x, y, z, age], at);
  vel.set([vx, vy, vz, life], at);
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
): void {
  const base = stepBase(o.seed, n);
  const range = emits(o) ? (emit ?? { start: 0, count: 0 }) : undefined;
  const collision = o.collision ? collisionFrame(o.collision) : null;
  for (let i = 0; i < o.count; i++)
    stepParticle(
      o,
      n,
      dt,
      base,
      i,
      state.position,
      state.velocity,
      range,
      collision,
      state.attributes,
    );
}
