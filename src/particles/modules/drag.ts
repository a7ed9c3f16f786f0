/** Update: air resistance — the velocity times max(0, 1 − drag · dt) each step. */
import { ParticleOptionError, finite } from '../errors.js';
import { defineModule } from './module.js';

const f = Math.fround;

export const drag = defineModule({
  name: 'drag',
  stage: 'update',
  summary: 'air resistance: the velocity times max(0, 1 − drag·dt) a step',
  keys: ['drag'],
  present: (o) => o.behavior === null,
  absent: { drag: 0 },
  resolve(o) {
    finite('drag', o.drag);
    if (o.drag < 0) throw new ParticleOptionError('drag', o.drag, 'must not be negative');
    return { drag: o.drag };
  },
  kernel: () => ({ drag: 'v = v * max(0.0, 1.0 - params.drag * params.dt);' }),
  reference: {
    drag(o, _own, p, dt) {
      const k = f(Math.max(0, f(1 - f(f(o.drag) * dt))));
      p.vx = f(p.vx * k);
      p.vy = f(p.vy * k);
      p.vz = f(p.vz * k);
    },
  },
  fastCpu: true,
});
