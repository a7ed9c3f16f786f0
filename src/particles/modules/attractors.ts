/** Update: points that pull (or push) particles — acceleration strength · d / (|d|² + 0.01)^1.5. */
import { ParticleOptionError, finite, vector } from '../errors.js';
import { MAX_ATTRACTORS, type ParticleOptions } from '../options.js';
import type { UniformType, UniformValue } from '../../compute/layout.js';
import { defineModule } from './module.js';

/** The attractors' uniforms: one vec4f each (position, strength). */
export function attractorUniforms(o: ParticleOptions): Array<[string, UniformType]> {
  return o.attractors.map((_, a) => [`attractor${a}`, 'vec4f'] as [string, UniformType]);
}

export function attractorValues(o: ParticleOptions): Record<string, UniformValue> {
  const values: Record<string, UniformValue> = {};
  o.attractors.forEach((a, i) => (values[`attractor${i}`] = [...a.position, a.strength]));
  return values;
}

export const attractors = defineModule({
  name: 'attractors',
  stage: 'update',
  summary: `up to ${MAX_ATTRACTORS} points pulling (strength > 0) or pushing: attractors [{ position, strength }]`,
  keys: ['attractors'],
  present: (o) => o.behavior === null && o.attractors.length > 0,
  absent: { attractors: [] },
  resolve(o) {
    if (!Array.isArray(o.attractors))
      throw new ParticleOptionError('attractors', o.attractors, 'must be an array');
    if (o.attractors.length > MAX_ATTRACTORS)
      throw new ParticleOptionError(
        'attractors',
        `${o.attractors.length} attractors`,
        `exceeds the maximum of ${MAX_ATTRACTORS}`,
      );
    o.attractors.forEach((a: unknown, i) => {
      if (!a || typeof a !== 'object')
        throw new ParticleOptionError(`attractors[${i}]`, a, 'must be { position, strength }');
      const { position, strength } = a as { position: unknown; strength: unknown };
      vector(`attractors[${i}].position`, position, 3);
      finite(`attractors[${i}].strength`, strength);
    });
    return { attractors: o.attractors };
  },
  kernel: (o) => ({
    key: String(o.attractors.length),
    uniforms: attractorUniforms(o),
    force: o.attractors
      .map((_, a) => `acc = acc + attract(position.xyz, params.attractor${a});`)
      .join('\n    '),
  }),
  values: (o) => attractorValues(o),
  reference: {
    accelerate(own, x, y, z, _time, out) {
      // float64, as the canonical reference always summed forces
      for (const a of own['attractors'] as ParticleOptions['attractors']) {
        const dx = a.position[0] - x;
        const dy = a.position[1] - y;
        const dz = a.position[2] - z;
        const r2 = dx * dx + dy * dy + dz * dz + 0.01;
        const s = a.strength / (r2 * Math.sqrt(r2));
        out[0] = (out[0] as number) + dx * s;
        out[1] = (out[1] as number) + dy * s;
        out[2] = (out[2] as number) + dz * s;
      }
    },
  },
  fastCpu: true,
});
