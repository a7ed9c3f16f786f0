/**
 * Spawn: each particle's first velocity — a speed in [speedMin, speedMax], up with a horizontal
 * `spread`, or (cone emitter) along a direction within the cone's angle.
 */
import { ParticleOptionError, finite } from '../errors.js';
import { defineModule } from './module.js';

const f = Math.fround;

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
  reference: {
    spawn(o, _own, s) {
      const r = s.r as number[];
      const speed = f(f(o.speedMin) + f(r[4]! * f(f(o.speedMax) - f(o.speedMin))));
      if (o.emitter.shape === 'cone') {
        const cosT = f(1 - f(r[3]! * f(1 - f(Math.cos(o.emitter.angle)))));
        const sinT = f(Math.sqrt(f(Math.max(0, f(1 - f(cosT * cosT))))));
        const phi = f(6.2831855 * r[5]!);
        s.vx = f(speed * f(sinT * f(Math.cos(phi))));
        s.vy = f(speed * cosT);
        s.vz = f(speed * f(sinT * f(Math.sin(phi))));
      } else {
        s.vx = f(f(o.spread) * f(f(2 * r[3]!) - 1));
        s.vy = speed;
        s.vz = f(f(o.spread) * f(f(2 * r[5]!) - 1));
      }
    },
  },
  fastCpu: true,
});
