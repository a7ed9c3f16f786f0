/**
 * Update: colliders — analytic shapes particles bounce off, die on or stick to, wherever they are
 * (on screen or not: unlike the scene-depth `collision`, nothing here depends on a camera). The
 * shapes are signed distance functions (SDFs) combined by union: spheres, axis-aligned boxes,
 * capsules and planes (the solid side opposite the normal), each of them optionally turned inside
 * out (`inside: true`: particles are kept in a sphere or a box, a snow globe).
 *
 * **No tunnelling, at any speed**: a particle does not jump from where it was to where its velocity
 * takes it; it marches along that segment by conservative advancement (sphere tracing): each march
 * step goes as far as the SDF proves free, so the first contact on the segment is found however
 * thin the shape or fast the particle. After MARCH_STEPS steps without reaching the end (a path
 * grazing a surface), it stays where the last step proved free — held back for that step, never
 * through. At a contact it is put SKIN outside the surface and responds:
 *
 * - `bounce`: the velocity's normal part reversed × `restitution`, the tangential × (1 − friction);
 * - `die`: it dies this step;
 * - `stick`: it stays at the contact, still, for the rest of its life.
 *
 * A contact is a 'collision' event for the events module. Only given in a module list:
 * `modules: [...particleModules(options), { module: 'colliders', shapes: [...] }]`.
 *
 * Modelled on VFX Graph's Collide with Sphere / AABox / Plane and Inigo Quilez's distance functions.
 */
import { ParticleOptionError, finite, object, vector } from '../errors.js';
import type { UniformType, UniformValue } from '../../compute/layout.js';
import { defineModule, type ModuleOptions, type ReferenceParticle } from './module.js';

const f = Math.fround;
type V3 = readonly [number, number, number];

/** One collider shape (world units). */
export type ColliderShape =
  | {
      readonly shape: 'sphere';
      readonly center: V3;
      readonly radius: number;
      readonly inside?: boolean;
    }
  | { readonly shape: 'box'; readonly center: V3; readonly size: V3; readonly inside?: boolean }
  | {
      readonly shape: 'capsule';
      readonly a: V3;
      readonly b: V3;
      readonly radius: number;
      readonly inside?: boolean;
    }
  | { readonly shape: 'plane'; readonly point: V3; readonly normal: V3 };

/** What a particle does at a contact. */
export type ColliderResponse = 'bounce' | 'die' | 'stick';

/** The colliders module's options, resolved. */
export interface Colliders {
  readonly shapes: readonly ColliderShape[];
  readonly response: ColliderResponse;
  readonly restitution: number;
  readonly friction: number;
}

/** Shapes in one module: each is code in the kernel and two vec4f uniforms. */
export const MAX_COLLIDERS = 8;
/** Steps of the march along a particle's step (conservative advancement). */
export const MARCH_STEPS = 16;
/** A contact is closer than this to a surface; a particle is put 2·SKIN outside it. */
export const SKIN = 1e-3;
/** The offset of the tetrahedral normal's four samples. */
const NORMAL_EPSILON = 1e-3;

const OPTIONS = ['shapes', 'response', 'restitution', 'friction'];
const SHAPE_KEYS: Record<ColliderShape['shape'], readonly string[]> = {
  sphere: ['shape', 'center', 'radius', 'inside'],
  box: ['shape', 'center', 'size', 'inside'],
  capsule: ['shape', 'a', 'b', 'radius', 'inside'],
  plane: ['shape', 'point', 'normal'],
};

function resolveShape(at: string, given: unknown): ColliderShape {
  object(at, given, "a shape: { shape: 'sphere' | 'box' | 'capsule' | 'plane', … }");
  const s = given as Record<string, unknown>;
  const kind = s['shape'];
  if (kind !== 'sphere' && kind !== 'box' && kind !== 'capsule' && kind !== 'plane')
    throw new ParticleOptionError(
      `${at}.shape`,
      kind,
      "must be 'sphere', 'box', 'capsule' or 'plane'",
    );
  const keys = SHAPE_KEYS[kind];
  for (const key of Object.keys(s))
    if (!keys.includes(key))
      throw new ParticleOptionError(
        `${at}.${key}`,
        s[key],
        `is not an option of a ${kind} (${keys.join(', ')})`,
      );
  const inside = s['inside'] ?? false;
  if (typeof inside !== 'boolean')
    throw new ParticleOptionError(`${at}.inside`, inside, 'must be true or false');
  const positive = (key: string): number => {
    finite(`${at}.${key}`, s[key]);
    if ((s[key] as number) <= 0)
      throw new ParticleOptionError(`${at}.${key}`, s[key], 'must be positive');
    return s[key] as number;
  };
  const point = (key: string): V3 => {
    vector(`${at}.${key}`, s[key], 3);
    return [...(s[key] as number[])] as unknown as V3;
  };
  if (kind === 'sphere')
    return { shape: kind, center: point('center'), radius: positive('radius'), inside };
  if (kind === 'box') {
    const size = point('size');
    if (size.some((x) => x <= 0))
      throw new ParticleOptionError(`${at}.size`, s['size'], 'must be positive in x, y and z');
    return { shape: kind, center: point('center'), size, inside };
  }
  if (kind === 'capsule')
    return { shape: kind, a: point('a'), b: point('b'), radius: positive('radius'), inside };
  const normal = point('normal');
  const length = Math.hypot(...normal);
  if (length === 0)
    throw new ParticleOptionError(`${at}.normal`, s['normal'], 'must not be the zero vector');
  return {
    shape: kind,
    point: point('point'),
    normal: normal.map((x) => x / length) as unknown as V3,
  };
}

