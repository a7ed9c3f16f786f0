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
import {
  SDF_GRID,
  SDF_KEYS,
  SDF_SOURCE,
  resolveSdfGrid,
  sdfGridReference,
  sdfValues,
  type SdfGrid,
} from './sdf-grid.js';

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
  | { readonly shape: 'plane'; readonly point: V3; readonly normal: V3 }
  | Heightfield
  | SdfGrid;

/**
 * Terrain: `heights[row · columns + column]` over a grid `size` = [x extent, z extent] centred at
 * `center` (row along z, column along x; a height is added to center.y), solid below, bilinear
 * between the samples; open at its sides (nothing collides outside its extent).
 */
export interface Heightfield {
  readonly shape: 'heightfield';
  readonly center: V3;
  readonly size: readonly [number, number];
  readonly columns: number;
  readonly heights: Float32Array;
}

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
/** Pushes out of a surface at a contact (one for an exact distance; a heightfield's may need more). */
const PUSH_STEPS = 4;
/** The offset of the tetrahedral normal's four samples. */
const NORMAL_EPSILON = 1e-3;

const OPTIONS = ['shapes', 'response', 'restitution', 'friction'];
const SHAPE_KEYS: Record<ColliderShape['shape'], readonly string[]> = {
  sphere: ['shape', 'center', 'radius', 'inside'],
  box: ['shape', 'center', 'size', 'inside'],
  capsule: ['shape', 'a', 'b', 'radius', 'inside'],
  plane: ['shape', 'point', 'normal'],
  heightfield: ['shape', 'center', 'size', 'columns', 'heights'],
  sdf: SDF_KEYS,
};

/** The source attribute a heightfield's samples are read as (one per grid point, in x). */
export const HEIGHT_SOURCE = 'colliderHeight';
const HEIGHTFIELDS = new WeakMap<object, Heightfield>();
const HEIGHT_TABLES = new WeakMap<Heightfield, Float32Array>();

/** The heightfield of a stack's colliders module, or null. */
export function heightfieldOf(o: {
  readonly modules: readonly { module: string; options: Readonly<Record<string, unknown>> }[];
}): Heightfield | null {
  const own = o.modules.find((m) => m.module === 'colliders')?.options as Colliders | undefined;
  return (own?.shapes.find((s) => s.shape === 'heightfield') as Heightfield | undefined) ?? null;
}

/** The baked SDF of a stack's colliders module, or null. */
export function sdfGridOf(o: {
  readonly modules: readonly { module: string; options: Readonly<Record<string, unknown>> }[];
}): SdfGrid | null {
  const own = o.modules.find((m) => m.module === 'colliders')?.options as Colliders | undefined;
  return (own?.shapes.find((s) => s.shape === 'sdf') as SdfGrid | undefined) ?? null;
}

/** A heightfield's samples as the table the kernel reads (x: the height). */
export function heightTable(h: Heightfield): Float32Array {
  let t = HEIGHT_TABLES.get(h);
  if (!t) {
    t = new Float32Array(4 * h.heights.length);
    h.heights.forEach((y, i) => (t![4 * i] = y));
    HEIGHT_TABLES.set(h, t);
  }
  return t;
}

/** 1 / √(1 + L²), L the steepest slope of a cell: the height above the surface times it is never more than the distance. */
function slopeScale(h: Heightfield): number {
  const rows = h.heights.length / h.columns;
  const dx = h.size[0] / (h.columns - 1);
  const dz = h.size[1] / (rows - 1);
  let lx = 0;
  let lz = 0;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < h.columns; c++) {
      const y = h.heights[r * h.columns + c] as number;
      if (c + 1 < h.columns)
        lx = Math.max(lx, Math.abs((h.heights[r * h.columns + c + 1] as number) - y) / dx);
      if (r + 1 < rows)
        lz = Math.max(lz, Math.abs((h.heights[(r + 1) * h.columns + c] as number) - y) / dz);
    }
  return 1 / Math.sqrt(1 + lx * lx + lz * lz);
}

