/**
 * The particle update as one element-wise kernel (src/compute/kernel.ts): written once, it runs as
 * a WebGPU compute pass, as a WebGPU or WebGL2 fragment ping-pong, and (through the TypeScript
 * reference) on the CPU. Respawn is branch-free: both outcomes are computed and `select`ed.
 */
import { defineKernel, type Kernel } from '../compute/kernel.js';
import type { UniformType, UniformValue } from '../compute/layout.js';
import type { ParticleOptions } from './options.js';
import { emits, type EmitRange } from './emission.js';
import { collisionUniforms } from './collision.js';

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

function spawnPosition(shape: ParticleOptions['emitter']['shape']): string {
  switch (shape) {
    case 'box':
      return 'vec3f spawnPos = params.emitterPosition + params.radius * (2.0 * vec3f(r0, r1, r2) - 1.0);';
    case 'point':
      return 'vec3f spawnPos = params.emitterPosition;';
    case 'sphere':
      return `f32 sphereCos = 2.0 * r0 - 1.0;
    f32 sphereSin = sqrt(max(0.0, 1.0 - sphereCos * sphereCos));
    f32 spherePhi = 6.2831855 * r1;
    f32 sphereDist = params.radius * pow(r2, 0.33333334);
    vec3f spawnPos = params.emitterPosition + sphereDist * vec3f(sphereSin * cos(spherePhi), sphereCos, sphereSin * sin(spherePhi));`;
    case 'cone':
      return 'vec3f spawnPos = params.emitterPosition;';
  }
}

function spawnVelocity(shape: ParticleOptions['emitter']['shape']): string {
  if (shape === 'cone') {
    return `f32 coneCos = 1.0 - r3 * (1.0 - params.coneCos);
    f32 coneSin = sqrt(max(0.0, 1.0 - coneCos * coneCos));
    f32 conePhi = 6.2831855 * r5;
    vec3f spawnVel = speed * vec3f(coneSin * cos(conePhi), coneCos, coneSin * sin(conePhi));`;
  }
  return 'vec3f spawnVel = vec3f(params.spread * (2.0 * r3 - 1.0), speed, params.spread * (2.0 * r5 - 1.0));';
}

/** `reads: 'all'`: any particle as it was before this step (ignisElement: see defineKernel's `gather`). */
const PARTICLE_READ = `
fn particle(j: u32) -> Particle {
  let s = ignisElement(j);
  return Particle(s.position, s.velocity);
}
`;

/**
 * `collision`: the scene's surface normal at depth texel (x, y), in world space — from the view
 * positions of the neighbouring texels (central differences, unprojected with the projection's
 * P00, P11, P22, P32 in `cproj`), turned towards the camera, rotated by the view's axes.
 */
const SCENE_NORMAL = `
vec3f viewPointAt(i32 x, i32 y) {
    f32 d = params.cproj.w / (ignisSceneDepth(x, y) + params.cproj.z);
    f32 ndcX = (f32(x) + 0.5) / params.csize.x * 2.0 - 1.0;
    f32 ndcY = 1.0 - (f32(y) + 0.5) / params.csize.y * 2.0;
    return vec3f(ndcX * d / params.cproj.x, ndcY * d / params.cproj.y, -d);
}
vec3f sceneNormal(i32 x, i32 y) {
    i32 w = i32(params.csize.x) - 1;
    i32 h = i32(params.csize.y) - 1;
    vec3f across = viewPointAt(min(x + 1, w), y) - viewPointAt(max(x - 1, 0), y);
    vec3f up = viewPointAt(x, max(y - 1, 0)) - viewPointAt(x, min(y + 1, h));
    vec3f c = cross(across, up);
    f32 len = length(c);
    vec3f nv = select(vec3f(0.0, 0.0, 1.0), c / max(len, 1e-20), len > 1e-12);
    nv = select(nv, -nv, dot(nv, viewPointAt(x, y)) > 0.0);
    return params.cright.xyz * nv.x + params.cup.xyz * nv.y + params.cback.xyz * nv.z;
}
`;

