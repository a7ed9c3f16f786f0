// An element-wise integrator with two attributes, written once in the kernel language, and its
// CPU form: the workload of the fallback-equivalence tests.
import { defineKernel, type CpuKernel } from '../../../src/all.js';

export const integrator = defineKernel({
  label: 'integrator',
  attributes: ['pos', 'vel'],
  uniforms: [
    ['gravity', 'vec3f'],
    ['dt', 'f32'],
    ['drag', 'f32'],
  ],
  helpers: `
f32 bounce(f32 y, f32 vy) {
  f32 below = step(y, -1.0);
  return mix(vy, abs(vy) * 0.5, below);
}`,
  body: `
    vec3f v = vel.xyz + params.gravity * params.dt;
    v = v * max(0.0, 1.0 - params.drag * params.dt);
    v.y = bounce(pos.y, v.y);
    vec3f p = pos.xyz + v * params.dt;
    pos = vec4f(p, pos.w + params.dt);
    vel = vec4f(v, select(vel.w, vel.w + 1.0, p.y < 0.0));
  `,
});

export const PARAMS = { gravity: [0, -9.8, 0], dt: 1 / 60, drag: 0.3 };

export const integratorCpu: CpuKernel = (i, s, params) => {
  const f = Math.fround;
  const pos = s.pos as Float32Array;
  const vel = s.vel as Float32Array;
  const g = params.gravity as number[];
  const dt = params.dt as number;
  const drag = params.drag as number;
  const o = 4 * i;
  let vx = f((vel[o] as number) + f((g[0] as number) * dt));
  let vy = f((vel[o + 1] as number) + f((g[1] as number) * dt));
  let vz = f((vel[o + 2] as number) + f((g[2] as number) * dt));
  const k = f(Math.max(0, f(1 - f(drag * dt))));
  vx = f(vx * k);
  vy = f(vy * k);
  vz = f(vz * k);
  if ((pos[o + 1] as number) <= -1) vy = f(Math.abs(vy) * 0.5);
  const px = f((pos[o] as number) + f(vx * dt));
  const py = f((pos[o + 1] as number) + f(vy * dt));
  const pz = f((pos[o + 2] as number) + f(vz * dt));
  pos.set([px, py, pz, f((pos[o + 3] as number) + dt)], o);
  vel.set([vx, vy, vz, py < 0 ? (vel[o + 3] as number) + 1 : (vel[o + 3] as number)], o);
};

export function initialState(count: number): { pos: Float32Array; vel: Float32Array } {
  const pos = new Float32Array(4 * count);
  const vel = new Float32Array(4 * count);
  for (let i = 0; i < count; i++) {
    pos.set([Math.sin(i) * 2, Math.cos(i * 0.7) + 0.5, (i % 17) / 17, 0], 4 * i);
    vel.set([Math.cos(i * 1.3), 2 + (i % 5) * 0.3, Math.sin(i * 0.1), 0], 4 * i);
  }
  return { pos, vel };
}
