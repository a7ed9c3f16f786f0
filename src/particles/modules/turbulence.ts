/** Update: curl-noise turbulence — acceleration strength · curl(A)(frequency · x, time). */
import { finite } from '../errors.js';
import { defineModule } from './module.js';

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
  fastCpu: true,
});