function resolveShape(at: string, given: unknown): ColliderShape {
  object(at, given, "a shape: { shape: 'sphere' | 'box' | 'capsule' | 'plane', … }");
  const s = given as Record<string, unknown>;
  const kind = s['shape'];
  if (
    kind !== 'sphere' &&
    kind !== 'box' &&
    kind !== 'capsule' &&
    kind !== 'plane' &&
    kind !== 'heightfield' &&
    kind !== 'sdf'
  )
    throw new ParticleOptionError(
      `${at}.shape`,
      kind,
      "must be 'sphere', 'box', 'capsule', 'plane', 'heightfield' or 'sdf'",
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
  if (kind === 'sdf') return resolveSdfGrid(at, s);
  if (kind === 'heightfield') {
    const cached = HEIGHTFIELDS.get(s);
    if (cached) return cached;
    vector(`${at}.size`, s['size'], 2);
    const size = s['size'] as [number, number];
    if (size[0] <= 0 || size[1] <= 0)
      throw new ParticleOptionError(`${at}.size`, size, 'must be positive in x and z');
    const columns = s['columns'];
    if (!Number.isInteger(columns) || (columns as number) < 2)
      throw new ParticleOptionError(`${at}.columns`, columns, 'must be an integer of at least 2');
    const given = s['heights'];
    if (!(given instanceof Float32Array) && !Array.isArray(given))
      throw new ParticleOptionError(`${at}.heights`, given, 'must be an array of numbers');
    const heights = Float32Array.from(given as ArrayLike<number>);
    const rows = heights.length / (columns as number);
    if (!Number.isInteger(rows) || rows < 2)
      throw new ParticleOptionError(
        `${at}.heights`,
        `${heights.length} heights`,
        `must be columns (${String(columns)}) × rows, at least 2 rows`,
      );
    heights.forEach((y, i) => {
      if (!Number.isFinite(y))
        throw new ParticleOptionError(`${at}.heights[${i}]`, y, 'must be a finite number');
    });
    const field: Heightfield = {
      shape: kind,
      center: point('center'),
      size: [size[0], size[1]],
      columns: columns as number,
      heights,
    };
    HEIGHTFIELDS.set(s, field);
    HEIGHTFIELDS.set(field, field);
    return field;
  }
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
          : s.shape === 'heightfield'
            ? `colliderHeightfield(p, ${A}, ${B})`
            : s.shape === 'sdf'
              ? `colliderSdfGrid(p, ${A}, ${B})`
              : `dot(p, ${A}.xyz) - ${A}.w`;
  return s.shape !== 'plane' && s.shape !== 'heightfield' && s.shape !== 'sdf' && s.inside
    ? `-(${d})`
    : d;
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
  if (s.shape === 'sdf') return sdfValues(s);
  if (s.shape === 'heightfield')
    return [
      [...s.center, slopeScale(s)],
      [s.size[0], s.size[1], s.columns, s.heights.length / s.columns],
    ];
  const [nx, ny, nz] = s.normal;
  return [
    [nx, ny, nz, s.point[0] * nx + s.point[1] * ny + s.point[2] * nz],
    [0, 0, 0, 0],
  ];
}

/** A heightfield's height above its surface at p, times its slope scale (a distance bound); far outside its extent. */
const HEIGHTFIELD = `
fn colliderHeightfield(p: vec3f, a: vec4f, b: vec4f) -> f32 {
  let local = vec2f(p.x - a.x, p.z - a.z) / b.xy + vec2f(0.5);
  if (local.x < 0.0 || local.y < 0.0 || local.x > 1.0 || local.y > 1.0) {
    return 1e9;
  }
  let g = local * vec2f(b.z - 1.0, b.w - 1.0);
  let c = min(floor(g), vec2f(b.z - 2.0, b.w - 2.0));
  let t = g - c;
  let cols = u32(b.z);
  let i = u32(c.y) * cols + u32(c.x);
  let near = mix(ignisSource(i).${HEIGHT_SOURCE}.x, ignisSource(i + 1u).${HEIGHT_SOURCE}.x, t.x);
  let far = mix(ignisSource(i + cols).${HEIGHT_SOURCE}.x, ignisSource(i + cols + 1u).${HEIGHT_SOURCE}.x, t.x);
  return (p.y - a.y - mix(near, far, t.y)) * a.w;
}
`;

const HELPERS = (
  shapes: readonly ColliderShape[],
): string => `${shapes.some((s) => s.shape === 'heightfield') ? HEIGHTFIELD : ''}${shapes.some((s) => s.shape === 'sdf') ? SDF_GRID : ''}
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
fn colliderPush(start: vec3f) -> vec3f {
  var q = start;
  for (var k = 0u; k < ${PUSH_STEPS}u; k++) {
    let d = colliderSdf(q);
    if (d >= ${2 * SKIN}) {
      break;
    }
    q = q + colliderNormal(q) * (${2 * SKIN} - d);
  }
  return q;
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
    x = select(colliderAt.xyz, colliderPush(colliderAt.xyz), colliderHit);
    ${velocity}`;
}

