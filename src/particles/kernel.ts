/**
 * The particle update as one element-wise kernel (src/compute/kernel.ts): written once, it runs as
 * a WebGPU compute pass, as a WebGPU or WebGL2 fragment ping-pong, and (through the TypeScript
 * reference) on the CPU. Respawn is branch-free: both outcomes are computed and `select`ed.
 */
import { kernelSource, type Kernel } from '../compute/kernel.js';
import type { UniformType, UniformValue } from '../compute/layout.js';
import type { EmitRange, ParticleOptions } from './options.js';
import { emits } from './emission.js';
import { startsDead } from './modules/events.js';
import { stackOf, type KernelPart } from './modules/index.js';

const HELPERS = `
u32 pcg(u32 v) {
  u32 s = v * 747796405u + 2891336453u;
  u32 w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
  return (w >> 22u) ^ w;
}
f32 rand(u32 key) {
  return f32(pcg(key)) / 4294967296.0;
}
vec3f attract(vec3f p, vec4f a) {
  vec3f d = a.xyz - p;
  f32 r2 = dot(d, d) + 0.01;
  return d * (a.w / (r2 * sqrt(r2)));
}
vec3f curlNoise(vec3f q, f32 t) {
  f32 dAzdy = cos(q.x + cos(q.y + t)) * -sin(q.y + t);
  f32 dAydz = cos(q.z + cos(q.x + t));
  f32 dAxdz = cos(q.y + cos(q.z + t)) * -sin(q.z + t);
  f32 dAzdx = cos(q.x + cos(q.y + t));
  f32 dAydx = cos(q.z + cos(q.x + t)) * -sin(q.x + t);
  f32 dAxdy = cos(q.y + cos(q.z + t));
  return vec3f(dAzdy - dAydz, dAxdz - dAzdx, dAydx - dAxdy);
}
`;

/** `reads: 'all'`: any particle as it was before this step (ignisElement: see defineKernel's `gather`). */
const PARTICLE_READ = `
fn particle(j: u32) -> Particle {
  let s = ignisElement(j);
  return Particle(s.position, s.velocity);
}
`;

/** The uniforms every particle kernel has, in order (CANONICAL_UNIFORMS; a behaviour reads them). */
const CANONICAL: ReadonlyArray<readonly [string, UniformType]> = [
  ['seed', 'u32'],
  ['stepIndex', 'u32'],
  ['dt', 'f32'],
  ['drag', 'f32'],
  ['gravity', 'vec3f'],
  ['floorY', 'f32'],
  ['emitterPosition', 'vec3f'],
  ['radius', 'f32'],
  ['spread', 'f32'],
  ['speedMin', 'f32'],
  ['speedMax', 'f32'],
  ['lifeMin', 'f32'],
  ['lifeMax', 'f32'],
  ['coneCos', 'f32'],
  ['time', 'f32'],
  ['turbulence', 'f32'],
  ['frequency', 'f32'],
];

/** Each module of the stack with its part of the kernel. */
function partsOf(o: ParticleOptions): Array<{ name: string; part: KernelPart }> {
  return stackOf(o).flatMap(({ def, own }) => {
    const part = def.kernel?.(o, own);
    return part ? [{ name: def.name, part }] : [];
  });
}

/** The state attributes a stack adds beside position and velocity (each a vec4f per particle). */
export function extraAttributes(
  o: ParticleOptions,
): Array<{ name: string; spawn: string; keep?: boolean; persist?: boolean }> {
  return partsOf(o).flatMap(({ part }) => [...(part.attributes ?? [])]);
}

/** The state's layout: position, velocity, then the attributes the stack's modules add. */
export function stateAttributes(o: ParticleOptions): string[] {
  return ['position', 'velocity', ...extraAttributes(o).map((a) => a.name)];
}

/** The structure of the stack that changes the kernel's code (everything else is a uniform). */
export function kernelKey(o: ParticleOptions): string {
  return partsOf(o)
    .map(({ name, part }) => (part.key === undefined ? name : `${name}=${part.key}`))
    .join('|');
}

