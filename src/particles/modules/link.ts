/**
 * Render: a linked ribbon — one camera-facing strip through the living particles in the order they
 * were born (Niagara's ribbon renderer with the emitter as its ribbon id): an emitter moved every
 * frame draws a swoosh, a beam, a ribbon of light. It needs emission over time, whose ring of slots
 * is the birth order (emission.ts); ribbon.ts draws it from the state itself, so it works on every
 * path and in both raster modes. A dead particle breaks the ribbon.
 */
import { ParticleOptionError, object } from '../errors.js';
import type { ParticleLink } from '../options.js';
import { emits } from '../emission.js';
import { defineModule } from './module.js';
import { ribbonLook } from './trail.js';
import { checkSampledTexture } from './sprite.js';

export const link = defineModule({
  name: 'link',
  stage: 'render',
  summary:
    'one ribbon through the living particles in birth order: link { width, colors, texture }',
  keys: ['link'],
  present: (o) => o.link !== null,
  resolve(o) {
    const l = o.link as unknown;
    if (l === null) return { link: null };
    object('link', l, 'null or { width, colors, texture }');
    const given = l as Partial<ParticleLink>;
    for (const key of Object.keys(given))
      if (!['width', 'colors', 'texture', 'inherit'].includes(key))
        throw new ParticleOptionError(
          `link.${key}`,
          (given as Record<string, unknown>)[key],
          'is not a link option (they are width, colors, texture, inherit)',
        );
    if (!emits(o))
      throw new ParticleOptionError(
        'link',
        'a continuous system',
        'links particles in the order they were born: give the system emitRate or bursts',
      );
    const resolved: ParticleLink = ribbonLook('link', given, o);
    return { link: resolved };
  },
  checkDevice(device, o) {
    checkSampledTexture(device, 'link.texture', o.link?.texture ?? null);
  },
});
