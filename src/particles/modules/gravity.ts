/** Update: a constant acceleration, `gravity` (m/s²; default 9.8 down). */
import { vector } from '../errors.js';
import { defineModule } from './module.js';

const f = Math.fround;

export const gravity = defineModule({
  name: 'gravity',
  stage: 'update',
  summary: 'a constant acceleration: gravity [x, y, z]',
  keys: ['gravity'],
  present: (o) => o.behavior === null,
  absent: { gravity: [0, 0, 0] },
  resolve(o) {
    vector('gravity', o.gravity, 3);
    return { gravity: o.gravity };
  },
  kernel: () => ({ velocity: 'v = v + params.gravity * params.dt;' }),
  reference: {
    velocity(o, _own, p, dt) {
      p.vx = f(p.vx + f(f(o.gravity[0]) * dt));
      p.vy = f(p.vy + f(f(o.gravity[1]) * dt));
      p.vz = f(p.vz + f(f(o.gravity[2]) * dt));
    },
  },
  fastCpu: true,
});