export const colliders = defineModule({
  name: 'colliders',
  stage: 'update',
  summary:
    "analytic colliders (SDF union, no tunnelling): { shapes, response: 'bounce' | 'die' | 'stick', restitution, friction }",
  keys: [],
  present: () => false,
  resolve(o, own) {
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
    const resolvedShapes = shapes.map((s, i) => resolveShape(`colliders.shapes[${i}]`, s));
    const fields = resolvedShapes.filter((s) => s.shape === 'heightfield').length;
    if (fields > 1)
      throw new ParticleOptionError(
        'colliders.shapes',
        `${fields} heightfields`,
        'may hold one heightfield',
      );
    const grids = resolvedShapes.filter((s) => s.shape === 'sdf').length;
    if (grids > 1)
      throw new ParticleOptionError(
        'colliders.shapes',
        `${grids} baked SDFs`,
        'may hold one baked SDF',
      );
    if ((fields === 1 || grids === 1) && o.subEmitter !== null)
      throw new ParticleOptionError(
        'colliders.shapes',
        fields === 1 ? 'a heightfield' : 'a baked SDF',
        "cannot be read by a sub-emitter (its update reads its parent's events: a table beside them is not built)",
      );
    const resolved: Colliders = {
      shapes: resolvedShapes,
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
    const grid = c.shapes.some((s) => s.shape === 'sdf');
    const source = [
      ...(c.shapes.some((s) => s.shape === 'heightfield') ? [HEIGHT_SOURCE] : []),
      ...(grid ? [SDF_SOURCE] : []),
    ];
    return {
      key: `${c.response}:${c.shapes.map((s) => `${s.shape}${s.shape !== 'plane' && s.shape !== 'heightfield' && s.shape !== 'sdf' && s.inside ? ' inside' : ''}`).join(',')}`,
      uniforms,
      ...(source.length > 0 ? { source } : {}),
      helpers: HELPERS(c.shapes),
      collide: collideCode(c.response),
      ...(c.response === 'die' ? { kill: 'colliderHit' } : {}),
    };
  },
  checkDevice(device, o, path) {
    // found while building it: on Chromium's WebGL2 over SwiftShader (ANGLE) the fragment pass
    // that steps a baked SDF never finishes (no error, no loss); Firefox's WebGL2 (llvmpipe),
    // WebKit's and WebGPU's fragment path run the same kernel
    const a = device.caps.adapter;
    if (
      path === 'pingpong' &&
      device.caps.shaderLanguage === 'glsl' &&
      /swiftshader/i.test(`${a.vendor} ${a.architecture} ${a.description}`) &&
      sdfGridOf(o)
    )
      throw new ParticleOptionError(
        'colliders.shapes',
        'a baked SDF',
        "is not run by WebGL2's fragment path on SwiftShader (its pass does not finish there); give path: 'cpu' on this adapter",
      );
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
      [p.x, p.y, p.z] = push(sdf, at.point);
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
    if (s.shape === 'heightfield') return heightfieldSdf(s, A, B);
    if (s.shape === 'sdf') return sdfGridReference(s);
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

/** colliderHeightfield in float32. */
function heightfieldSdf(h: Heightfield, A: number[], B: number[]): Sdf {
  const mix = (a: number, b: number, t: number): number => f(f(a * f(1 - t)) + f(b * t));
  const y = (k: number): number => h.heights[k] as number;
  return (p) => {
    const lx = f(f(f(p[0]! - A[0]!) / B[0]!) + 0.5);
    const lz = f(f(f(p[2]! - A[2]!) / B[1]!) + 0.5);
    if (lx < 0 || lz < 0 || lx > 1 || lz > 1) return 1e9;
    const gx = f(lx * f(B[2]! - 1));
    const gz = f(lz * f(B[3]! - 1));
    const cx = Math.min(Math.floor(gx), B[2]! - 2);
    const cz = Math.min(Math.floor(gz), B[3]! - 2);
    const tx = f(gx - cx);
    const tz = f(gz - cz);
    const cols = B[2]!;
    const i = cz * cols + cx;
    const near = mix(y(i), y(i + 1), tx);
    const far = mix(y(i + cols), y(i + cols + 1), tx);
    return f(f(f(p[1]! - A[1]!) - mix(near, far, tz)) * A[3]!);
  };
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

/** colliderPush: out along the normal until 2·SKIN clear (a heightfield's bound may take more than one). */
function push(sdf: Sdf, from: P3): P3 {
  let q = from;
  for (let k = 0; k < PUSH_STEPS; k++) {
    const d = sdf(q);
    if (d >= f(2 * SKIN)) break;
    const n = normal(sdf, q);
    const by = f(f(2 * SKIN) - d);
    q = q.map((x, i) => f(x + f(n[i]! * by))) as P3;
  }
  return q;
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
