/** Update: a constant acceleration, `gravity` (m/s²; default 9.8 down). */
import { vector } from '../errors.js';
import { defineModule } from './module.js';

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
  fastCpu: true,
});
