/** Render: colour over life — four RGBA stops at increasing life fractions (`colors`, `colorStops`). */
import { ParticleOptionError, vector } from '../errors.js';
import { defineModule } from './module.js';

export const color = defineModule({
  name: 'color',
  stage: 'render',
  summary: 'colour over life: colors (four RGBA stops) at colorStops',
  keys: ['colors', 'colorStops'],
  present: () => true,
  resolve(o) {
    vector('colorStops', o.colorStops, 4);
    if (!Array.isArray(o.colors) || o.colors.length !== 4)
      throw new ParticleOptionError('colors', o.colors, 'must be four RGBA stops');
    o.colors.forEach((c, i) => vector(`colors[${i}]`, c, 4));
    for (let i = 1; i < 4; i++) {
      if ((o.colorStops[i] as number) < (o.colorStops[i - 1] as number))
        throw new ParticleOptionError('colorStops', o.colorStops, 'must be increasing');
    }
    return { colors: o.colors, colorStops: o.colorStops };
  },
});
