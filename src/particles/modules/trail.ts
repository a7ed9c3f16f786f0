/**
 * Render: trails — every particle keeps its last `length` positions in a ring (trail-history.ts:
 * one copy of the position state per step, on every path) and is drawn with a ribbon through them
 * (ribbon.ts). The module has no part in the update kernel: the history is a copy of what the
 * update wrote, so its reference is the reference's positions, step by step.
 */
import { ParticleOptionError, finite, object, vector } from '../errors.js';
import type { ParticleOptions, ParticleTrail, Vec4 } from '../options.js';
import { defineModule } from './module.js';
import { checkSampledTexture } from './sprite.js';
import type { Texture } from '../../rhi/core/texture.js';

/** The most positions a trail keeps (64 copies of the position state). */
export const MAX_TRAIL_LENGTH = 64;

/**
 * A ribbon's width and colours from the head to the tail, checked under `option` (trail, link),
 * with the defaults from the particles' look: `[size, 0]` wide, the first colour stop fading out.
 */
export function ribbonLook(
  option: string,
  given: {
    width?: readonly number[];
    colors?: readonly (readonly number[])[];
    texture?: unknown;
    inherit?: unknown;
  },
  o: ParticleOptions,
): {
  width: readonly [number, number];
  colors: readonly [Vec4, Vec4];
  texture: Texture | null;
  inherit: boolean;
} {
  const width = given.width ?? ([o.size, 0] as const);
  vector(`${option}.width`, width, 2);
  if ((width[0] as number) < 0 || (width[1] as number) < 0 || width[0]! + width[1]! === 0)
    throw new ParticleOptionError(
      `${option}.width`,
      width,
      'must be two widths (head, tail) of at least 0, not both 0',
    );
  const first = o.colors[0] as Vec4;
  const colors = given.colors ?? ([first, [first[0], first[1], first[2], 0]] as const);
  if (!Array.isArray(colors) || colors.length !== 2)
    throw new ParticleOptionError(
      `${option}.colors`,
      colors,
      'must be two RGBA colours (head, tail)',
    );
  colors.forEach((c, i) => vector(`${option}.colors[${i}]`, c, 4));
  const texture = given.texture ?? null;
  if (
    texture !== null &&
    (typeof texture !== 'object' || (texture as { kind?: unknown }).kind !== 'texture')
  )
    throw new ParticleOptionError(
      `${option}.texture`,
      texture,
      'must be null or a texture of this device',
    );
  const inherit = given.inherit ?? false;
  if (typeof inherit !== 'boolean')
    throw new ParticleOptionError(`${option}.inherit`, inherit, 'must be true or false');
  return {
    width: [width[0] as number, width[1] as number],
    colors: [colors[0] as Vec4, colors[1] as Vec4],
    texture: texture as Texture | null,
    inherit,
  };
}

export const trail = defineModule({
  name: 'trail',
  stage: 'render',
  summary:
    'trails: a ribbon through each particle’s last positions, trail { length, width, colors, texture, inherit, fade }',
  keys: ['trail'],
  present: (o) => o.trail !== null,
  resolve(o) {
    const t = o.trail as unknown;
    if (t === null) return { trail: null };
    object('trail', t, 'null or { length, width, colors, texture, inherit, fade }');
    const given = t as Partial<ParticleTrail>;
    for (const key of Object.keys(given))
      if (!['length', 'width', 'colors', 'texture', 'inherit', 'fade'].includes(key))
        throw new ParticleOptionError(
          `trail.${key}`,
          (given as Record<string, unknown>)[key],
          'is not a trail option (they are length, width, colors, texture, inherit, fade)',
        );
    const length = given.length ?? 16;
    finite('trail.length', length);
    if (!Number.isInteger(length) || length < 2 || length > MAX_TRAIL_LENGTH)
      throw new ParticleOptionError(
        'trail.length',
        length,
        `must be an integer from 2 to ${MAX_TRAIL_LENGTH} (positions kept per particle)`,
      );
    const fade = given.fade ?? 0;
    finite('trail.fade', fade);
    if (fade < 0)
      throw new ParticleOptionError(
        'trail.fade',
        fade,
        'must be seconds ≥ 0 (0: an ended life’s trail does not fade)',
      );
    const resolved: ParticleTrail = { length, ...ribbonLook('trail', given, o), fade };
    return { trail: resolved };
  },
  checkDevice(device, o) {
    checkSampledTexture(device, 'trail.texture', o.trail?.texture ?? null);
  },
});
