/**
 * Spawn: a sub-emitter — this system's particles are born from another system's events (the
 * parent's `events` module) instead of an emitter schedule. Each parent slot owns `count` slots of
 * this system, and an event of parent i in the parent's last step spawns all of them, at the event
 * (the emitter's shape is placed there: its position is an offset from the event), with the
 * parent's velocity at the event times `inherit` added. It is a gather — each child slot reads its
 * own parent (`ignisSource`) — so it runs the same as compute, as a WebGL2 fragment pass and on the
 * CPU, and children spawned per step = parent events × count, on every path.
 */
import { ParticleOptionError, finite } from '../errors.js';
import type { SubEmitter } from '../options.js';
import { defineModule } from './module.js';

const f = Math.fround;

export const subEmitter = defineModule({
  name: 'subEmitter',
  stage: 'spawn',
  summary: 'born from a parent system’s events: subEmitter { parent, count, inherit }',
  keys: ['subEmitter'],
  present: (o) => o.subEmitter !== null,
  resolve(o) {
    const s = o.subEmitter as unknown;
    if (s === null) return { subEmitter: null };
    if (!s || typeof s !== 'object' || Array.isArray(s))
      throw new ParticleOptionError('subEmitter', s, 'must be null or { parent, count, inherit }');
    const given = s as Partial<SubEmitter>;
    for (const key of Object.keys(given))
      if (!['parent', 'count', 'inherit'].includes(key))
        throw new ParticleOptionError(
          `subEmitter.${key}`,
          (given as Record<string, unknown>)[key],
          'is not a sub-emitter option (they are parent, count, inherit)',
        );
    const parent = given.parent;
    if (!parent || typeof parent !== 'object' || !('eventSource' in parent))
      throw new ParticleOptionError(
        'subEmitter.parent',
        parent,
        'must be the particle system whose events spawn these particles',
      );
    if (parent.options.events === null)
      throw new ParticleOptionError(
        'subEmitter.parent',
        'a system without events',
        "raises no events: create it with events: 'death' (or 'birth', 'floor')",
      );
    const count = given.count ?? 1;
    const inherit = given.inherit ?? 0;
    finite('subEmitter.count', count);
    if (!Number.isInteger(count) || count < 1)
      throw new ParticleOptionError(
        'subEmitter.count',
        count,
        'must be a positive integer (particles per event)',
      );
    finite('subEmitter.inherit', inherit);
    if (o.emitRate !== null || o.bursts.length > 0)
      throw new ParticleOptionError(
        o.emitRate !== null ? 'emitRate' : 'bursts',
        o.emitRate ?? o.bursts,
        "belongs to an emitter schedule; a sub-emitter's particles are born from its parent's events",
      );
    if (o.count !== parent.count * count)
      throw new ParticleOptionError(
        'count',
        o.count,
        `must be the parent's count × subEmitter.count (${parent.count} × ${count} = ${parent.count * count}): each parent slot owns ${count} slots; leave count out to get it`,
      );
    const resolved: SubEmitter = { parent, count, inherit };
    return { subEmitter: resolved };
  },
  checkDevice(device, o, path) {
    const parent = o.subEmitter?.parent;
    if (!parent) return;
    if (parent.eventSource.device !== device)
      throw new ParticleOptionError(
        'subEmitter.parent',
        'a system of another device',
        'must be a system of this device',
      );
    if (parent.path !== path)
      throw new ParticleOptionError(
        'path',
        path,
        `must be the parent's (${parent.path}): a sub-emitter reads its parent's state where it lives`,
      );
  },
  kernel: () => ({
    key: 'sub',
    uniforms: [
      ['subCount', 'u32'],
      ['inherit', 'f32'],
      ['fresh', 'u32'],
    ],
    source: ['eventPosition', 'eventVelocity'],
    spawn: `let parentEvent = ignisSource(index / params.subCount);
    spawnPos = spawnPos - params.emitterPosition + parentEvent.eventPosition.xyz;
    spawnVel = spawnVel + params.inherit * parentEvent.eventVelocity.xyz;`,
  }),
  values: (o) => ({
    subCount: o.subEmitter?.count ?? 1,
    inherit: o.subEmitter?.inherit ?? 0,
    // the simulation sets it: 1 when the parent has stepped since this system last read it
    fresh: 0,
  }),
  reference: {
    spawn(o, _own, s) {
      const sub = o.subEmitter as SubEmitter;
      const src = s.source;
      if (!src?.['eventPosition'] || !src['eventVelocity'])
        throw new Error(
          "the reference steps a sub-emitter with its parent's state (stepState's source)",
        );
      const at = 4 * Math.floor(s.index / sub.count);
      const ep = src['eventPosition'];
      const ev = src['eventVelocity'];
      const e = o.emitter.position;
      s.px = f(f(s.px - f(e[0])) + (ep[at] as number));
      s.py = f(f(s.py - f(e[1])) + (ep[at + 1] as number));
      s.pz = f(f(s.pz - f(e[2])) + (ep[at + 2] as number));
      s.vx = f(s.vx + f(f(sub.inherit) * (ev[at] as number)));
      s.vy = f(s.vy + f(f(sub.inherit) * (ev[at + 1] as number)));
      s.vz = f(s.vz + f(f(sub.inherit) * (ev[at + 2] as number)));
    },
  },
});
