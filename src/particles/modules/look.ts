/** Render: your own look in WGSL, `fn look(p: ParticleFragment) -> vec4f` (../look.ts compiles it). */
import { ParticleOptionError } from '../errors.js';
import { defineModule } from './module.js';

export const look = defineModule({
  name: 'look',
  stage: 'render',
  summary: 'your fragment colour in WGSL: look { code }',
  keys: ['look'],
  present: (o) => o.look !== null,
  resolve(o) {
    const l = o.look as unknown;
    if (l !== null) {
      if (!l || typeof l !== 'object' || typeof (l as { code?: unknown }).code !== 'string')
        throw new ParticleOptionError('look', l, 'must be null or { code: WGSL defining look(p) }');
      if (o.texture !== null)
        throw new ParticleOptionError(
          'look',
          '(its WGSL)',
          'and texture both set the look: give one (a look may draw anything a texture would)',
        );
    }
    return { look: o.look };
  },
});
