/**
 * Update: a user-written update in WGSL, `fn behavior(index: u32, p: Particle) -> Particle`,
 * replacing the canonical update modules on every path (docs/particles.md, "Behaviours"). It reads
 * the canonical uniforms (`params.gravity`, …), the attractors' and the bounce's, and its own
 * `uniforms`.
 */
import { ParticleOptionError, finite } from '../errors.js';
import { CANONICAL_UNIFORMS, type ParticleBehavior } from '../options.js';
import type { UniformType, UniformValue } from '../../compute/layout.js';
import { attractorUniforms, attractorValues } from './attractors.js';
import { BOUNCE_UNIFORMS, bounceValues } from './floor.js';
import { defineModule } from './module.js';

/** A behaviour uniform's type: f32 for a number, vecNf for N numbers. */
function uniformType(v: number | readonly number[]): UniformType {
  return Array.isArray(v) ? (`vec${v.length}f` as UniformType) : 'f32';
}

function check(b: unknown): void {
  if (!b || typeof b !== 'object' || typeof (b as ParticleBehavior).code !== 'string')
    throw new ParticleOptionError(
      'behavior',
      b,
      'must be null or { code: WGSL string, uniforms? }',
    );
  const given = (b as ParticleBehavior).reads;
  const reads = given === undefined ? 'own' : given;
  if (reads !== 'own' && reads !== 'all')
    throw new ParticleOptionError('behavior.reads', reads, "must be 'own' or 'all'");
  const given2 = (b as ParticleBehavior).uniforms;
  const u = given2 === undefined ? {} : given2;
  if (!u || typeof u !== 'object' || Array.isArray(u))
    throw new ParticleOptionError('behavior.uniforms', u, 'must be an object of uniforms by name');
  for (const [name, value] of Object.entries(u)) {
    if (!/^[A-Za-z]\w*$/.test(name) || CANONICAL_UNIFORMS.includes(name))
      throw new ParticleOptionError(
        `behavior.uniforms.${name}`,
        value,
        `needs a name that is an identifier and not one of the canonical uniforms (${CANONICAL_UNIFORMS.join(', ')})`,
      );
    if (Array.isArray(value)) {
      if (value.length < 2 || value.length > 4)
        throw new ParticleOptionError(
          `behavior.uniforms.${name}`,
          value,
          'must be a number or 2 to 4 numbers',
        );
      value.forEach((x, i) => finite(`behavior.uniforms.${name}[${i}]`, x));
    } else finite(`behavior.uniforms.${name}`, value);
  }
}

export const behavior = defineModule({
  name: 'behavior',
  stage: 'update',
  summary:
    'your update in WGSL: behavior { code, uniforms?, reads? } (replaces the update modules)',
  keys: ['behavior'],
  present: (o) => o.behavior !== null,
  absent: { behavior: null },
  resolve(o) {
    if (o.behavior !== null) check(o.behavior);
    return { behavior: o.behavior };
  },
  kernel(o) {
    const b = o.behavior as ParticleBehavior;
    const own = Object.entries(b.uniforms ?? {});
    return {
      key: `${b.code}:${own.map(([n, v]) => `${n}=${uniformType(v)}`).join(',')}${b.reads === 'all' ? ':all' : ''}`,
      // the bounce's and the attractors' uniforms stay readable, as in the canonical rule
      uniforms: [
        ...(o.bounce ? BOUNCE_UNIFORMS : []),
        ...attractorUniforms(o),
        ...own.map(([n, v]) => [n, uniformType(v)] as const),
      ],
    };
  },
  values(o) {
    const values: Record<string, UniformValue> = { ...bounceValues(o), ...attractorValues(o) };
    for (const [name, value] of Object.entries(o.behavior?.uniforms ?? {}))
      values[name] = Array.isArray(value) ? [...value] : (value as number);
    return values;
  },
});
