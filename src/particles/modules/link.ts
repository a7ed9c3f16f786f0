/**
 * Render: a linked ribbon — one camera-facing strip through the living particles in the order they
 * were born (Niagara's ribbon renderer with the emitter as its ribbon id): an emitter moved every
 * frame draws a swoosh, a beam, a ribbon of light. It needs emission over time, whose ring of slots
 * is the birth order (emission.ts); ribbon.ts draws it from the state itself, so it works on every
 * path and in both raster modes. A dead particle breaks the ribbon. `ribbons` deals the slots to
 * several ribbons (interleaved, or in blocks), Niagara's ribbon id made from the slot.
 */
import { ParticleOptionError, object } from '../errors.js';
import type { ParticleLink } from '../options.js';
import { emits } from '../emission.js';
import { defineModule } from './module.js';
import { ribbonLook } from './trail.js';
import { checkSampledTexture } from './sprite.js';

const KEYS = ['width', 'colors', 'texture', 'inherit', 'ribbons', 'split'];

export const link = defineModule({
  name: 'link',
  stage: 'render',
  summary:
    'ribbons through the living particles in birth order: link { width, colors, texture, ribbons, split }',
  keys: ['link'],
  present: (o) => o.link !== null,
  resolve(o) {
    const l = o.link as unknown;
    if (l === null) return { link: null };
    object('link', l, 'null or { width, colors, texture }');
    const given = l as Partial<ParticleLink>;
    for (const key of Object.keys(given))
      if (!KEYS.includes(key))
        throw new ParticleOptionError(
          `link.${key}`,
          (given as Record<string, unknown>)[key],
          `is not a link option (they are ${KEYS.join(', ')})`,
        );
    if (!emits(o))
      throw new ParticleOptionError(
        'link',
        'a continuous system',
        'links particles in the order they were born: give the system emitRate or bursts',
      );
    const ribbons = given.ribbons ?? 1;
    if (!Number.isInteger(ribbons) || ribbons < 1 || o.count % ribbons !== 0)
      throw new ParticleOptionError(
        'link.ribbons',
        ribbons,
        `must be a whole number of at least 1 that divides the system's count (${o.count})`,
      );
    const split = given.split ?? 'interleaved';
    if (split !== 'interleaved' && split !== 'blocks')
      throw new ParticleOptionError('link.split', split, "must be 'interleaved' or 'blocks'");
    if (o.count / ribbons < 2)
      throw new ParticleOptionError(
        'link.ribbons',
        ribbons,
        `leaves each ribbon ${o.count / ribbons} of the system's ${o.count} slots: a ribbon joins at least two`,
      );
    const resolved: ParticleLink = { ...ribbonLook('link', given, o), ribbons, split };
    return { link: resolved };
  },
  checkDevice(device, o) {
    checkSampledTexture(device, 'link.texture', o.link?.texture ?? null);
  },
});
