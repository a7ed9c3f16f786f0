/**
 * A baked signed distance field as a collider shape (the colliders module's `{ shape: 'sdf' }`):
 * distances on a grid of nodes over a box of the world (x fastest, then y, then z; negative
 * inside), sampled trilinearly — any solid a distance function or a mesh can describe, baked once
 * (`meshSdf` bakes a closed triangle mesh). Like a heightfield its samples are a table the update
 * reads (a column beside a mesh's, a field's or a heightfield's).
 *
 * The march needs a distance bound: the trilinear field g changes by at most √3 per unit (each
 * axis's slope is a mix of edge differences, each at most 1 for distances), so |g|/√3 is never
 * more than the distance to g's zero set — the surface particles meet. Outside the box, from the
 * nearest point c of the box (the solid is within the box): √(|p − c|² + max(g(c)/√3, 0)²).
 */
import { ParticleOptionError, vector } from '../errors.js';

type V3 = readonly [number, number, number];
const f = Math.fround;

/** A baked SDF, resolved. */
export interface SdfGrid {
  readonly shape: 'sdf';
  readonly min: V3;
  readonly max: V3;
  /** Nodes per axis (at least 2 each). */
  readonly size: V3;
  /** One distance per node, x fastest. */
  readonly distances: Float32Array;
}

/** The most nodes a baked SDF may have (32³, as a vector field). */
export const MAX_SDF_NODES = 32768;
/** The source attribute a baked SDF's distances are read as. */
export const SDF_SOURCE = 'colliderSdfGrid';
export const SDF_KEYS = ['shape', 'min', 'max', 'size', 'distances'] as const;
const INV_SQRT3 = 1 / Math.sqrt(3);

const GRIDS = new WeakMap<object, SdfGrid>();
const TABLES = new WeakMap<SdfGrid, Float32Array>();

/** `{ shape: 'sdf', min, max, size, distances }` checked (`at`: the option's name). */
export function resolveSdfGrid(at: string, s: Record<string, unknown>): SdfGrid {
  const cached = GRIDS.get(s);
  if (cached) return cached;
  vector(`${at}.min`, s['min'], 3);
  vector(`${at}.max`, s['max'], 3);
  const min = [...(s['min'] as number[])] as unknown as V3;
  const max = [...(s['max'] as number[])] as unknown as V3;
  if (!min.every((x, i) => x < max[i]!))
    throw new ParticleOptionError(
      `${at}.max`,
      max,
      `must be above min (${min.join(', ')}) on every axis`,
    );
  vector(`${at}.size`, s['size'], 3);
  const size = [...(s['size'] as number[])] as unknown as V3;
  if (!size.every((n) => Number.isInteger(n) && n >= 2))
    throw new ParticleOptionError(
      `${at}.size`,
      size,
      'must be three integers of at least 2 (nodes per axis)',
    );
  const nodes = size[0] * size[1] * size[2];
  if (nodes > MAX_SDF_NODES)
    throw new ParticleOptionError(
      `${at}.size`,
      size,
      `has ${nodes} nodes; at most ${MAX_SDF_NODES}`,
    );
  const given = s['distances'];
  if (!(given instanceof Float32Array) && !Array.isArray(given))
    throw new ParticleOptionError(`${at}.distances`, given, 'must be an array of numbers');
  if ((given as ArrayLike<number>).length !== nodes)
    throw new ParticleOptionError(
      `${at}.distances`,
      `${(given as ArrayLike<number>).length} numbers`,
      `must be one per node: ${size.join(' × ')} = ${nodes}`,
    );
  const distances = Float32Array.from(given as ArrayLike<number>);
  distances.forEach((d, i) => {
    if (!Number.isFinite(d))
      throw new ParticleOptionError(`${at}.distances[${i}]`, d, 'must be a finite number');
  });
  const grid: SdfGrid = { shape: 'sdf', min, max, size, distances };
  GRIDS.set(s, grid);
  GRIDS.set(grid, grid);
  return grid;
}