/**
 * `collision`: where the stepped position lies just behind the scene's depth (within `thickness`
 * of the surface, seen from the collision camera), the particle stays where it was and its
 * velocity bounces off the surface: the normal part reversed × restitution, the rest × (1 −
 * friction). reference.ts `collide` is the same in JavaScript.
 */
const COLLIDE = `
    vec4f clip = params.cvp0 * x.x + params.cvp1 * x.y + params.cvp2 * x.z + params.cvp3;
    f32 cw = max(clip.w, 0.0001);
    f32 u = clip.x / cw * 0.5 + 0.5;
    f32 t = 0.5 - clip.y / cw * 0.5;
    bool inside = clip.w > 0.0001 && u >= 0.0 && u < 1.0 && t >= 0.0 && t < 1.0;
    i32 px = i32(floor(clamp(u, 0.0, 1.0) * params.csize.x));
    i32 py = i32(floor(clamp(t, 0.0, 1.0) * params.csize.y));
    f32 zs = ignisSceneDepth(px, py);
    f32 surface = params.cproj.w / (zs + params.cproj.z);
    bool hitScene = inside && zs < 1.0 && clip.w > surface && clip.w < surface + params.cparams.x;
    vec3f n = sceneNormal(px, py);
    f32 vn = dot(v, n);
    vec3f bounced = (v - n * vn) * params.cparams.z - n * (vn * params.cparams.y);
    v = select(v, bounced, hitScene && vn < 0.0);
    x = select(x, position.xyz, hitScene);`;

/** A behaviour uniform's type: f32 for a number, vecNf for N numbers. */
function behaviorUniformType(v: number | readonly number[]): UniformType {
  return Array.isArray(v) ? (`vec${v.length}f` as UniformType) : 'f32';
}

/** The structure of the options that changes the kernel's code (everything else is a uniform). */
export function kernelKey(o: ParticleOptions): string {
  const b = o.behavior;
  const behavior = b
    ? `:${b.code}:${Object.entries(b.uniforms ?? {})
        .map(([n, v]) => `${n}=${behaviorUniformType(v)}`)
        .join(',')}`
    : '';
  return `${o.emitter.shape}:${o.attractors.length}:${o.turbulence.strength !== 0}${emits(o) ? ':emits' : ''}${o.bounce ? ':bounce' : ''}${o.collision ? ':collision' : ''}${behavior}${b?.reads === 'all' ? ':all' : ''}`;
}

