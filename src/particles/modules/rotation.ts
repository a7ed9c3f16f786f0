/** Render: each quad's angle at birth and its spin, uniform in [min, max] (`rotation`, `angularVelocity`). */
import { ParticleOptionError, vector } from '../errors.js';
import { defineModule } from './module.js';

export const rotation = defineModule({
  name: 'rotation',
  stage: 'render',
  summary: 'the quad turned: rotation [min, max] radians, angularVelocity [min, max] radians/s',
  keys: ['rotation', 'angularVelocity'],
  present: () => true,
  resolve(o) {
    for (const key of ['rotation', 'angularVelocity'] as const) {
      vector(key, o[key], 2);
      if ((o[key][0] as number) > (o[key][1] as number))
        throw new ParticleOptionError(key, o[key], 'must be [min, max] with min ≤ max');
    }
    return { rotation: o.rotation, angularVelocity: o.angularVelocity };
  },
});
