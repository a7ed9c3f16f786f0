/** Spawn: each particle's life in seconds, uniform in [lifeMin, lifeMax]. */
import { ParticleOptionError, finite } from '../errors.js';
import { defineModule } from './module.js';

const f = Math.fround;

export const lifetime = defineModule({
  name: 'lifetime',
  stage: 'spawn',
  summary: 'the life at birth: lifeMin, lifeMax seconds',
  keys: ['lifeMin', 'lifeMax'],
  present: () => true,
  resolve(o) {
    finite('lifeMin', o.lifeMin);
    finite('lifeMax', o.lifeMax);
    if (o.lifeMin <= 0) throw new ParticleOptionError('lifeMin', o.lifeMin, 'must be positive');
    if (o.lifeMin > o.lifeMax)
      throw new ParticleOptionError('lifeMin', o.lifeMin, `must not exceed lifeMax (${o.lifeMax})`);
    return { lifeMin: o.lifeMin, lifeMax: o.lifeMax };
  },
  kernel: () => ({
    spawn: 'f32 spawnLife = params.lifeMin + r6 * (params.lifeMax - params.lifeMin);',
  }),
  reference: {
    spawn(o, _own, s) {
      s.life = f(f(o.lifeMin) + f(s.r[6]! * f(f(o.lifeMax) - f(o.lifeMin))));
    },
  },
  fastCpu: true,
});