/** The grid's distances as the table the kernel reads (x: the distance; row 0's yzw: the node counts). */
export function sdfTable(g: SdfGrid): Float32Array {
  let t = TABLES.get(g);
  if (!t) {
    t = new Float32Array(4 * g.distances.length);
    g.distances.forEach((d, i) => (t![4 * i] = d));
    // the node counts ride in the first row (the kernel reads them there: no uniform)
    t.set(g.size, 1);
    TABLES.set(g, t);
  }
  return t;
}

/** The shape's two uniforms: min and 1/√3; nodes per unit along each axis and nx. */
export function sdfValues(g: SdfGrid): [number[], number[]] {
  return [
    [...g.min, INV_SQRT3],
    [...[0, 1, 2].map((i) => (g.size[i]! - 1) / (g.max[i]! - g.min[i]!)), 0],
  ];
}

/**
 * colliderSdfGrid(p, a, b): the baked SDF's bound at p (a: min, 1/√3; b: nodes per unit; the
 * node counts in the table's first row).
 */
export const SDF_GRID = `
fn colliderSdfNode(k: u32) -> f32 {
  return ignisSource(k).${SDF_SOURCE}.x;
}
fn colliderSdfAt(g: vec3f, n: vec3f) -> f32 {
  let c = min(floor(g), n - vec3f(2.0));
  let t = g - c;
  let nx = u32(n.x);
  let nxy = nx * u32(n.y);
  let k = u32(c.x) + nx * u32(c.y) + nxy * u32(c.z);
  let x00 = mix(colliderSdfNode(k), colliderSdfNode(k + 1u), t.x);
  let x10 = mix(colliderSdfNode(k + nx), colliderSdfNode(k + nx + 1u), t.x);
  let x01 = mix(colliderSdfNode(k + nxy), colliderSdfNode(k + nxy + 1u), t.x);
  let x11 = mix(colliderSdfNode(k + nxy + nx), colliderSdfNode(k + nxy + nx + 1u), t.x);
  return mix(mix(x00, x10, t.y), mix(x01, x11, t.y), t.z);
}
fn colliderSdfGrid(p: vec3f, a: vec4f, b: vec4f) -> f32 {
  let n = ignisSource(0u).${SDF_SOURCE}.yzw;
  let g = (p - a.xyz) * b.xyz;
  let inBox = clamp(g, vec3f(0.0), n - vec3f(1.0));
  let d = colliderSdfAt(inBox, n) * a.w;
  let away = (g - inBox) / b.xyz;
  let far = dot(away, away);
  return select(d, sqrt(far + max(d, 0.0) * max(d, 0.0)), far > 0.0);
}
`;

/** colliderSdfGrid in float32 (the reference). */
export function sdfGridReference(g: SdfGrid): (p: readonly number[]) => number {
  const [A, B] = sdfValues(g).map((v) => v.map(f)) as [number[], number[]];
  const n = g.size;
  const mix = (a: number, b: number, t: number): number => f(f(a * f(1 - t)) + f(b * t));
  const node = (x: number, y: number, z: number): number =>
    g.distances[x + n[0] * (y + n[1] * z)] as number;
  return (p) => {
    const gp = [0, 1, 2].map((k) => f(f(p[k]! - A[k]!) * B[k]!));
    const inBox = gp.map((x, k) => Math.min(Math.max(x, 0), n[k]! - 1));
    const c = inBox.map((x, k) => Math.min(Math.floor(x), n[k]! - 2));
    const t = inBox.map((x, k) => f(x - c[k]!));
    const [cx, cy, cz] = c as [number, number, number];
    const [tx, ty, tz] = t as [number, number, number];
    const x00 = mix(node(cx, cy, cz), node(cx + 1, cy, cz), tx);
    const x10 = mix(node(cx, cy + 1, cz), node(cx + 1, cy + 1, cz), tx);
    const x01 = mix(node(cx, cy, cz + 1), node(cx + 1, cy, cz + 1), tx);
    const x11 = mix(node(cx, cy + 1, cz + 1), node(cx + 1, cy + 1, cz + 1), tx);
    const d = f(mix(mix(x00, x10, ty), mix(x01, x11, ty), tz) * A[3]!);
    const away = gp.map((x, k) => f(f(x - inBox[k]!) / B[k]!));
    const out = f(f(f(away[0]! * away[0]!) + f(away[1]! * away[1]!)) + f(away[2]! * away[2]!));
    if (!(out > 0)) return d;
    const m = Math.max(d, 0);
    return f(Math.sqrt(f(out + f(m * m))));
  };
}

