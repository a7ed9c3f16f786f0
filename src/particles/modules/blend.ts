/** Render: how particles combine — `additive` or `alpha`, drawn back to front with `sort`. */
import { ParticleOptionError } from '../errors.js';
import { defineModule } from './module.js';

export const blend = defineModule({
  name: 'blend',
  stage: 'render',
  summary: "how particles combine: blending 'additive' | 'alpha', sort (back to front)",
  keys: ['blending', 'sort'],
  present: () => true,
  resolve(o) {
    if (!['additive', 'alpha'].includes(o.blending))
      throw new ParticleOptionError('blending', o.blending, "must be 'additive' or 'alpha'");
    if (typeof o.sort !== 'boolean')
      throw new ParticleOptionError('sort', o.sort, 'must be true or false');
    if (o.sort && o.blending !== 'alpha')
      throw new ParticleOptionError(
        'sort',
        o.sort,
        "orders alpha blending: with blending 'additive' the order does not change the image (set blending: 'alpha', or leave sort off)",
      );
    return { blending: o.blending, sort: o.sort };
  },
});
