/**
 * The CPU path's update: the canonical rule of reference.ts as one tight loop over the two
 * Float32Arrays. Every option is rounded to f32 once per step instead of once per particle, the
 * hashes a respawn needs are computed only for the particles that die, and nothing is allocated
 * per particle (the reference builds arrays in `spawn` and `pos.set([...])`, which is what made it
 * ~10× slower than a plain loop). The arithmetic is the reference's, operation by operation, so the
 * results are bit-identical to `stepState` (tests/node/particles.test.ts checks every emitter shape,
 * attractors, turbulence and the floor).
 */
import type { EmitRange, ParticleOptions } from './options.js';
import type { ParticleState } from './reference.js';
import { accelerate, pcg, referenceForces, stepBase } from './reference.js';
import { emits } from './emission.js';
import { moduleDef } from './modules/index.js';
import { collide, collisionFrame } from './collision.js';

const f = Math.fround;
const TWO_PI = 6.2831855;

/** `rand(k)` of reference.ts, inlined: `f32(pcg(k)) / 2^32`. */
function rand(k: number): number {
  return f(f(pcg(k >>> 0)) / 4294967296);
}

/** A respawn with every option already rounded: writes spawn(i, base) into the arrays. */
function spawner(
  o: ParticleOptions,
): (base: number, i: number, pos: Float32Array, vel: Float32Array) => void {
  const e = o.emitter;
  const ex = f(e.position[0]);
  const ey = f(e.position[1]);
  const ez = f(e.position[2]);
  const radius = f(e.radius);
  const speedMin = f(o.speedMin);
  const speedRange = f(f(o.speedMax) - speedMin);
  const lifeMin = f(o.lifeMin);
  const lifeRange = f(f(o.lifeMax) - lifeMin);
  const spread = f(o.spread);
  const coneSpan = f(1 - f(Math.cos(e.angle)));
  const shape = e.shape;
  return (base, i, pos, vel) => {
    const k = (base + Math.imul(i, 8)) >>> 0;
    let px = ex;
    let py = ey;
    let pz = ez;
    if (shape === 'box') {
      px = f(ex + f(radius * f(f(2 * rand(k)) - 1)));
      py = f(ey + f(radius * f(f(2 * rand(k + 1)) - 1)));
      pz = f(ez + f(radius * f(f(2 * rand(k + 2)) - 1)));
    } else if (shape === 'sphere') {
      const cosT = f(f(2 * rand(k)) - 1);
      const sinT = f(Math.sqrt(f(Math.max(0, f(1 - f(cosT * cosT))))));
      const phi = f(f(TWO_PI * rand(k + 1)));
      const dist = f(radius * f(Math.cbrt(rand(k + 2))));
      px = f(ex + f(dist * f(sinT * f(Math.cos(phi)))));
      py = f(ey + f(dist * cosT));
      pz = f(ez + f(dist * f(sinT * f(Math.sin(phi)))));
    }
    const r3 = rand(k + 3);
    const r5 = rand(k + 5);
    const speed = f(speedMin + f(rand(k + 4) * speedRange));
    const at = 4 * i;
    if (shape === 'cone') {
      const cosT = f(1 - f(r3 * coneSpan));
      const sinT = f(Math.sqrt(f(Math.max(0, f(1 - f(cosT * cosT))))));
      const phi = f(TWO_PI * r5);
      vel[at] = f(speed * f(sinT * f(Math.cos(phi))));
      vel[at + 1] = f(speed * cosT);
      vel[at + 2] = f(speed * f(sinT * f(Math.sin(phi))));
    } else {
      vel[at] = f(spread * f(f(2 * r3) - 1));
      vel[at + 1] = speed;
      vel[at + 2] = f(spread * f(f(2 * r5) - 1));
    }
    vel[at + 3] = f(lifeMin + f(rand(k + 6) * lifeRange));
    pos[at] = px;
    pos[at + 1] = py;
    pos[at + 2] = pz;
    pos[at + 3] = 0;
  };
}

const ACCELERATION = new Float64Array(3);
/** `collision`: one particle's stepped position and velocity, collided in place. */
const COLLIDED = [0, 0, 0, 0, 0, 0];

