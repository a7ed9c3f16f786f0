/**
 * Render: lit particles — each particle shaded as a small sphere facing the camera by one
 * directional light and an ambient term: `light: { direction, color, ambient }`. The normal at a
 * point of the quad is the sphere's, (u, v, √(1 − u² − v²)) in the camera's right, up and
 * backward axes, turned with the particle's spin (the lit side stays toward the light however the
 * particle turns). Its colour is multiplied by `ambient + color · max(n · l, 0)` (l: towards the
 * light). A custom look and a sprite are lit the same way (a ball's shading over the image), or a
 * sprite by its own normal map (`normalMap`: each pixel's normal instead of the sphere's). With
 * `shadow`, particles receive the scene's shadow map (the light's depth and matrix, a 3×3
 * percentage-closer test: in the vertex stage at a quad's centre, per pixel on a mesh particle): in
 * shadow, the ambient only. Not with
 * the splat (it adds flat discs): `splatBlocker`.
 */
import { ParticleOptionError, checkDepthTexture, finite, object, vector } from '../errors.js';
import type { ParticleLight, ParticleShadow } from '../options.js';
import { defineModule } from './module.js';
import { checkSampledTexture } from './sprite.js';

const KEYS = ['direction', 'color', 'ambient', 'normalMap', 'shadow'];
const SHADOW_KEYS = ['depth', 'matrix', 'bias'];

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
    object('light', l, 'null or { direction, color, ambient, normalMap, shadow }');
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
    const normalMap = given.normalMap ?? null;
    if (normalMap !== null) {
      const n = normalMap as unknown as { kind?: unknown };
      if (!n || typeof n !== 'object' || n.kind !== 'texture')
        throw new ParticleOptionError(
          'light.normalMap',
          normalMap,
          'must be null or a texture of this device',
        );
      const why =
        o.geometry !== null
          ? "is for sprites: mesh particles (geometry) are lit by their mesh's normals"
          : o.look !== null
            ? 'is for sprites: a custom look (look) has no normal map; light it by the sphere'
            : o.texture === null
              ? "needs a sprite (texture): the normal map is laid out as the sprite's frames"
              : null;
      if (why) throw new ParticleOptionError('light.normalMap', normalMap.label, why);
    }
    const resolved: ParticleLight = {
      direction: [x, y, z],
      color: [...color] as unknown as ParticleLight['color'],
      ambient: [...ambient] as unknown as ParticleLight['ambient'],
      normalMap,
      shadow: resolveShadow(given.shadow),
    };
    return { light: resolved };
  },
  /** The normal map a filterable texture of this device; the shadow map a depth texture of it. */
  checkDevice(device, o) {
    if (!o.light) return;
    checkSampledTexture(device, 'light.normalMap', o.light.normalMap);
    if (o.light.shadow) checkDepthTexture(device, o.light.shadow.depth, 'light.shadow.depth');
  },
});

function resolveShadow(given: unknown): ParticleShadow | null {
  if (given === undefined || given === null) return null;
  object('light.shadow', given, 'null or { depth, matrix, bias }');
  const s = given as Record<string, unknown>;
  for (const key of Object.keys(s))
    if (!SHADOW_KEYS.includes(key))
      throw new ParticleOptionError(
        `light.shadow.${key}`,
        s[key],
        `is not a shadow option (they are ${SHADOW_KEYS.join(', ')})`,
      );
  const depth = s['depth'] as { kind?: unknown } | undefined;
  if (!depth || typeof depth !== 'object' || depth.kind !== 'texture')
    throw new ParticleOptionError(
      'light.shadow.depth',
      depth,
      "must be the light's depth texture (a depth format with TEXTURE_BINDING)",
    );
  const m = s['matrix'];
  if (!(Array.isArray(m) || m instanceof Float32Array || m instanceof Float64Array))
    throw new ParticleOptionError(
      'light.shadow.matrix',
      m,
      "must be the light's view-projection: 16 numbers, column-major",
    );
  if (m.length !== 16)
    throw new ParticleOptionError(
      'light.shadow.matrix',
      `${m.length} numbers`,
      "must be the light's view-projection: 16 numbers, column-major",
    );
  for (let i = 0; i < 16; i++) finite(`light.shadow.matrix[${i}]`, m[i]);
  const bias = s['bias'] ?? 0.002;
  finite('light.shadow.bias', bias);
  if ((bias as number) < 0)
    throw new ParticleOptionError('light.shadow.bias', bias, 'must not be negative');
  return {
    depth: depth as unknown as ParticleShadow['depth'],
    matrix: Array.from(m as ArrayLike<number>),
    bias: bias as number,
  };
}
