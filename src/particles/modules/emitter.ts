/** Spawn: where particles are born — a point, a box, a ball or a cone's apex (`emitter`). */
import { ParticleOptionError, finite, vector } from '../errors.js';
import type { ParticleOptions } from '../options.js';
import { defineModule } from './module.js';

const f = Math.fround;

const SHAPES = ['box', 'point', 'sphere', 'cone'];

/** `spawnPos` from the randoms r0…r2 (r3, r5: the cone's direction, read by the velocity module). */
function spawnPosition(shape: ParticleOptions['emitter']['shape']): string {
  switch (shape) {
    case 'box':
      return 'vec3f spawnPos = params.emitterPosition + params.radius * (2.0 * vec3f(r0, r1, r2) - 1.0);';
    case 'sphere':
      return `f32 sphereCos = 2.0 * r0 - 1.0;
    f32 sphereSin = sqrt(max(0.0, 1.0 - sphereCos * sphereCos));
    f32 spherePhi = 6.2831855 * r1;
    f32 sphereDist = params.radius * pow(r2, 0.33333334);
    vec3f spawnPos = params.emitterPosition + sphereDist * vec3f(sphereSin * cos(spherePhi), sphereCos, sphereSin * sin(spherePhi));`;
    default:
      return 'vec3f spawnPos = params.emitterPosition;';
  }
}

export const emitter = defineModule({
  name: 'emitter',
  stage: 'spawn',
  summary: 'where particles are born: emitter { shape, position, radius, angle }',
  keys: ['emitter'],
  present: () => true,
  resolve(o) {
    const e = o.emitter;
    if (!SHAPES.includes(e.shape))
      throw new ParticleOptionError(
        'emitter.shape',
        e.shape,
        "must be 'box', 'point', 'sphere' or 'cone'",
      );
    vector('emitter.position', e.position, 3);
    for (const key of ['radius', 'angle'] as const) {
      finite(`emitter.${key}`, e[key]);
      if (e[key] < 0)
        throw new ParticleOptionError(`emitter.${key}`, e[key], 'must not be negative');
    }
    return { emitter: e };
  },
  kernel: (o) => ({ key: o.emitter.shape, spawn: spawnPosition(o.emitter.shape) }),
  reference: {
    spawn(o, _own, s) {
      const e = o.emitter;
      const r = s.r as number[];
      const [ex, ey, ez] = e.position.map(f) as [number, number, number];
      const radius = f(e.radius);
      s.px = ex;
      s.py = ey;
      s.pz = ez;
      if (e.shape === 'box') {
        s.px = f(ex + f(radius * f(f(2 * r[0]!) - 1)));
        s.py = f(ey + f(radius * f(f(2 * r[1]!) - 1)));
        s.pz = f(ez + f(radius * f(f(2 * r[2]!) - 1)));
      } else if (e.shape === 'sphere') {
        const cosT = f(f(2 * r[0]!) - 1);
        const sinT = f(Math.sqrt(f(Math.max(0, f(1 - f(cosT * cosT))))));
        const phi = f(f(6.2831855 * r[1]!));
        const dist = f(radius * f(Math.cbrt(r[2]!)));
        s.px = f(ex + f(dist * f(sinT * f(Math.cos(phi)))));
        s.py = f(ey + f(dist * cosT));
        s.pz = f(ez + f(dist * f(sinT * f(Math.sin(phi)))));
      }
    },
  },
  fastCpu: true,
});