/** The kernel-language SDF of shape i (its uniforms: collider{i}A, collider{i}B). */
function shapeCode(s: ColliderShape, i: number): string {
  const A = `params.collider${i}A`;
  const B = `params.collider${i}B`;
  const d =
    s.shape === 'sphere'
      ? `length(p - ${A}.xyz) - ${A}.w`
      : s.shape === 'box'
        ? `colliderBox(p - ${A}.xyz, ${B}.xyz)`
        : s.shape === 'capsule'
          ? `colliderCapsule(p, ${A}.xyz, ${B}.xyz, ${A}.w)`
          : `dot(p, ${A}.xyz) - ${A}.w`;
  return s.shape !== 'plane' && s.inside ? `-(${d})` : d;
}

/** The uniform values of shape i. */
function shapeValues(s: ColliderShape): [number[], number[]] {
  if (s.shape === 'sphere')
    return [
      [...s.center, s.radius],
      [0, 0, 0, 0],
    ];
  if (s.shape === 'box')
    return [
      [...s.center, 0],
      [...s.size.map((x) => x / 2), 0],
    ];
  if (s.shape === 'capsule')
    return [
      [...s.a, s.radius],
      [...s.b, 0],
    ];
  const [nx, ny, nz] = s.normal;
  return [
    [nx, ny, nz, s.point[0] * nx + s.point[1] * ny + s.point[2] * nz],
    [0, 0, 0, 0],
  ];
}

const HELPERS = (shapes: readonly ColliderShape[]): string => `
fn colliderBox(q0: vec3f, h: vec3f) -> f32 {
  let q = abs(q0) - h;
  return length(max(q, vec3f(0.0))) + min(max(q.x, max(q.y, q.z)), 0.0);
}
fn colliderCapsule(p: vec3f, a: vec3f, b: vec3f, r: f32) -> f32 {
  let pa = p - a;
  let ba = b - a;
  let h = clamp(dot(pa, ba) / max(dot(ba, ba), 1e-12), 0.0, 1.0);
  return length(pa - ba * h) - r;
}
fn colliderSdf(p: vec3f) -> f32 {
  var d = ${shapeCode(shapes[0] as ColliderShape, 0)};
  ${shapes
    .slice(1)
    .map((s, k) => `d = min(d, ${shapeCode(s, k + 1)});`)
    .join('\n  ')}
  return d;
}
fn colliderNormal(p: vec3f) -> vec3f {
  let e = ${NORMAL_EPSILON};
  let k0 = vec3f(1.0, -1.0, -1.0);
  let k1 = vec3f(-1.0, -1.0, 1.0);
  let k2 = vec3f(-1.0, 1.0, -1.0);
  let k3 = vec3f(1.0, 1.0, 1.0);
  let n = k0 * colliderSdf(p + k0 * e) + k1 * colliderSdf(p + k1 * e) + k2 * colliderSdf(p + k2 * e) + k3 * colliderSdf(p + k3 * e);
  let l = length(n);
  return select(vec3f(0.0, 1.0, 0.0), n / l, l > 0.0);
}
fn colliderMarch(start: vec3f, end: vec3f) -> vec4f {
  let segment = end - start;
  let len = length(segment);
  let dir = select(vec3f(0.0), segment / len, len > 0.0);
  var t = 0.0;
  for (var i = 0u; i < ${MARCH_STEPS}u; i++) {
    let d = colliderSdf(start + dir * t);
    if (d <= ${SKIN}) {
      return vec4f(start + dir * t, 1.0);
    }
    if (t >= len) {
      return vec4f(end, 0.0);
    }
    t = min(t + d, len);
  }
  return vec4f(start + dir * t, 0.0);
}
`;

