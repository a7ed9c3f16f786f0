/**
 * Render: lit particles — each particle shaded as a small sphere facing the camera by one
 * directional light and an ambient term: `light: { direction, color, ambient }`. The normal at a
 * point of the quad is the sphere's, (u, v, √(1 − u² − v²)) in the camera's right, up and
 * backward axes, turned with the particle's spin (the lit side stays toward the light however the
 * particle turns). Its colour is multiplied by `ambient + color · max(n · l, 0)` (l: towards the
 * light). A custom look and a sprite are lit the same way (a ball's shading over the image). Not
 * with the splat (it adds flat discs): `splatBlocker`.
 */
import { ParticleOptionError, object, vector } from '../errors.js';
import type { ParticleLight } from '../options.js';
import { defineModule } from './module.js';

const KEYS = ['direction', 'color', 'ambient'];

export const light = defineModule({
  name: 'light',
  stage: 'render',
  summary:
    'a directional light and ambient on sphere-shaded particles: light { direction, color, ambient }',
  keys: ['light'],
  present: (o) => o.light !== null,
  resolve(o) {
    const l = o.light as unknown;
    if (l === null) return { light: null };
    object('light', l, 'null or { direction, color, ambient }');
    const given = l as Partial<ParticleLight>;
    for (const key of Object.keys(given))
      if (!KEYS.includes(key))
        throw new ParticleOptionError(
          `light.${key}`,
          (given as Record<string, unknown>)[key],
          `is not a light option (they are ${KEYS.join(', ')})`,
        );
    vector('light.direction', given.direction, 3);
    const [x, y, z] = given.direction as readonly [number, number, number];
    if (Math.hypot(x, y, z) === 0)
      throw new ParticleOptionError(
        'light.direction',
        given.direction,
        'must not be the zero vector',
      );
    const color = given.color ?? [1, 1, 1];
    const ambient = given.ambient ?? [0.25, 0.25, 0.25];
    for (const [key, v] of [
      ['color', color],
      ['ambient', ambient],
    ] as const) {
      vector(`light.${key}`, v, 3);
      if (v.some((c) => c < 0))
        throw new ParticleOptionError(`light.${key}`, v, 'must not be negative');
    }
    const resolved: ParticleLight = {
      direction: [x, y, z],
      color: [...color] as unknown as ParticleLight['color'],
      ambient: [...ambient] as unknown as ParticleLight['ambient'],
    };
    return { light: resolved };
  },
});
