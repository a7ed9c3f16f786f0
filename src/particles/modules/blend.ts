/**
 * Render: how particles combine — `additive` or `alpha`, drawn back to front with `sort`, and
 * whether the target's alpha is blended too or kept (`targetAlpha`).
 */
import { ParticleOptionError } from '../errors.js';
import { defineModule } from './module.js';

export const blend = defineModule({
  name: 'blend',
  stage: 'render',
  summary:
    "how particles combine: blending 'additive' | 'alpha', sort (back to front), targetAlpha 'blend' | 'keep'",
  keys: ['blending', 'sort', 'targetAlpha'],
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
    if (!['blend', 'keep'].includes(o.targetAlpha))
      throw new ParticleOptionError(
        'targetAlpha',
        o.targetAlpha,
        "must be 'blend' (the target's alpha blended as the colour is) or 'keep' (left as it is)",
      );
    return { blending: o.blending, sort: o.sort, targetAlpha: o.targetAlpha };
  },
});
