/**
 * Spawn: a sub-emitter — this system's particles are born from another system's events (the
 * parent's `events` module) instead of an emitter schedule. Each parent slot owns `count` slots of
 * this system, and an event of parent i in the parent's last step spawns all of them, at the event
 * (the emitter's shape is placed there: its position is an offset from the event), with the
 * parent's velocity at the event times `inherit` added, and (with `inheritColor`) a `tint` — the
 * parent's colour over life at the event's life fraction — that the draw multiplies the children's
 * own colour by. It is a gather — each child slot reads its
 * own parent (`ignisSource`) — so it runs the same as compute, as a WebGL2 fragment pass and on the
 * CPU, and children spawned per step = parent events × count, on every path.
 */
import { ParticleOptionError, finite } from '../errors.js';
import type { SubEmitter } from '../options.js';
import { defineModule } from './module.js';
import type { UniformType, UniformValue } from '../../compute/layout.js';

/** The attribute a tinted sub-emitter adds: the parent's colour at the event (the draw multiplies by it). */
export const TINT = 'tint';

const TINT_UNIFORMS: ReadonlyArray<readonly [string, UniformType]> = [
  ['parentColor0', 'vec4f'],
  ['parentColor1', 'vec4f'],
  ['parentColor2', 'vec4f'],
  ['parentColor3', 'vec4f'],
  ['parentStops', 'vec4f'],
  ['parentScale', 'vec4f'],
];

/** The parent's colour over life at life fraction t: the draw's `gradient` (draw.wgsl), on the parent's stops. */
const PARENT_COLOR = `
vec4f parentColor(f32 t) {
  vec3f g = clamp((vec3f(t) - params.parentStops.xyz) * params.parentScale.xyz, vec3f(0.0), vec3f(1.0));
  vec4f c = mix(params.parentColor0, params.parentColor1, g.x);
  c = mix(c, params.parentColor2, g.y);
  return mix(c, params.parentColor3, g.z);
}
`;

/** 1 / (stop[i + 1] − stop[i]) for i = 0..2 (the draw's colorScale: draw-params.ts). */
function colorScale(stops: readonly number[]): number[] {
  return [0, 1, 2]
    .map((i) => 1 / Math.max((stops[i + 1] as number) - (stops[i] as number), 1e-6))
    .concat(0);
}

/** PARENT_COLOR in float32, as the reference computes it. */
function gradientAt(
  colors: ReadonlyArray<readonly number[]>,
  stops: readonly number[],
  scale: readonly number[],
  t: number,
): number[] {
  const g = [0, 1, 2].map((i) =>
    Math.min(Math.max(f(f(t - f(stops[i] as number)) * f(scale[i] as number)), 0), 1),
  );
  const mix = (a: readonly number[], b: readonly number[], w: number): number[] =>
    a.map((x, k) => f(x + f(f(f(b[k] as number) - x) * w)));
  let c = mix(colors[0] as readonly number[], colors[1] as readonly number[], g[0] as number);
  c = mix(c, colors[2] as readonly number[], g[1] as number);
  return mix(c, colors[3] as readonly number[], g[2] as number);
}

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
      if (!['parent', 'count', 'inherit', 'inheritColor'].includes(key))
        throw new ParticleOptionError(
          `subEmitter.${key}`,
          (given as Record<string, unknown>)[key],
          'is not a sub-emitter option (they are parent, count, inherit, inheritColor)',
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
    const inheritColor = given.inheritColor ?? false;
    if (typeof inheritColor !== 'boolean')
      throw new ParticleOptionError(
        'subEmitter.inheritColor',
        inheritColor,
        "must be true (the children take the parent's colour at the event) or false",
      );
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
    const resolved: SubEmitter = { parent, count, inherit, inheritColor };
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
  kernel: (o) => {
    const tinted = o.subEmitter?.inheritColor === true;
    return {
      key: tinted ? 'sub tinted' : 'sub',
      uniforms: [
        ['subCount', 'u32'],
        ['inherit', 'f32'],
        ['fresh', 'u32'],
        ...(tinted ? TINT_UNIFORMS : []),
      ],
      source: ['eventPosition', 'eventVelocity'],
      ...(tinted
        ? {
            helpers: PARENT_COLOR,
            attributes: [
              { name: TINT, spawn: 'parentColor(parentEvent.eventVelocity.w)', persist: true },
            ],
          }
        : {}),
      spawn: `let parentEvent = ignisSource(index / params.subCount);
    spawnPos = spawnPos - params.emitterPosition + parentEvent.eventPosition.xyz;
    spawnVel = spawnVel + params.inherit * parentEvent.eventVelocity.xyz;`,
    };
  },
  values: (o) => {
    const sub = o.subEmitter;
    const values: Record<string, UniformValue> = {
      subCount: sub?.count ?? 1,
      inherit: sub?.inherit ?? 0,
      // the simulation sets it: 1 when the parent has stepped since this system last read it
      fresh: 0,
    };
    if (sub?.inheritColor) {
      // the parent's colours as they are now (its setOptions reaches its children's next spawn)
      const { colors, colorStops } = sub.parent.options;
      for (let i = 0; i < 4; i++) values[`parentColor${i}`] = colors[i] as readonly number[];
      values['parentStops'] = colorStops;
      values['parentScale'] = colorScale(colorStops);
    }
    return values;
  },
  reference: {
    attribute(own, name, _position, _velocity, spawn) {
      const sub = own['subEmitter'] as SubEmitter;
      const ev = spawn?.source?.['eventVelocity'];
      if (name !== TINT || !ev || !spawn)
        throw new Error("the reference spawns a sub-emitter's tint from its parent's records");
      const t = ev[4 * Math.floor(spawn.index / sub.count) + 3] as number;
      const { colors, colorStops } = sub.parent.options;
      return gradientAt(colors, colorStops, colorScale(colorStops), t);
    },
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