export function particleKernel(o: ParticleOptions): Kernel {
  const attractors = o.attractors.length;
  const turbulence = o.turbulence.strength !== 0;
  const uniforms: Array<[string, UniformType]> = [
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
  if (o.bounce) uniforms.push(['restitution', 'f32'], ['keepAlong', 'f32']);
  if (o.collision)
    uniforms.push(
      ['cvp0', 'vec4f'],
      ['cvp1', 'vec4f'],
      ['cvp2', 'vec4f'],
      ['cvp3', 'vec4f'],
      ['cproj', 'vec4f'],
      ['cright', 'vec4f'],
      ['cup', 'vec4f'],
      ['cback', 'vec4f'],
      ['csize', 'vec4f'],
      ['cparams', 'vec4f'],
    );
  const emission = emits(o);
  if (emission) uniforms.push(['emitStart', 'u32'], ['emitCount', 'u32']);
  for (let a = 0; a < attractors; a++) uniforms.push([`attractor${a}`, 'vec4f']);
  const forces: string[] = [];
  if (attractors > 0 || turbulence) {
    forces.push('vec3f acc = vec3f(0.0);');
    for (let a = 0; a < attractors; a++)
      forces.push(`acc = acc + attract(position.xyz, params.attractor${a});`);
    if (turbulence)
      forces.push(
        'acc = acc + params.turbulence * params.frequency * curlNoise(position.xyz * params.frequency, params.time);',
      );
    forces.push('v = v + acc * params.dt;');
  }
  // the emitter's respawn, which every behaviour may call
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
    ${spawnPosition(o.emitter.shape)}
    f32 speed = params.speedMin + r4 * (params.speedMax - params.speedMin);
    ${spawnVelocity(o.emitter.shape)}
    f32 spawnLife = params.lifeMin + r6 * (params.lifeMax - params.lifeMin);
    return Particle(vec4f(spawnPos, 0.0), vec4f(spawnVel, spawnLife));
}
`;
  // the canonical rule, written as a behaviour like any other
  const canonical = `
fn behavior(index: u32, p: Particle) -> Particle {
    vec4f position = p.position;
    vec4f velocity = p.velocity;
    ${emission ? '' : 'let born = spawn(index);'}
    vec3f v = velocity.xyz + params.gravity * params.dt;
    ${forces.join('\n    ')}
    v = v * max(0.0, 1.0 - params.drag * params.dt);
    vec3f x = position.xyz + v * params.dt;
    f32 age = position.w + params.dt;
    ${o.collision ? COLLIDE : ''}
    ${
      o.bounce
        ? `bool hit = x.y < params.floorY;
    x = select(x, vec3f(x.x, params.floorY, x.z), hit);
    v = select(v, vec3f(v.x * params.keepAlong, -v.y * params.restitution, v.z * params.keepAlong), hit);
    bool dead = age >= velocity.w;`
        : 'bool dead = age >= velocity.w || x.y < params.floorY;'
    }
    return Particle(select(vec4f(x, age), ${emission ? 'vec4f(0.0)' : 'born.position'}, dead), select(vec4f(v, velocity.w), ${emission ? DEAD_VELOCITY : 'born.velocity'}, dead));
}
`;
  const gather = o.behavior?.reads === 'all';
  const behaviorUniforms = Object.entries(o.behavior?.uniforms ?? {});
  for (const [name, value] of behaviorUniforms) uniforms.push([name, behaviorUniformType(value)]);
  // emission: a dead slot (life < 0) stays dead, and the step's slots of the ring are born
  const body = emission
    ? `
    let next = behavior(index, Particle(position, velocity));
    bool asleep = velocity.w < 0.0;
    let born = spawn(index);
    bool emitted = (index + params.count - params.emitStart) % params.count < params.emitCount;
    position = select(select(next.position, vec4f(0.0), asleep), born.position, emitted);
    velocity = select(select(next.velocity, ${DEAD_VELOCITY}, asleep), born.velocity, emitted);
  `
    : `
    let next = behavior(index, Particle(position, velocity));
    position = next.position;
    velocity = next.velocity;
  `;
  return defineKernel({
    label: 'particles',
    attributes: ['position', 'velocity'],
    uniforms,
    helpers: `struct Particle { position: vec4f, velocity: vec4f };\n${HELPERS}${spawn}${gather ? PARTICLE_READ : ''}${o.collision && !o.behavior ? SCENE_NORMAL : ''}${o.behavior ? o.behavior.code : canonical}`,
    body,
    gather,
    sceneDepth: o.collision !== null && !o.behavior,
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
  if (o.bounce) {
    values['restitution'] = o.bounce.restitution;
    values['keepAlong'] = 1 - o.bounce.friction;
  }
  if (o.collision) Object.assign(values, collisionUniforms(o.collision));
  if (emits(o)) {
    values['emitStart'] = emit.start;
    values['emitCount'] = emit.count;
  }
  o.attractors.forEach((a, i) => (values[`attractor${i}`] = [...a.position, a.strength]));
  for (const [name, value] of Object.entries(o.behavior?.uniforms ?? {}))
    values[name] = Array.isArray(value) ? [...value] : (value as number);
  return values;
}
