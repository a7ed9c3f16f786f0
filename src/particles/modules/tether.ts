/**
 * Update: a tether — each particle is pulled back to where it was born, like a spring:
 * acceleration `strength · (origin − x) − damping · v`. Particles scatter and come home (logos and
 * text that burst apart and re-form, jelly, hair). The birth position is state the module adds: an
 * attribute `origin` (xyz where it spawned), set at every (re)spawn — the example of a module that
 * adds to the state's layout (DEVELOPING.md, "Adding a particle module"). Only given in a module
 * list: `modules: [...particleModules(options), { module: 'tether', strength: 20 }]`.
 */
import { ParticleOptionError, finite } from '../errors.js';
import { defineModule } from './module.js';

const OPTIONS = ['strength', 'damping'];

export const tether = defineModule({
  name: 'tether',
  stage: 'update',
  summary: 'a spring back to where each particle was born: { strength, damping }',
  keys: [],
  present: () => false,
  resolve(_o, own) {
    for (const key of Object.keys(own))
      if (!OPTIONS.includes(key))
        throw new ParticleOptionError(
          `tether.${key}`,
          own[key],
          'is not an option of the tether (strength, damping)',
        );
    const t = { strength: 10, damping: 0, ...own };
    for (const key of OPTIONS) {
      finite(`tether.${key}`, t[key as 'strength']);
      if ((t[key as 'strength'] as number) < 0)
        throw new ParticleOptionError(
          `tether.${key}`,
          t[key as 'strength'],
          'must not be negative',
        );
    }
    return t;
  },
  kernel: () => ({
    uniforms: [['tether', 'vec4f']],
    attributes: [{ name: 'origin', spawn: 'vec4f(spawnPos, 0.0)' }],
    force:
      'acc = acc + (origin.xyz - position.xyz) * params.tether.x - velocity.xyz * params.tether.y;',
  }),
  values: (_o, own) => ({ tether: [own['strength'] as number, own['damping'] as number, 0, 0] }),
  reference: {
    attribute: (_own, _name, position) => [
      position[0] as number,
      position[1] as number,
      position[2] as number,
      0,
    ],
    accelerate(own, x, y, z, _time, out, attribute) {
      const origin = attribute('origin');
      const v = attribute('velocity');
      const s = own['strength'] as number;
      const d = own['damping'] as number;
      out[0] = (out[0] as number) + ((origin[0] as number) - x) * s - (v[0] as number) * d;
      out[1] = (out[1] as number) + ((origin[1] as number) - y) * s - (v[1] as number) * d;
      out[2] = (out[2] as number) + ((origin[2] as number) - z) * s - (v[2] as number) * d;
    },
  },
});
