/**
 * Spawn: emission from a triangle mesh — particles are born on its surface, uniformly by area, and
 * the emitter's "up" becomes the surface's normal there: the velocity module's speed and spread
 * (or its cone) are taken about the normal, so sparks shoot out of the surface. `mesh: {
 * positions, indices }` (plain arrays: x, y, z per vertex; three vertex indices per triangle, or
 * none for a triangle list), placed at `emitter.position`.
 *
 * Every path runs it the same: the triangles are a table — a, b, c and the area before each, in
 * three attributes of a small runner on the system's path (storage buffers, textures or arrays:
 * what a sub-emitter's parent is) — and each spawn binary-searches the running sums for the
 * triangle its first random picks, then a point in it from two more (√r1 for uniform area). The
 * table is made again when `setOptions` gives another mesh (a skinned mesh's posed vertices).
 */
import { ParticleOptionError, object } from '../errors.js';
import type { ParticleMesh, ParticleOptions } from '../options.js';
import { defineModule, type ReferenceSpawn } from './module.js';

const f = Math.fround;

/** The source attributes the table is read as (`ignisSource(k)`). */
export const MESH_SOURCE = ['meshA', 'meshB', 'meshC'] as const;

/** A mesh as its triangle table: per triangle a (xyz, the area before it), b (xyz, its area), c. */
export interface MeshTable {
  readonly triangles: number;
  readonly meshA: Float32Array;
  readonly meshB: Float32Array;
  readonly meshC: Float32Array;
  /** All the triangles' area (float32). */
  readonly area: number;
}

const TABLES = new WeakMap<ParticleMesh, MeshTable>();
const RESOLVED = new WeakMap<object, ParticleMesh>();

/** The triangle table of a resolved mesh (made once per mesh object). */
export function meshTable(mesh: ParticleMesh): MeshTable {
  let t = TABLES.get(mesh);
  if (t) return t;
  const { positions, indices } = mesh;
  const triangles = (indices ? indices.length : positions.length / 3) / 3;
  const meshA = new Float32Array(4 * triangles);
  const meshB = new Float32Array(4 * triangles);
  const meshC = new Float32Array(4 * triangles);
  let sum = 0;
  for (let k = 0; k < triangles; k++) {
    const v = [0, 1, 2].map((j) => (indices ? (indices[3 * k + j] as number) : 3 * k + j));
    const [a, b, c] = v.map((i) => [0, 1, 2].map((d) => positions[3 * i + d] as number)) as [
      number[],
      number[],
      number[],
    ];
    const u = [0, 1, 2].map((d) => b[d]! - a[d]!);
    const w = [0, 1, 2].map((d) => c[d]! - a[d]!);
    const area =
      0.5 *
      Math.hypot(
        u[1]! * w[2]! - u[2]! * w[1]!,
        u[2]! * w[0]! - u[0]! * w[2]!,
        u[0]! * w[1]! - u[1]! * w[0]!,
      );
    meshA.set([...a, sum], 4 * k);
    meshB.set([...b, area], 4 * k);
    meshC.set([...c, 0], 4 * k);
    sum += area;
  }
  t = { triangles, meshA, meshB, meshC, area: f(sum) };
  TABLES.set(mesh, t);
  return t;
}

function numbers(option: string, v: unknown): ArrayLike<number> {
  const ok =
    v instanceof Float32Array ||
    v instanceof Float64Array ||
    v instanceof Uint32Array ||
    v instanceof Uint16Array ||
    v instanceof Int32Array ||
    (Array.isArray(v) && v.every((x) => typeof x === 'number'));
  if (!ok)
    throw new ParticleOptionError(option, v, 'must be an array of numbers (or a typed array)');
  return v as ArrayLike<number>;
}

