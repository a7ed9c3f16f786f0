/**
 * Update: events — every step each particle records whether it was born, died, reached the floor
 * or bounced (off the scene's depth or the floor) this step, where, and at what velocity, in two
 * attributes of the state (`eventPosition`: xyz and 1 when an event happened, else zeros;
 * `eventVelocity`: xyz, and w the particle's life fraction at the event, age / life clamped to
 * 0..1: what a sub-emitter's `inheritColor` reads the parent's colour at). A sub-emitter (sub-emitter.ts)
 * spawns from them, `ps.events()` counts them. The records are written after the step's outcome is
 * known (the `event` phase) and are not reset by a death: they are the step's, every step.
 */
import { ParticleOptionError } from '../errors.js';
import type { ParticleEventKind, ParticleOptions } from '../options.js';
import { emits } from '../emission.js';
import { defineModule, type ReferenceParticle } from './module.js';

const f = Math.fround;
const KINDS: readonly ParticleEventKind[] = ['birth', 'death', 'floor', 'collision'];
const NONE = [0, 0, 0, 0];

/** Whether a system's slots start dead and are born only when emitted (an emitter's schedule or a parent's events). */
export function startsDead(
  o: Pick<ParticleOptions, 'emitRate' | 'bursts' | 'subEmitter'>,
): boolean {
  return emits(o) || o.subEmitter !== null;
}

/** Whether the stack has the colliders module (its contacts are 'collision' events). */
function hasColliders(o: ParticleOptions): boolean {
  return o.modules.some((m) => m.module === 'colliders');
}

/** The kernel's event phase for `kind`. */
function eventCode(o: ParticleOptions, kind: ParticleEventKind): string {
  const record = (when: string, at: string, velocity: string, fraction = LIFE_FRACTION): string =>
    `eventPosition = select(vec4f(0.0), vec4f(${at}, 1.0), ${when});
    eventVelocity = select(vec4f(0.0), vec4f(${velocity}, ${fraction}), ${when});`;
  if (kind === 'death') return record('dead', 'x', 'v');
  if (kind === 'collision') {
    // the bounces of the collide phase: off the scene's depth (collision.ts's COLLIDE) and the floor
    const bounced = [
      ...(o.collision ? ['(hitScene && vn < 0.0)'] : []),
      ...(o.bounce ? ['hit'] : []),
      ...(hasColliders(o) ? ['colliderHit'] : []),
    ].join(' || ');
    return `bool eventBounce = ${bounced};
    ${record('eventBounce', 'x', 'v')}`;
  }
  if (kind === 'floor')
    return `bool landed = position.y > params.floorY && x.y <= params.floorY;
    ${record('landed', 'vec3f(x.x, params.floorY, x.z)', 'v')}`;
  // births: a continuous system's respawns; with emission, the emitted slots' spawn values
  return startsDead(o)
    ? 'eventPosition = vec4f(0.0);\n    eventVelocity = vec4f(0.0);'
    : record('dead', 'born.position.xyz', 'born.velocity.xyz', '0.0');
}

/** The particle's life fraction at the step's end (the kernel's `age`, `velocity.w`: its life). */
const LIFE_FRACTION = 'clamp(age / velocity.w, 0.0, 1.0)';

/** The reference's LIFE_FRACTION. */
function lifeFraction(p: ReferenceParticle): number {
  return Math.min(Math.max(f(p.age / p.life), 0), 1);
}

export const events = defineModule({
  name: 'events',
  stage: 'update',
  summary:
    "events each step: events 'birth' | 'death' | 'floor' | 'collision' (what a sub-emitter spawns from)",
  keys: ['events'],
  present: (o) => o.events !== null,
  absent: { events: null },
  resolve(o) {
    if (o.events !== null && !KINDS.includes(o.events))
      throw new ParticleOptionError(
        'events',
        o.events,
        "must be null, 'birth', 'death', 'floor' or 'collision'",
      );
    if (o.events !== null && o.behavior)
      throw new ParticleOptionError(
        'events',
        o.events,
        'needs the canonical update: a behavior replaces it (record events in your behavior instead)',
      );
    return { events: o.events };
  },
  kernel: (o) => {
    const kind = o.events as ParticleEventKind;
    // (here, not in resolve: the stack is known when a part of the kernel is asked for)
    if (kind === 'collision' && !o.collision && !o.bounce && !hasColliders(o))
      throw new ParticleOptionError(
        'events',
        o.events,
        'records bounces: give the system collision (the scene depth), bounce (the floor) or a colliders module',
      );
    const born = kind === 'birth';
    return {
      key: `${kind}${born && startsDead(o) ? ' emitted' : ''}`,
      attributes: [
        { name: 'eventPosition', spawn: born ? 'vec4f(spawnPos, 1.0)' : 'vec4f(0.0)', keep: true },
        { name: 'eventVelocity', spawn: born ? 'vec4f(spawnVel, 0.0)' : 'vec4f(0.0)', keep: true },
      ],
      event: eventCode(o, kind),
    };
  },
  reference: {
    attribute: (own, name, position, velocity) => {
      if (own['events'] !== 'birth') return NONE;
      const v = name === 'eventPosition' ? position : velocity;
      return [v[0] as number, v[1] as number, v[2] as number, name === 'eventPosition' ? 1 : 0];
    },
    event(o, own, p, dead, born) {
      const kind = own['events'] as ParticleEventKind;
      const record = (
        at: number[],
        v: number[],
        t = lifeFraction(p),
      ): Record<string, number[]> => ({
        eventPosition: [...at, 1],
        eventVelocity: [...v, t],
      });
      const none = { eventPosition: NONE, eventVelocity: NONE };
      if (kind === 'death') return dead ? record([p.x, p.y, p.z], [p.vx, p.vy, p.vz]) : none;
      if (kind === 'collision')
        return p.collided ? record([p.x, p.y, p.z], [p.vx, p.vy, p.vz]) : none;
      if (kind === 'floor') {
        const floorY = f(o.floorY);
        return p.y0 > floorY && p.y <= floorY
          ? record([p.x, floorY, p.z], [p.vx, p.vy, p.vz])
          : none;
      }
      return born
        ? record(
            [born.position[0] as number, born.position[1] as number, born.position[2] as number],
            [born.velocity[0] as number, born.velocity[1] as number, born.velocity[2] as number],
            0,
          )
        : none;
    },
  },
});
