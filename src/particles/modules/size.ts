/** Render: size in world units, times `sizeOverLife[0]` at birth and `[1]` at death (linear). */
import { ParticleOptionError, finite, vector } from '../errors.js';
import { defineModule } from './module.js';

export const size = defineModule({
  name: 'size',
  stage: 'render',
  summary: 'size over life: size, sizeOverLife [birth, death]',
  keys: ['size', 'sizeOverLife'],
  present: () => true,
  resolve(o) {
    finite('size', o.size);
    if (o.size <= 0) throw new ParticleOptionError('size', o.size, 'must be positive');
    vector('sizeOverLife', o.sizeOverLife, 2);
    return { size: o.size, sizeOverLife: o.sizeOverLife };
  },
});