/** The collide phase: march, then the response at a contact. */
function collideCode(response: ColliderResponse): string {
  const velocity =
    response === 'bounce'
      ? `f32 colliderVn = dot(v, colliderN);
    vec3f colliderBounced = (v - colliderN * colliderVn) * params.colliderResponse.y - colliderN * (colliderVn * params.colliderResponse.x);
    v = select(v, colliderBounced, colliderHit && colliderVn < 0.0);`
      : response === 'stick'
        ? 'v = select(v, vec3f(0.0), colliderHit);'
        : '';
  return `vec4f colliderAt = colliderMarch(position.xyz, x);
    bool colliderHit = colliderAt.w > 0.5;
    vec3f colliderN = colliderNormal(colliderAt.xyz);
    f32 colliderDepth = colliderSdf(colliderAt.xyz);
    x = select(colliderAt.xyz, colliderAt.xyz + colliderN * max(${2 * SKIN} - colliderDepth, 0.0), colliderHit);
    ${velocity}`;
}

export const colliders = defineModule({
  name: 'colliders',
  stage: 'update',
  summary:
    "analytic colliders (SDF union, no tunnelling): { shapes, response: 'bounce' | 'die' | 'stick', restitution, friction }",
  keys: [],
  present: () => false,
  resolve(_o, own) {
    for (const key of Object.keys(own))
      if (!OPTIONS.includes(key))
        throw new ParticleOptionError(
          `colliders.${key}`,
          own[key],
          `is not an option of the colliders (${OPTIONS.join(', ')})`,
        );
    // (every module resolves, listed or not: one not listed has no options, and no shapes — a
    // listed one without shapes is refused by its kernel part, below)
    const shapes = own['shapes'] ?? [];
    if (
      !Array.isArray(shapes) ||
      (shapes.length < 1 && 'shapes' in own) ||
      shapes.length > MAX_COLLIDERS
    )
      throw new ParticleOptionError(
        'colliders.shapes',
        shapes,
        `must be an array of 1 to ${MAX_COLLIDERS} shapes`,
      );
    const response = own['response'] ?? 'bounce';
    if (response !== 'bounce' && response !== 'die' && response !== 'stick')
      throw new ParticleOptionError(
        'colliders.response',
        response,
        "must be 'bounce', 'die' or 'stick'",
      );
    const restitution = own['restitution'] ?? 0.5;
    const friction = own['friction'] ?? 0;
    for (const [key, v] of [
      ['restitution', restitution],
      ['friction', friction],
    ] as const) {
      finite(`colliders.${key}`, v);
      if ((v as number) < 0 || (v as number) > 1)
        throw new ParticleOptionError(`colliders.${key}`, v, 'must be from 0 to 1');
    }
    const resolved: Colliders = {
      shapes: shapes.map((s, i) => resolveShape(`colliders.shapes[${i}]`, s)),
      response,
      restitution: restitution as number,
      friction: friction as number,
    };
    return { ...resolved };
  },
  kernel: (_o, own) => {
    const c = own as unknown as Colliders;
    if (c.shapes.length === 0)
      throw new ParticleOptionError(
        'colliders.shapes',
        undefined,
        `must be an array of 1 to ${MAX_COLLIDERS} shapes`,
      );
    const uniforms: Array<readonly [string, UniformType]> = [['colliderResponse', 'vec4f']];
    c.shapes.forEach((_, i) =>
      uniforms.push([`collider${i}A`, 'vec4f'], [`collider${i}B`, 'vec4f']),
    );
    return {
      key: `${c.response}:${c.shapes.map((s) => `${s.shape}${s.shape !== 'plane' && s.inside ? ' inside' : ''}`).join(',')}`,
      uniforms,
      helpers: HELPERS(c.shapes),
      collide: collideCode(c.response),
      ...(c.response === 'die' ? { kill: 'colliderHit' } : {}),
    };
  },
  values: (_o, own) => {
    const c = own as unknown as Colliders;
    const values: Record<string, UniformValue> = {
      colliderResponse: [c.restitution, 1 - c.friction, 0, 0],
    };
    c.shapes.forEach((s, i) => {
      const [a, b] = shapeValues(s);
      values[`collider${i}A`] = a;
      values[`collider${i}B`] = b;
    });
    return values;
  },
  reference: {
    prepare: (_o, own) => referenceSdf(own),
    collide(_o, own, p, prepared) {
      const c = own as unknown as Colliders;
      const sdf = prepared as Sdf;
      const at = march(sdf, [p.x0, p.y0, p.z0], [p.x, p.y, p.z]);
      if (!at.hit) {
        [p.x, p.y, p.z] = at.point;
        return;
      }
      const n = normal(sdf, at.point);
      const push = Math.max(f(f(2 * SKIN) - sdf(at.point)), 0);
      [p.x, p.y, p.z] = at.point.map((x, k) => f(x + f((n[k] as number) * push))) as [
        number,
        number,
        number,
      ];
      p.collided = true;
      (p as ReferenceParticle & { colliderHit?: boolean }).colliderHit = true;
      if (c.response === 'stick') [p.vx, p.vy, p.vz] = [0, 0, 0];
      if (c.response === 'bounce') {
        const vn = dot([p.vx, p.vy, p.vz], n);
        if (vn < 0) {
          const keep = f(1 - c.friction);
          const back = f(vn * f(c.restitution));
          const v = [p.vx, p.vy, p.vz];
          [p.vx, p.vy, p.vz] = v.map((x, k) =>
            f(f(f(x - f((n[k] as number) * vn)) * keep) - f((n[k] as number) * back)),
          ) as [number, number, number];
        }
      }
    },
    kill: (_o, own, p) =>
      (own as unknown as Colliders).response === 'die' &&
      (p as ReferenceParticle & { colliderHit?: boolean }).colliderHit === true,
  },
});