/**
 * Bakes a closed triangle mesh (counter-clockwise seen from outside) into a signed distance grid
 * over [min, max] with `size` nodes per axis: at each node the distance to the nearest triangle,
 * negative where the mesh's winding number says the node is inside. Brute force (nodes ×
 * triangles): meant for small meshes, baked once.
 */
export function meshSdf(
  mesh: { positions: ArrayLike<number>; indices?: ArrayLike<number> | null },
  grid: { min: V3; max: V3; size: V3 },
): { shape: 'sdf'; min: V3; max: V3; size: V3; distances: Float32Array } {
  const { positions } = mesh;
  const indices = mesh.indices ?? Array.from({ length: positions.length / 3 }, (_, i) => i);
  const triangles = indices.length / 3;
  const v = (i: number): V3 => [positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!];
  const tris = Array.from({ length: triangles }, (_, t) =>
    [0, 1, 2].map((j) => v(indices[3 * t + j]!)),
  ) as [V3, V3, V3][];
  const [nx, ny, nz] = grid.size;
  const distances = new Float32Array(nx * ny * nz);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const p = [x, y, z].map(
          (k, i) => grid.min[i]! + (k * (grid.max[i]! - grid.min[i]!)) / (grid.size[i]! - 1),
        ) as unknown as V3;
        let nearest = Infinity;
        let winding = 0;
        for (const [a, b, c] of tris) {
          nearest = Math.min(nearest, triangleDistance(p, a, b, c));
          winding += solidAngle(p, a, b, c);
        }
        // inside where the winding number is ±1 (a mesh wound either way round)
        distances[x + nx * (y + ny * z)] =
          Math.abs(winding) / (4 * Math.PI) > 0.5 ? -nearest : nearest;
      }
  return { shape: 'sdf', min: grid.min, max: grid.max, size: grid.size, distances };
}

const sub = (a: V3, b: V3): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot3 = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross3 = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** The signed solid angle of triangle abc seen from p (Van Oosterom and Strackee). */
function solidAngle(p: V3, a: V3, b: V3, c: V3): number {
  const [ra, rb, rc] = [sub(a, p), sub(b, p), sub(c, p)];
  const [la, lb, lc] = [ra, rb, rc].map((r) => Math.hypot(...r)) as [number, number, number];
  const numerator = dot3(ra, cross3(rb, rc));
  const denominator = la * lb * lc + dot3(ra, rb) * lc + dot3(ra, rc) * lb + dot3(rb, rc) * la;
  return 2 * Math.atan2(numerator, denominator);
}

/** The distance from p to triangle abc (Ericson, Real-Time Collision Detection, 5.1.5). */
function triangleDistance(p: V3, a: V3, b: V3, c: V3): number {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const ap = sub(p, a);
  const d1 = dot3(ab, ap);
  const d2 = dot3(ac, ap);
  const at = (q: V3): number => Math.hypot(...sub(p, q));
  if (d1 <= 0 && d2 <= 0) return at(a);
  const bp = sub(p, b);
  const d3 = dot3(ab, bp);
  const d4 = dot3(ac, bp);
  if (d3 >= 0 && d4 <= d3) return at(b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 / (d1 - d3);
    return at([a[0] + ab[0] * t, a[1] + ab[1] * t, a[2] + ab[2] * t]);
  }
  const cp = sub(p, c);
  const d5 = dot3(ab, cp);
  const d6 = dot3(ac, cp);
  if (d6 >= 0 && d5 <= d6) return at(c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 / (d2 - d6);
    return at([a[0] + ac[0] * t, a[1] + ac[1] * t, a[2] + ac[2] * t]);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return at([b[0] + (c[0] - b[0]) * t, b[1] + (c[1] - b[1]) * t, b[2] + (c[2] - b[2]) * t]);
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return at([
    a[0] + ab[0] * v + ac[0] * w,
    a[1] + ab[1] * v + ac[1] * w,
    a[2] + ab[2] * v + ac[2] * w,
  ]);
}
