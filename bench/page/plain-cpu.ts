// The hand-written baseline of the CPU path: the default fountain's rule (cone emitter, gravity,
// drag, floor, respawn of the dead) as the plain JavaScript loop a person would write, in doubles,
// with no float32 emulation and no options object. The CPU path (src/particles/cpu-step.ts) is
// measured against it in the `cpu` suite of the benchmark: what Ignis's exactness costs.
import { DEFAULT_OPTIONS as O } from '../../src/all.js';

function hash(v: number): number {
  const s = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const w = Math.imul(((s >>> ((s >>> 28) + 4)) ^ s) >>> 0, 277803737) >>> 0;
  return ((w >>> 22) ^ w) >>> 0;
}

export function plainStep(n: number, dt: number, pos: Float32Array, vel: Float32Array): void {
  const [gx, gy, gz] = O.gravity;
  const keep = Math.max(0, 1 - O.drag * dt);
  const [ex, ey, ez] = O.emitter.position;
  const span = 1 - Math.cos(O.emitter.angle);
  const base = hash((O.seed ^ hash(n)) >>> 0);
  const count = pos.length / 4;
  for (let i = 0, at = 0; i < count; i++, at += 4) {
    const vx = (vel[at]! + gx * dt) * keep;
    const vy = (vel[at + 1]! + gy * dt) * keep;
    const vz = (vel[at + 2]! + gz * dt) * keep;
    const y = pos[at + 1]! + vy * dt;
    const age = pos[at + 3]! + dt;
    if (age >= vel[at + 3]! || y < O.floorY) {
      const k = (base + Math.imul(i, 8)) >>> 0;
      const cosT = 1 - (hash(k + 3) / 4294967296) * span;
      const sinT = Math.sqrt(Math.max(0, 1 - cosT * cosT));
      const phi = 6.2831855 * (hash(k + 5) / 4294967296);
      const speed = O.speedMin + (hash(k + 4) / 4294967296) * (O.speedMax - O.speedMin);
      pos[at] = ex;
      pos[at + 1] = ey;
      pos[at + 2] = ez;
      pos[at + 3] = 0;
      vel[at] = speed * sinT * Math.cos(phi);
      vel[at + 1] = speed * cosT;
      vel[at + 2] = speed * sinT * Math.sin(phi);
      vel[at + 3] = O.lifeMin + (hash(k + 6) / 4294967296) * (O.lifeMax - O.lifeMin);
      continue;
    }
    pos[at] = pos[at]! + vx * dt;
    pos[at + 1] = y;
    pos[at + 2] = pos[at + 2]! + vz * dt;
    pos[at + 3] = age;
    vel[at] = vx;
    vel[at + 1] = vy;
    vel[at + 2] = vz;
  }
}
