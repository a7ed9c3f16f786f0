/**
 * Update: the floor at `floorY` — particles that fall below it die, or with `bounce` bounce: the
 * vertical speed reversed × restitution, the horizontal × (1 − friction).
 */
import { ParticleOptionError, finite } from '../errors.js';
import type { ParticleOptions } from '../options.js';
import type { UniformType, UniformValue } from '../../compute/layout.js';
import { defineModule } from './module.js';

const f = Math.fround;

/** `bounce`'s uniforms (also given to a behaviour, which may read them). */
export const BOUNCE_UNIFORMS: ReadonlyArray<readonly [string, UniformType]> = [
  ['restitution', 'f32'],
  ['keepAlong', 'f32'],
];

/** No uniforms (a floor that kills): one shared object, not one a step. */
const NONE: Readonly<Record<string, UniformValue>> = Object.freeze({});

export function bounceValues(o: ParticleOptions): Readonly<Record<string, UniformValue>> {
  return o.bounce ? { restitution: o.bounce.restitution, keepAlong: 1 - o.bounce.friction } : NONE;
}

export const floor = defineModule({
  name: 'floor',
  stage: 'update',
  summary: 'a floor at floorY: particles below it die, or bounce { restitution, friction }',
  keys: ['floorY', 'bounce'],
  present: (o) => o.behavior === null,
  // (the lowest finite number: a floor nothing reaches)
  absent: { floorY: -Number.MAX_VALUE, bounce: null },
  resolve(o) {
    finite('floorY', o.floorY);
    const bounce = o.bounce as unknown;
    if (bounce !== null) {
      if (!bounce || typeof bounce !== 'object')
        throw new ParticleOptionError(
          'bounce',
          bounce,
          'must be null or { restitution, friction }',
        );
      for (const key of ['restitution', 'friction'] as const) {
        const v = (bounce as Record<string, unknown>)[key];
        finite(`bounce.${key}`, v);
        if ((v as number) < 0 || (v as number) > 1)
          throw new ParticleOptionError(`bounce.${key}`, v, 'must be from 0 to 1');
      }
    }
    return { floorY: o.floorY, bounce: o.bounce };
  },
  kernel: (o) =>
    o.bounce
      ? {
          key: 'bounce',
          uniforms: BOUNCE_UNIFORMS,
          collide: `bool hit = x.y < params.floorY;
    x = select(x, vec3f(x.x, params.floorY, x.z), hit);
    v = select(v, vec3f(v.x * params.keepAlong, -v.y * params.restitution, v.z * params.keepAlong), hit);`,
        }
      : { key: 'kill', kill: 'x.y < params.floorY' },
  values: (o) => bounceValues(o),
  reference: {
    collide(o, _own, p) {
      const floorY = f(o.floorY);
      if (o.bounce && p.y < floorY) {
        // on the floor: the vertical speed reversed and damped, the rest slowed
        const along = f(1 - o.bounce.friction);
        p.y = floorY;
        p.collided = true;
        p.vx = f(p.vx * along);
        p.vy = f(-p.vy * f(o.bounce.restitution));
        p.vz = f(p.vz * along);
      }
    },
    kill: (o, _own, p) => !o.bounce && p.y < f(o.floorY),
  },
  fastCpu: true,
});
