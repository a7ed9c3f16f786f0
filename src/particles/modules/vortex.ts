/**
 * Update: a vortex — particles swirl around an axis through `center`. The acceleration at a point
 * whose offset from the axis is r (perpendicular to it) is
 *
 *     strength · (axis × r) / (|r|² + radius²)  −  pull · r / (|r|² + radius²)
 *
 * (counter-clockwise around `axis` for a positive strength; `pull` > 0 draws particles towards the
 * axis, < 0 flings them out); `radius` softens it near the axis. Only given in a module list:
 * `modules: [...particleModules(options), { module: 'vortex', strength: 4 }]`.
 *
 * The worked example of DEVELOPING.md, "Adding a particle module": this file is all there is to it
 * besides its line in modules/index.ts.
 */
import { ParticleOptionError, finite, vector } from '../errors.js';
import { defineModule, type ModuleOptions } from './module.js';

type V3 = [number, number, number];

export const vortex = defineModule({
  name: 'vortex',
  stage: 'update',
  summary: 'a swirl around an axis: { center, axis, strength, pull, radius }',
  keys: [],
  present: () => false,
  resolve(_o, own) {
    const v = { center: [0, 0, 0], axis: [0, 1, 0], strength: 1, pull: 0, radius: 1, ...own };
    for (const key of Object.keys(own))
      if (!['center', 'axis', 'strength', 'pull', 'radius'].includes(key))
        throw new ParticleOptionError(
          `vortex.${key}`,
          own[key],
          'is not an option of the vortex (center, axis, strength, pull, radius)',
        );
    vector('vortex.center', v.center, 3);
    vector('vortex.axis', v.axis, 3);
    const [ax, ay, az] = v.axis as V3;
    const length = Math.hypot(ax, ay, az);
    if (length === 0)
      throw new ParticleOptionError('vortex.axis', v.axis, 'must not be the zero vector');
    finite('vortex.strength', v.strength);
    finite('vortex.pull', v.pull);
    finite('vortex.radius', v.radius);
    if ((v.radius as number) <= 0)
      throw new ParticleOptionError('vortex.radius', v.radius, 'must be positive');
    return {
      center: v.center,
      axis: [ax / length, ay / length, az / length],
      strength: v.strength,
      pull: v.pull,
      radius: v.radius,
    };
  },
  kernel: () => ({
    uniforms: [
      ['vortexCenter', 'vec4f'],
      ['vortexAxis', 'vec4f'],
      ['vortexPull', 'f32'],
    ],
    helpers: `
vec3f vortexAcceleration(vec3f p) {
    vec3f d = p - params.vortexCenter.xyz;
    vec3f axis = params.vortexAxis.xyz;
    vec3f r = d - axis * dot(d, axis);
    f32 falloff = 1.0 / (dot(r, r) + params.vortexCenter.w);
    return (cross(axis, r) * params.vortexAxis.w - r * params.vortexPull) * falloff;
}
`,
    force: 'acc = acc + vortexAcceleration(position.xyz);',
  }),
  values: (_o, own) => ({
    vortexCenter: [...(own['center'] as V3), (own['radius'] as number) ** 2],
    vortexAxis: [...(own['axis'] as V3), own['strength'] as number],
    vortexPull: own['pull'] as number,
  }),
  reference: {
    accelerate(own: ModuleOptions, x, y, z, _time, out) {
      const [cx, cy, cz] = own['center'] as V3;
      const [ax, ay, az] = own['axis'] as V3;
      const dx = x - cx;
      const dy = y - cy;
      const dz = z - cz;
      const along = dx * ax + dy * ay + dz * az;
      const rx = dx - ax * along;
      const ry = dy - ay * along;
      const rz = dz - az * along;
      const falloff = 1 / (rx * rx + ry * ry + rz * rz + (own['radius'] as number) ** 2);
      const s = own['strength'] as number;
      const pull = own['pull'] as number;
      out[0] = (out[0] as number) + ((ay * rz - az * ry) * s - rx * pull) * falloff;
      out[1] = (out[1] as number) + ((az * rx - ax * rz) * s - ry * pull) * falloff;
      out[2] = (out[2] as number) + ((ax * ry - ay * rx) * s - rz * pull) * falloff;
    },
  },
});