export const mesh = defineModule({
  name: 'mesh',
  stage: 'spawn',
  summary:
    'born on a triangle mesh, uniformly by area, the velocity about the normal: mesh { positions, indices }',
  keys: ['mesh'],
  present: (o) => o.mesh !== null,
  resolve(o) {
    const m = o.mesh as unknown;
    if (m === null) return { mesh: null };
    object('mesh', m, 'null or { positions, indices }');
    const given = m as Record<string, unknown>;
    for (const key of Object.keys(given))
      if (key !== 'positions' && key !== 'indices')
        throw new ParticleOptionError(
          `mesh.${key}`,
          given[key],
          'is not a mesh option (they are positions, indices)',
        );
    const positions = numbers('mesh.positions', given['positions']);
    if (positions.length < 9 || positions.length % 3 !== 0)
      throw new ParticleOptionError(
        'mesh.positions',
        `${positions.length} numbers`,
        'must be x, y, z per vertex: a multiple of 3, at least one triangle',
      );
    for (let i = 0; i < positions.length; i++)
      if (!Number.isFinite(positions[i]))
        throw new ParticleOptionError(
          `mesh.positions[${i}]`,
          positions[i],
          'must be a finite number',
        );
    const vertices = positions.length / 3;
    let indices: Uint32Array | null = null;
    if (given['indices'] !== undefined && given['indices'] !== null) {
      const idx = numbers('mesh.indices', given['indices']);
      if (idx.length < 3 || idx.length % 3 !== 0)
        throw new ParticleOptionError(
          'mesh.indices',
          `${idx.length} indices`,
          'must be three per triangle',
        );
      for (let i = 0; i < idx.length; i++) {
        const x = idx[i] as number;
        if (!Number.isInteger(x) || x < 0 || x >= vertices)
          throw new ParticleOptionError(
            `mesh.indices[${i}]`,
            x,
            `must be a vertex index from 0 to ${vertices - 1}`,
          );
      }
      indices = Uint32Array.from(idx);
    } else if (vertices % 3 !== 0)
      throw new ParticleOptionError(
        'mesh.positions',
        `${vertices} vertices`,
        'without indices is a triangle list: a multiple of 3 vertices',
      );
    if (o.subEmitter !== null)
      throw new ParticleOptionError(
        'mesh',
        'a sub-emitter',
        "cannot also be born on a mesh: a sub-emitter's particles are born where its parent's events are",
      );
    // one resolved mesh per object given (and the resolved one is its own): options resolved again
    // keep it, so its table is made once; another object is another mesh
    const cached = RESOLVED.get(m as object);
    if (cached) return { mesh: cached };
    const resolved: ParticleMesh = { positions: Float32Array.from(positions), indices };
    RESOLVED.set(m as object, resolved);
    RESOLVED.set(resolved, resolved);
    if (!(meshTable(resolved).area > 0))
      throw new ParticleOptionError(
        'mesh',
        `${meshTable(resolved).triangles} triangles`,
        'has no area (every triangle is degenerate)',
      );
    return { mesh: resolved };
  },
  kernel: () => ({
    key: 'mesh',
    uniforms: [['meshArea', 'f32']],
    source: [...MESH_SOURCE],
    spawn: `f32 meshTarget = r0 * params.meshArea;
    u32 meshLo = 0u;
    u32 meshHi = params.sourceCount - 1u;
    for (var meshStep = 0u; meshStep < 32u; meshStep++) {
      if (meshLo >= meshHi) {
        break;
      }
      u32 meshMid = (meshLo + meshHi + 1u) / 2u;
      if (ignisSource(meshMid).meshA.w <= meshTarget) {
        meshLo = meshMid;
      } else {
        meshHi = meshMid - 1u;
      }
    }
    let meshTri = ignisSource(meshLo);
    f32 meshS = sqrt(r1);
    vec3f meshAt = meshTri.meshA.xyz * (1.0 - meshS) + meshTri.meshB.xyz * (meshS * (1.0 - r2)) + meshTri.meshC.xyz * (meshS * r2);
    vec3f meshN = normalize(cross(meshTri.meshB.xyz - meshTri.meshA.xyz, meshTri.meshC.xyz - meshTri.meshA.xyz));
    vec3f meshT = normalize(cross(meshN, select(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 0.0, 1.0), abs(meshN.x) > 0.9)));
    vec3f meshBi = cross(meshT, meshN);
    spawnPos = params.emitterPosition + meshAt;
    spawnVel = meshT * spawnVel.x + meshN * spawnVel.y + meshBi * spawnVel.z;`,
  }),
  values: (o) => ({ meshArea: o.mesh ? meshTable(o.mesh).area : 0 }),
  reference: {
    spawn(o: ParticleOptions, _own, s: ReferenceSpawn) {
      const t = meshTable(o.mesh as ParticleMesh);
      const r = s.r as number[];
      const target = f(r[0]! * t.area);
      let lo = 0;
      let hi = t.triangles - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if ((t.meshA[4 * mid + 3] as number) <= target) lo = mid;
        else hi = mid - 1;
      }
      const at = (arr: Float32Array): number[] => [0, 1, 2].map((d) => arr[4 * lo + d] as number);
      const [a, b, c] = [at(t.meshA), at(t.meshB), at(t.meshC)] as [number[], number[], number[]];
      const sq = f(Math.sqrt(r[1]!));
      const wb = f(sq * f(1 - r[2]!));
      const wc = f(sq * r[2]!);
      const wa = f(1 - sq);
      const p = [0, 1, 2].map((d) => f(f(f(a[d]! * wa) + f(b[d]! * wb)) + f(c[d]! * wc)));
      const u = [0, 1, 2].map((d) => f(b[d]! - a[d]!));
      const w = [0, 1, 2].map((d) => f(c[d]! - a[d]!));
      const n = normalize([
        f(f(u[1]! * w[2]!) - f(u[2]! * w[1]!)),
        f(f(u[2]! * w[0]!) - f(u[0]! * w[2]!)),
        f(f(u[0]! * w[1]!) - f(u[1]! * w[0]!)),
      ]);
      const axis = Math.abs(n[0]!) > 0.9 ? [0, 0, 1] : [1, 0, 0];
      const tg = normalize(cross(n, axis));
      const bi = cross(tg, n);
      const e = o.emitter.position.map(f);
      s.px = f(e[0]! + p[0]!);
      s.py = f(e[1]! + p[1]!);
      s.pz = f(e[2]! + p[2]!);
      const v = [s.vx, s.vy, s.vz];
      const out = [0, 1, 2].map((d) =>
        f(f(f(tg[d]! * v[0]!) + f(n[d]! * v[1]!)) + f(bi[d]! * v[2]!)),
      );
      [s.vx, s.vy, s.vz] = out as [number, number, number];
    },
  },
});

function cross(a: readonly number[], b: readonly number[]): number[] {
  return [
    f(f(a[1]! * b[2]!) - f(a[2]! * b[1]!)),
    f(f(a[2]! * b[0]!) - f(a[0]! * b[2]!)),
    f(f(a[0]! * b[1]!) - f(a[1]! * b[0]!)),
  ];
}

function normalize(v: readonly number[]): number[] {
  const l = f(Math.sqrt(f(f(f(v[0]! * v[0]!) + f(v[1]! * v[1]!)) + f(v[2]! * v[2]!))));
  return v.map((x) => f(x / l));
}