/** The update kernel of a stack: the spawn modules' `spawn`, the update modules' phases (module.ts). */
export function particleKernel(o: ParticleOptions): Kernel {
  const parts = partsOf(o);
  const phase = (name: keyof KernelPart): string[] =>
    parts.flatMap(({ part }) => (typeof part[name] === 'string' && part[name] ? [part[name]] : []));
  const uniforms: Array<readonly [string, UniformType]> = [...CANONICAL];
  for (const { part } of parts) uniforms.push(...(part.uniforms ?? []));
  // slots start dead and are born when emitted: by the emitter's schedule, or a parent's events
  const emission = startsDead(o);
  if (emits(o)) uniforms.push(['emitStart', 'u32'], ['emitCount', 'u32']);
  const emittedBy = o.subEmitter
    ? 'params.fresh != 0u && ignisSource(index / params.subCount).eventPosition.w > 0.5'
    : '(index + params.count - params.emitStart) % params.count < params.emitCount';
  const forces = phase('force');
  const extra = extraAttributes(o);
  const fields = extra.map((a) => `, ${a.name}: vec4f`).join('');
  const extraOf = (f: (name: string, spawn: string) => string): string =>
    extra.map((a) => `, ${f(a.name, a.spawn)}`).join('');
  const locals = extra.map((a) => `vec4f ${a.name} = p.${a.name};`).join('\n    ');
  const spawn = `
fn spawn(index: u32) -> Particle {
    u32 pbase = pcg(params.seed ^ pcg(params.stepIndex));
    u32 key = pbase + index * 8u;
    f32 r0 = rand(key);
    f32 r1 = rand(key + 1u);
    f32 r2 = rand(key + 2u);
    f32 r3 = rand(key + 3u);
    f32 r4 = rand(key + 4u);
    f32 r5 = rand(key + 5u);
    f32 r6 = rand(key + 6u);
    ${phase('spawn').join('\n    ')}
    return Particle(vec4f(spawnPos, 0.0), vec4f(spawnVel, spawnLife)${extraOf((_, v) => v)});
}
`;
  // the update modules' phases, as a behaviour like any other
  const canonical = `
fn behavior(index: u32, p: Particle) -> Particle {
    vec4f position = p.position;
    vec4f velocity = p.velocity;
    ${locals}
    ${emission ? '' : 'let born = spawn(index);'}
    vec3f v = velocity.xyz;
    ${phase('velocity').join('\n    ')}
    ${forces.length > 0 ? `vec3f acc = vec3f(0.0);\n    ${forces.join('\n    ')}\n    v = v + acc * params.dt;` : ''}
    ${phase('drag').join('\n    ')}
    vec3f x = position.xyz + v * params.dt;
    f32 age = position.w + params.dt;
    ${phase('collide').join('\n    ')}
    bool dead = ${['age >= velocity.w', ...phase('kill')].join(' || ')};
    ${phase('event').join('\n    ')}
    return Particle(select(vec4f(x, age), ${emission ? 'vec4f(0.0)' : 'born.position'}, dead), select(vec4f(v, velocity.w), ${emission ? DEAD_VELOCITY : 'born.velocity'}, dead)${extra.map((a) => `, ${a.keep || (a.persist && emission) ? a.name : `select(${a.name}, ${emission ? 'vec4f(0.0)' : `born.${a.name}`}, dead)`}`).join('')});
}
`;
  const gather = o.behavior?.reads === 'all';
  // emission: a dead slot (life < 0) stays dead, and the step's slots of the ring are born
  const current = `Particle(position, velocity${extraOf((n) => n)})`;
  const body = emission
    ? `
    let next = behavior(index, ${current});
    bool asleep = velocity.w < 0.0;
    let born = spawn(index);
    bool emitted = ${emittedBy};
    position = select(select(next.position, vec4f(0.0), asleep), born.position, emitted);
    velocity = select(select(next.velocity, ${DEAD_VELOCITY}, asleep), born.velocity, emitted);
    ${extra.map((a) => `${a.name} = select(${a.persist ? `next.${a.name}` : `select(next.${a.name}, vec4f(0.0), asleep)`}, born.${a.name}, emitted);`).join('\n    ')}
  `
    : `
    let next = behavior(index, ${current});
    position = next.position;
    velocity = next.velocity;
    ${extra.map((a) => `${a.name} = next.${a.name};`).join('\n    ')}
  `;
  const source = [...new Set(parts.flatMap(({ part }) => [...(part.source ?? [])]))];
  return kernelSource({
    label: 'particles',
    ...(source.length > 0 ? { source } : {}),
    attributes: ['position', 'velocity', ...extra.map((a) => a.name)],
    uniforms,
    helpers: `struct Particle { position: vec4f, velocity: vec4f${fields} };\n${HELPERS}${phase('helpers').join('')}${spawn}${gather ? PARTICLE_READ : ''}${o.behavior ? o.behavior.code : canonical}`,
    body,
    gather,
    sceneDepth: parts.some(({ part }) => part.sceneDepth === true),
    workgroupSize: 64,
  });
}

/** A dead slot's velocity: life -1, so `age < life` (alive) is false whatever its age. */
const DEAD_VELOCITY = 'vec4f(0.0, 0.0, 0.0, -1.0)';

/** The uniform values of step `stepIndex` (n ≥ 1); `emit`: the slots it emits (emission only). */
export function kernelParams(
  o: ParticleOptions,
  stepIndex: number,
  dt: number,
  time: number,
  emit: EmitRange = { start: 0, count: 0 },
): Record<string, UniformValue> {
  const values: Record<string, UniformValue> = {
    seed: o.seed,
    stepIndex,
    dt,
    drag: o.drag,
    gravity: o.gravity,
    floorY: o.floorY,
    emitterPosition: o.emitter.position,
    radius: o.emitter.radius,
    spread: o.spread,
    speedMin: o.speedMin,
    speedMax: o.speedMax,
    lifeMin: o.lifeMin,
    lifeMax: o.lifeMax,
    coneCos: Math.cos(o.emitter.angle),
    time,
    turbulence: o.turbulence.strength,
    frequency: o.turbulence.frequency,
  };
  if (emits(o)) {
    values['emitStart'] = emit.start;
    values['emitCount'] = emit.count;
  }
  for (const { def, own } of stackOf(o)) if (def.values) Object.assign(values, def.values(o, own));
  return values;
}
