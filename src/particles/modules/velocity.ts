/**
 * Spawn: each particle's first velocity — a speed in [speedMin, speedMax], up with a horizontal
 * `spread`, or (cone emitter) along a direction within the cone's angle.
 */
import { ParticleOptionError, finite } from '../errors.js';
import { defineModule } from './module.js';

export const velocity = defineModule({
  name: 'velocity',
  stage: 'spawn',
  summary: 'the velocity at birth: speedMin, speedMax, spread (in the cone, with a cone emitter)',
  keys: ['speedMin', 'speedMax', 'spread'],
  present: () => true,
  resolve(o) {
    for (const key of ['spread', 'speedMin', 'speedMax'] as const) finite(key, o[key]);
    if (o.speedMin > o.speedMax)
      throw new ParticleOptionError(
        'speedMin',
        o.speedMin,
        `must not exceed speedMax (${o.speedMax})`,
      );
    return { speedMin: o.speedMin, speedMax: o.speedMax, spread: o.spread };
  },
  kernel: (o) => ({
    key: o.emitter.shape === 'cone' ? 'cone' : 'spread',
    spawn: `f32 speed = params.speedMin + r4 * (params.speedMax - params.speedMin);
    ${
      o.emitter.shape === 'cone'
        ? `f32 coneCos = 1.0 - r3 * (1.0 - params.coneCos);
    f32 coneSin = sqrt(max(0.0, 1.0 - coneCos * coneCos));
    f32 conePhi = 6.2831855 * r5;
    vec3f spawnVel = speed * vec3f(coneSin * cos(conePhi), coneCos, coneSin * sin(conePhi));`
        : 'vec3f spawnVel = vec3f(params.spread * (2.0 * r3 - 1.0), speed, params.spread * (2.0 * r5 - 1.0));'
    }`,
  }),
  fastCpu: true,
});