type P3 = [number, number, number];
type Sdf = (p: readonly number[]) => number;

const len = (x: number, y: number, z: number): number =>
  f(Math.sqrt(f(f(f(x * x) + f(y * y)) + f(z * z))));
const dot = (a: readonly number[], b: readonly number[]): number =>
  f(
    f(f((a[0] as number) * (b[0] as number)) + f((a[1] as number) * (b[1] as number))) +
      f((a[2] as number) * (b[2] as number)),
  );

/** The union SDF of the module's shapes, in float32 as the kernel computes it. */
function referenceSdf(own: ModuleOptions): Sdf {
  const shapes = (own as unknown as Colliders).shapes;
  const one = shapes.map((s): Sdf => {
    const [A, B] = shapeValues(s).map((v) => v.map(f)) as [number[], number[]];
    const sign = s.shape !== 'plane' && s.inside ? -1 : 1;
    if (s.shape === 'sphere')
      return (p) => sign * f(len(f(p[0]! - A[0]!), f(p[1]! - A[1]!), f(p[2]! - A[2]!)) - A[3]!);
    if (s.shape === 'box')
      return (p) => {
        const q = [0, 1, 2].map((k) => f(Math.abs(f(p[k]! - A[k]!)) - B[k]!));
        const outside = len(Math.max(q[0]!, 0), Math.max(q[1]!, 0), Math.max(q[2]!, 0));
        return sign * f(outside + Math.min(Math.max(q[0]!, Math.max(q[1]!, q[2]!)), 0));
      };
    if (s.shape === 'capsule')
      return (p) => {
        const pa = [0, 1, 2].map((k) => f(p[k]! - A[k]!));
        const ba = [0, 1, 2].map((k) => f(B[k]! - A[k]!));
        const h = Math.min(Math.max(f(dot(pa, ba) / Math.max(dot(ba, ba), 1e-12)), 0), 1);
        const d = [0, 1, 2].map((k) => f(pa[k]! - f(ba[k]! * h)));
        return sign * f(len(d[0]!, d[1]!, d[2]!) - A[3]!);
      };
    return (p) => f(dot(p, A) - A[3]!);
  });
  return (p) => one.reduce((d, sdf) => Math.min(d, sdf(p)), Infinity);
}

const K: readonly P3[] = [
  [1, -1, -1],
  [-1, -1, 1],
  [-1, 1, -1],
  [1, 1, 1],
];

function normal(sdf: Sdf, p: readonly number[]): P3 {
  const e = f(NORMAL_EPSILON);
  const n = [0, 0, 0];
  for (const k of K) {
    const d = sdf(k.map((x, i) => f(p[i]! + f(x * e))));
    for (let i = 0; i < 3; i++) n[i] = f(n[i]! + f(k[i]! * d));
  }
  const l = len(n[0]!, n[1]!, n[2]!);
  return l > 0 ? (n.map((x) => f(x / l)) as P3) : [0, 1, 0];
}

function march(sdf: Sdf, from: P3, to: P3): { point: P3; hit: boolean } {
  const step = [0, 1, 2].map((k) => f(to[k]! - from[k]!));
  const l = len(step[0]!, step[1]!, step[2]!);
  const dir = l > 0 ? step.map((x) => f(x / l)) : [0, 0, 0];
  const at = (t: number): P3 => [0, 1, 2].map((k) => f(from[k]! + f(dir[k]! * t))) as P3;
  let t = 0;
  for (let i = 0; i < MARCH_STEPS; i++) {
    const d = sdf(at(t));
    if (d <= f(SKIN)) return { point: at(t), hit: true };
    if (t >= l) return { point: to, hit: false };
    t = Math.min(f(t + d), l);
  }
  return { point: at(t), hit: false };
}