/**
 * Whether this loop runs a stack: every module one it implements (`fastCpu`), and the canonical
 * update's gravity, drag and floor in it. Any other stack runs the kernel's JavaScript translation.
 */
export function fastCpuRuns(o: ParticleOptions): boolean {
  const names = new Set(o.modules.map((m) => m.module));
  return (
    o.modules.every((m) => m.stage === 'render' || moduleDef(m.module)?.fastCpu === true) &&
    names.has('gravity') &&
    names.has('drag') &&
    names.has('floor')
  );
}

/** Advances `state` by step n ≥ 1 of `dt` seconds: bit-identical to reference.ts `stepState`. */
export function stepStateFast(
  o: ParticleOptions,
  n: number,
  dt: number,
  state: ParticleState,
  emit?: EmitRange,
): void {
  const emission = emits(o);
  const emitStart = emit?.start ?? 0;
  const emitCount = emission ? (emit?.count ?? 0) : 0;
  const capacity = o.count;
  const pos = state.position;
  const vel = state.velocity;
  const base = stepBase(o.seed, n);
  const spawn = spawner(o);
  dt = f(dt);
  const gx = f(f(o.gravity[0]) * dt);
  const gy = f(f(o.gravity[1]) * dt);
  const gz = f(f(o.gravity[2]) * dt);
  const keep = f(Math.max(0, f(1 - f(f(o.drag) * dt))));
  const floorY = f(o.floorY);
  const bounce = o.bounce !== null;
  const along = f(1 - (o.bounce?.friction ?? 0));
  const restitution = f(o.bounce?.restitution ?? 0);
  const forceList = referenceForces(o);
  const forces = forceList.length > 0;
  const collision = o.collision ? collisionFrame(o.collision) : null;
  const time = n * dt;
  const acc = ACCELERATION;
  for (let i = 0, at = 0; i < o.count; i++, at += 4) {
    if (emission) {
      if ((i + capacity - emitStart) % capacity < emitCount) {
        spawn(base, i, pos, vel);
        continue;
      }
      if ((vel[at + 3] as number) < 0) continue;
    }
    let x = pos[at] as number;
    let y = pos[at + 1] as number;
    let z = pos[at + 2] as number;
    let vx = f((vel[at] as number) + gx);
    let vy = f((vel[at + 1] as number) + gy);
    let vz = f((vel[at + 2] as number) + gz);
    if (forces) {
      // kept out of the loop body, so the common case (no forces) stays a small loop
      accelerate(o, x, y, z, time, acc, undefined, forceList);
      vx = f(vx + f(f(acc[0] as number) * dt));
      vy = f(vy + f(f(acc[1] as number) * dt));
      vz = f(vz + f(f(acc[2] as number) * dt));
    }
    vx = f(vx * keep);
    vy = f(vy * keep);
    vz = f(vz * keep);
    x = f(x + f(vx * dt));
    y = f(y + f(vy * dt));
    z = f(z + f(vz * dt));
    const age = f((pos[at + 3] as number) + dt);
    if (collision) {
      const s = COLLIDED;
      s[0] = x;
      s[1] = y;
      s[2] = z;
      s[3] = vx;
      s[4] = vy;
      s[5] = vz;
      collide(collision, pos[at] as number, pos[at + 1] as number, pos[at + 2] as number, s);
      x = s[0]!;
      y = s[1]!;
      z = s[2]!;
      vx = s[3]!;
      vy = s[4]!;
      vz = s[5]!;
    }
    if (bounce && y < floorY) {
      y = floorY;
      vx = f(vx * along);
      vy = f(-vy * restitution);
      vz = f(vz * along);
    }
    if (age >= (vel[at + 3] as number) || (!bounce && y < floorY)) {
      if (emission) {
        pos[at] = pos[at + 1] = pos[at + 2] = pos[at + 3] = 0;
        vel[at] = vel[at + 1] = vel[at + 2] = 0;
        vel[at + 3] = -1;
      } else spawn(base, i, pos, vel);
      continue;
    }
    pos[at] = x;
    pos[at + 1] = y;
    pos[at + 2] = z;
    pos[at + 3] = age;
    vel[at] = vx;
    vel[at + 1] = vy;
    vel[at + 2] = vz;
  }
}
