/** Update: curl-noise turbulence — acceleration strength · curl(A)(frequency · x, time). */
import { finite } from '../errors.js';
import { defineModule } from './module.js';
import type { ParticleOptions } from '../options.js';

const f = Math.fround;

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

export const turbulence = defineModule({
  name: 'turbulence',
  stage: 'update',
  summary: 'curl-noise turbulence: turbulence { strength, frequency }',
  keys: ['turbulence'],
  present: (o) => o.behavior === null && o.turbulence.strength !== 0,
  absent: { turbulence: { strength: 0, frequency: 1 } },
  resolve(o) {
    finite('turbulence.strength', o.turbulence.strength);
    finite('turbulence.frequency', o.turbulence.frequency);
    return { turbulence: o.turbulence };
  },
  kernel: () => ({
    force:
      'acc = acc + params.turbulence * params.frequency * curlNoise(position.xyz * params.frequency, params.time);',
  }),
  reference: {
    accelerate(own, x, y, z, time, out) {
      const t = own['turbulence'] as ParticleOptions['turbulence'];
      const c = curl(x, y, z, t.frequency, time);
      out[0] = (out[0] as number) + t.strength * c[0];
      out[1] = (out[1] as number) + t.strength * c[1];
      out[2] = (out[2] as number) + t.strength * c[2];
    },
  },
  fastCpu: true,
});
