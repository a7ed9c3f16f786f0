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
 * table is made again when `setOptions` gives other vertices (a skinned mesh's posed vertices).
 *
 * A moving mesh: `transform` (a similarity: rotation, uniform scale, translation — so uniform by
 * area stays uniform) places it, and `velocity` and `angularVelocity` (a rigid body's motion, about
 * the transform's origin) are added to each particle's velocity at its birth. Giving the same
 * `positions` array each frame with a new transform keeps the table: only uniforms change.
 *
 * Per-vertex colours (`colors`, r, g, b[, a] 0…1 per vertex) tint what is born there: a fourth
 * column holds each triangle's three colours at 8 bits a channel (r, g, b packed in an integer a
 * float holds exactly, the three alphas in the fourth), and the spawn writes the `tint` attribute
 * — the corners' colours weighted as the birth point is — which the draw multiplies by.
 */
import { ParticleOptionError, object, vector } from '../errors.js';
import type { ParticleMesh, ParticleOptions } from '../options.js';
import type { UniformValue } from '../../compute/layout.js';
import { defineModule, type ReferenceSpawn } from './module.js';
import { TINT } from './sub-emitter.js';
import { Buffer } from '../../rhi/core/buffer.js';
import { BufferUsage, usageNames } from '../../rhi/core/flags.js';

const f = Math.fround;

/** The source attributes the table is read as (`ignisSource(k)`). */
export const MESH_SOURCE = ['meshA', 'meshB', 'meshC'] as const;
/** The column of a coloured mesh: its triangles' corner colours, packed (meshTable). */
export const MESH_COLOR = 'meshColor';

/** A mesh as its triangle table: per triangle a (xyz, the area before it), b (xyz, its area), c. */
export interface MeshTable {
  readonly triangles: number;
  readonly meshA: Float32Array;
  readonly meshB: Float32Array;
  readonly meshC: Float32Array;
  /** All the triangles' area (float32). */
  readonly area: number;
  /**
   * A coloured mesh's corner colours per triangle: x, y, z the rgb of a, b, c as r + 256 g +
   * 65536 b (8 bits each), w their alphas as α_a + 256 α_b + 65536 α_c. null: no colours.
   */
  readonly meshColor: Float32Array | null;
}

/** A colour 0…1 at 8 bits. */
const byte = (x: number): number => Math.round(x * 255);

/** Tables by the resolved vertices: a mesh moved by its transform keeps its table. */
const TABLES = new WeakMap<Float32Array, MeshTable>();
const RESOLVED = new WeakMap<object, ParticleMesh>();
/** The resolved vertices of the arrays given (the same arrays again: the same geometry). */
const GEOMETRY = new WeakMap<
  object,
  {
    posed: Buffer | null;
    indicesGiven: unknown;
    colorsGiven: unknown;
    positions: Float32Array;
    indices: Uint32Array | null;
    colors: Float32Array | null;
  }
>();

const IDENTITY = Float32Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);

/** The triangle table of a resolved mesh (made once per vertex array). */
export function meshTable(mesh: ParticleMesh): MeshTable {
  let t = TABLES.get(mesh.positions);
  if (t) return t;
  const { positions, indices } = mesh;
  const triangles = (indices ? indices.length : positions.length / 3) / 3;
  const meshA = new Float32Array(4 * triangles);
  const meshB = new Float32Array(4 * triangles);
  const meshC = new Float32Array(4 * triangles);
  const colors = mesh.colors;
  const meshColor = colors ? new Float32Array(4 * triangles) : null;
  let sum = 0;
  for (let k = 0; k < triangles; k++) {
    const v = [0, 1, 2].map((j) => (indices ? (indices[3 * k + j] as number) : 3 * k + j));
    if (colors && meshColor) {
      const c = (i: number, ch: number): number =>
        byte(colors[4 * (v[i] as number) + ch] as number);
      for (let i = 0; i < 3; i++) meshColor[4 * k + i] = c(i, 0) + 256 * c(i, 1) + 65536 * c(i, 2);
      meshColor[4 * k + 3] = c(0, 3) + 256 * c(1, 3) + 65536 * c(2, 3);
    }
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
  t = { triangles, meshA, meshB, meshC, area: f(sum), meshColor };
  TABLES.set(mesh.positions, t);
  return t;
}

/**
 * `positions` (x, y, z per vertex, finite, at least one triangle) and `indices` (three per
 * triangle, each a vertex; absent: a triangle list) of `given`, checked and named under `option`.
 */
export function triangles(
  option: string,
  given: Record<string, unknown>,
  /** The key the vertices are under (a skinned mesh's bind pose: restPositions). */
  key = 'positions',
): { positions: ArrayLike<number>; indices: Uint32Array | null } {
  const positions = numbers(`${option}.${key}`, given[key]);
  if (positions.length < 9 || positions.length % 3 !== 0)
    throw new ParticleOptionError(
      `${option}.${key}`,
      `${positions.length} numbers`,
      'must be x, y, z per vertex: a multiple of 3, at least one triangle',
    );
  for (let i = 0; i < positions.length; i++)
    if (!Number.isFinite(positions[i]))
      throw new ParticleOptionError(
        `${option}.${key}[${i}]`,
        positions[i],
        'must be a finite number',
      );
  const vertices = positions.length / 3;
  let indices: Uint32Array | null = null;
  if (given['indices'] !== undefined && given['indices'] !== null) {
    const idx = numbers(`${option}.indices`, given['indices']);
    if (idx.length < 3 || idx.length % 3 !== 0)
      throw new ParticleOptionError(
        `${option}.indices`,
        `${idx.length} indices`,
        'must be three per triangle',
      );
    for (let i = 0; i < idx.length; i++) {
      const x = idx[i] as number;
      if (!Number.isInteger(x) || x < 0 || x >= vertices)
        throw new ParticleOptionError(
          `${option}.indices[${i}]`,
          x,
          `must be a vertex index from 0 to ${vertices - 1}`,
        );
    }
    indices = Uint32Array.from(idx);
  } else if (vertices % 3 !== 0)
    throw new ParticleOptionError(
      `${option}.${key}`,
      `${vertices} vertices`,
      'without indices is a triangle list: a multiple of 3 vertices',
    );
  return { positions, indices };
}

export function numbers(option: string, v: unknown): ArrayLike<number> {
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
    object(
      'mesh',
      m,
      'null or { positions, indices, transform, velocity, angularVelocity, colors }',
    );
    // one resolved mesh per object given (and the resolved one is its own): options resolved again
    // keep it, so its table is made once; another object is another mesh
    const cached = RESOLVED.get(m as object);
    if (cached) return { mesh: cached };
    const given = m as Record<string, unknown>;
    for (const key of Object.keys(given))
      if (!MESH_KEYS.includes(key))
        throw new ParticleOptionError(
          `mesh.${key}`,
          given[key],
          `is not a mesh option (they are ${MESH_KEYS.join(', ')})`,
        );
    const motion = resolveMotion(given);
    // a skinned mesh posed on the GPU: its vertices a buffer the app writes, its bind pose an array
    const posed = given['positions'] instanceof Buffer ? given['positions'] : null;
    if (!posed && given['restPositions'] !== undefined)
      throw new ParticleOptionError(
        'mesh.restPositions',
        `${numbers('mesh.restPositions', given['restPositions']).length} numbers`,
        'is the bind pose of posed vertices in a GPU buffer: give positions as a Buffer (STORAGE usage), or leave restPositions out',
      );
    if (posed && given['restPositions'] === undefined)
      throw new ParticleOptionError(
        'mesh.restPositions',
        undefined,
        'must be the bind pose (x, y, z per vertex) of the posed vertices in the mesh.positions buffer: births are spread by its triangles’ areas',
      );
    const key = posed ? 'restPositions' : 'positions';
    // the same arrays again, with the same numbers (a pose written into them in place is another
    // geometry): the same resolved vertices, so the same table
    const geometry = GEOMETRY.get(given[key] as object);
    if (
      geometry &&
      geometry.posed === posed &&
      geometry.indicesGiven === given['indices'] &&
      geometry.colorsGiven === given['colors'] &&
      unchanged(geometry, { ...given, positions: given[key] })
    ) {
      const resolved: ParticleMesh = {
        positions: geometry.positions,
        indices: geometry.indices,
        ...motion,
        colors: geometry.colors,
        posed,
      };
      RESOLVED.set(m as object, resolved);
      RESOLVED.set(resolved, resolved);
      return { mesh: resolved };
    }
    const { positions, indices } = triangles('mesh', given, key);
    if (posed) {
      const vertices = positions.length / 3;
      if (!(posed.usage & BufferUsage.STORAGE))
        throw new ParticleOptionError(
          'mesh.positions',
          `a buffer of usage ${usageNames(posed.usage, BufferUsage)}`,
          'must have STORAGE usage: the update reads the posed vertices in a compute pass',
        );
      if (posed.size < 12 * vertices)
        throw new ParticleOptionError(
          'mesh.positions',
          `a buffer of ${posed.size} bytes`,
          `must hold x, y, z (float32) for each of the ${vertices} vertices of restPositions: ${12 * vertices} bytes`,
        );
    }
    if (o.subEmitter !== null)
      throw new ParticleOptionError(
        'mesh',
        'a sub-emitter',
        "cannot also be born on a mesh: a sub-emitter's particles are born where its parent's events are",
      );
    const colors = vertexColors('mesh.colors', given['colors'], positions.length / 3);
    const resolved: ParticleMesh = {
      positions: Float32Array.from(positions),
      indices,
      ...motion,
      colors,
      posed,
    };
    if (typeof given[key] === 'object' && given[key] !== null)
      GEOMETRY.set(given[key], {
        posed,
        indicesGiven: given['indices'],
        colorsGiven: given['colors'],
        positions: resolved.positions,
        indices,
        colors,
      });
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
  checkDevice(device, o, path) {
    const posed = o.mesh?.posed;
    if (!posed) return;
    if (posed.device !== device)
      throw new ParticleOptionError(
        'mesh.positions',
        'a buffer of another device',
        'must be a buffer of this device',
      );
    if (path !== 'compute')
      throw new ParticleOptionError(
        'mesh.positions',
        'a GPU buffer',
        `is read by the update on the compute path and this system runs on '${path}': give the posed vertices as an array instead (setOptions with each pose), which every path reads`,
      );
  },
  kernel: (o) => ({
    key: o.mesh?.colors ? 'mesh colored' : 'mesh',
    ...(o.mesh?.colors
      ? {
          helpers: MESH_TINT,
          // set at the birth and kept (a trail still reads it after its particle is gone)
          attributes: [
            { name: TINT, spawn: 'meshTint(meshTri.meshColor, meshS, r2)', persist: true },
          ],
        }
      : {}),
    uniforms: [
      ['meshArea', 'f32'],
      ['meshTriangles', 'u32'],
      ['meshX', 'vec4f'],
      ['meshY', 'vec4f'],
      ['meshZ', 'vec4f'],
      ['meshW', 'vec4f'],
      ['meshVelocity', 'vec4f'],
      ['meshSpin', 'vec4f'],
    ],
    source: o.mesh?.colors ? [...MESH_SOURCE, MESH_COLOR] : [...MESH_SOURCE],
    spawn: `f32 meshTarget = r0 * params.meshArea;
    u32 meshLo = 0u;
    u32 meshHi = params.meshTriangles - 1u;
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
    vec3f meshA3 = params.meshX.xyz * meshTri.meshA.x + params.meshY.xyz * meshTri.meshA.y + params.meshZ.xyz * meshTri.meshA.z + params.meshW.xyz;
    vec3f meshB3 = params.meshX.xyz * meshTri.meshB.x + params.meshY.xyz * meshTri.meshB.y + params.meshZ.xyz * meshTri.meshB.z + params.meshW.xyz;
    vec3f meshC3 = params.meshX.xyz * meshTri.meshC.x + params.meshY.xyz * meshTri.meshC.y + params.meshZ.xyz * meshTri.meshC.z + params.meshW.xyz;
    f32 meshS = sqrt(r1);
    vec3f meshAt = meshA3 * (1.0 - meshS) + meshB3 * (meshS * (1.0 - r2)) + meshC3 * (meshS * r2);
    vec3f meshN = normalize(cross(meshB3 - meshA3, meshC3 - meshA3));
    vec3f meshT = normalize(cross(meshN, select(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 0.0, 1.0), abs(meshN.x) > 0.9)));
    vec3f meshBi = cross(meshT, meshN);
    spawnPos = params.emitterPosition + meshAt;
    spawnVel = meshT * spawnVel.x + meshN * spawnVel.y + meshBi * spawnVel.z + params.meshVelocity.xyz + cross(params.meshSpin.xyz, meshAt - params.meshW.xyz);`,
  }),
  // read every step: made once per resolved mesh (its transform and motion are its own copies)
  values: (o) => (o.mesh ? meshValues(o.mesh) : NO_MESH_VALUES),
  reference: {
    attribute(own, name) {
      const birth = BIRTHS.get(own);
      if (name !== TINT || !birth)
        throw new Error("the reference tints a mesh's birth from the spawn just made");
      const { colors, weights } = birth;
      return [0, 1, 2, 3].map((ch) =>
        f(
          f(
            f((colors[0]![ch] as number) * weights[0]) + f((colors[1]![ch] as number) * weights[1]),
          ) + f((colors[2]![ch] as number) * weights[2]),
        ),
      );
    },
    spawn(o: ParticleOptions, own, s: ReferenceSpawn) {
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
      const m = o.mesh as ParticleMesh;
      const at = (arr: Float32Array): number[] =>
        place(
          m.transform,
          [0, 1, 2].map((d) => arr[4 * lo + d] as number),
        );
      const [a, b, c] = [at(t.meshA), at(t.meshB), at(t.meshC)] as [number[], number[], number[]];
      const sq = f(Math.sqrt(r[1]!));
      const wb = f(sq * f(1 - r[2]!));
      const wc = f(sq * r[2]!);
      const wa = f(1 - sq);
      const p = [0, 1, 2].map((d) => f(f(f(a[d]! * wa) + f(b[d]! * wb)) + f(c[d]! * wc)));
      if (t.meshColor)
        BIRTHS.set(own, { colors: cornerColors(t.meshColor, lo), weights: [wa, wb, wc] });
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
      // the mesh's motion at the birth point: velocity + angularVelocity × (point − origin)
      const origin = [0, 1, 2].map((d) => f(m.transform[12 + d] as number));
      const spin = cross(
        m.angularVelocity.map(f),
        p.map((x, d) => f(x - origin[d]!)),
      );
      const out = [0, 1, 2].map((d) =>
        f(
          f(f(f(f(tg[d]! * v[0]!) + f(n[d]! * v[1]!)) + f(bi[d]! * v[2]!)) + f(m.velocity[d]!)) +
            spin[d]!,
        ),
      );
      [s.vx, s.vy, s.vz] = out as [number, number, number];
    },
  },
});

/**
 * The tint at a birth: the triangle's corner colours (meshTable's packing: 8 bits a channel) times
 * the birth point's weights (1 − √r1, √r1 (1 − r2), √r1 r2).
 */
const MESH_TINT = `
vec4f meshCorner(f32 rgb, f32 alphas, u32 shift) {
  u32 c = u32(rgb);
  u32 a = u32(alphas);
  return vec4f(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u), f32((a >> shift) & 255u)) * 0.003921568859368563;
}
vec4f meshTint(vec4f packed, f32 s, f32 r2) {
  return meshCorner(packed.x, packed.w, 0u) * (1.0 - s) + meshCorner(packed.y, packed.w, 8u) * (s * (1.0 - r2)) + meshCorner(packed.z, packed.w, 16u) * (s * r2);
}
`;

/** The reference's last birth on a coloured mesh, by the module's options: what its tint reads. */
const BIRTHS = new WeakMap<object, { colors: number[][]; weights: [number, number, number] }>();

/** Triangle k's corner colours from meshTable's packing, float32 as the kernel unpacks them. */
function cornerColors(packed: Float32Array, k: number): number[][] {
  const alphas = packed[4 * k + 3] as number;
  return [0, 1, 2].map((i) => {
    const rgb = packed[4 * k + i] as number;
    return [rgb, rgb >>> 8, rgb >>> 16, alphas >>> (8 * i)].map((x) => f((x & 255) * f(1 / 255)));
  });
}

const MESH_KEYS = [
  'positions',
  'indices',
  'transform',
  'velocity',
  'angularVelocity',
  'colors',
  'restPositions',
];

/**
 * `colors` given for `vertices` vertices (3 or 4 numbers 0…1 each), as r, g, b, a per vertex (a
 * missing alpha 1); null when none are given.
 */
function vertexColors(option: string, given: unknown, vertices: number): Float32Array | null {
  if (given === undefined || given === null) return null;
  const c = numbers(option, given);
  const per = c.length === 4 * vertices ? 4 : c.length === 3 * vertices ? 3 : 0;
  if (per === 0)
    throw new ParticleOptionError(
      option,
      `${c.length} numbers`,
      `must be 3 (r, g, b) or 4 (r, g, b, a) per vertex: ${3 * vertices} or ${4 * vertices} for ${vertices} vertices`,
    );
  const out = new Float32Array(4 * vertices).fill(1);
  for (let i = 0; i < c.length; i++) {
    const x = c[i] as number;
    if (!(x >= 0 && x <= 1))
      throw new ParticleOptionError(`${option}[${i}]`, x, 'must be a number from 0 to 1');
    out[4 * Math.floor(i / per) + (i % per)] = x;
  }
  return out;
}

/** A mesh's uniforms: its area, its transform's columns, its motion. */
function uniformsOf(m: ParticleMesh | null): Record<string, UniformValue> {
  const t = m?.transform ?? IDENTITY;
  const column = (c: number): [number, number, number, number] => [
    t[4 * c] as number,
    t[4 * c + 1] as number,
    t[4 * c + 2] as number,
    0,
  ];
  return {
    meshArea: m ? meshTable(m).area : 0,
    // the table's rows may be more (a field's or a heightfield's beside it): the search's bound
    meshTriangles: m ? meshTable(m).triangles : 1,
    meshX: column(0),
    meshY: column(1),
    meshZ: column(2),
    meshW: column(3),
    meshVelocity: [...(m?.velocity ?? [0, 0, 0]), 0],
    meshSpin: [...(m?.angularVelocity ?? [0, 0, 0]), 0],
  };
}
const VALUES = new WeakMap<ParticleMesh, Record<string, UniformValue>>();
const NO_MESH_VALUES = uniformsOf(null);
function meshValues(m: ParticleMesh): Record<string, UniformValue> {
  let v = VALUES.get(m);
  if (!v) VALUES.set(m, (v = uniformsOf(m)));
  return v;
}

/** Whether the arrays given still hold the numbers `geometry` was resolved from. */
function unchanged(
  geometry: { positions: Float32Array; indices: Uint32Array | null; colors: Float32Array | null },
  given: Record<string, unknown>,
): boolean {
  const p = given['positions'] as ArrayLike<number>;
  if (p.length !== geometry.positions.length) return false;
  for (let i = 0; i < p.length; i++) if (f(p[i] as number) !== geometry.positions[i]) return false;
  const c = given['colors'] as ArrayLike<number> | null | undefined;
  if (!c || !geometry.colors) {
    if (c || geometry.colors) return false;
  } else {
    const per = (4 * c.length) / geometry.colors.length;
    if (per !== 3 && per !== 4) return false;
    for (let i = 0; i < c.length; i++)
      if (f(c[i] as number) !== geometry.colors[4 * Math.floor(i / per) + (i % per)]) return false;
  }
  const idx = given['indices'] as ArrayLike<number> | null | undefined;
  if (!idx || !geometry.indices) return !idx && !geometry.indices;
  if (idx.length !== geometry.indices.length) return false;
  for (let i = 0; i < idx.length; i++) if (idx[i] !== geometry.indices[i]) return false;
  return true;
}

/** The mesh's transform (a similarity) and motion, checked; defaults for what is left out. */
function resolveMotion(
  given: Record<string, unknown>,
): Pick<ParticleMesh, 'transform' | 'velocity' | 'angularVelocity'> {
  let transform = IDENTITY;
  if (given['transform'] !== undefined) {
    const m = numbers('mesh.transform', given['transform']);
    if (m.length !== 16)
      throw new ParticleOptionError(
        'mesh.transform',
        `${m.length} numbers`,
        'must be a 4×4 matrix: 16 numbers, column-major',
      );
    for (let i = 0; i < 16; i++)
      if (!Number.isFinite(m[i]))
        throw new ParticleOptionError(`mesh.transform[${i}]`, m[i], 'must be a finite number');
    if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1)
      throw new ParticleOptionError(
        'mesh.transform',
        `a last row of ${m[3]}, ${m[7]}, ${m[11]}, ${m[15]}`,
        'must be affine: its last row 0, 0, 0, 1',
      );
    // a similarity: its three columns as long as each other and at right angles, so the table's
    // areas (made once, in the mesh's own space) stay proportional to the placed ones
    const col = (c: number): number[] => [m[4 * c]!, m[4 * c + 1]!, m[4 * c + 2]!];
    const dot = (u: number[], v: number[]): number => u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
    const [x, y, z] = [col(0), col(1), col(2)];
    const scale = dot(x, x);
    const off = Math.max(
      Math.abs(dot(y, y) - scale),
      Math.abs(dot(z, z) - scale),
      Math.abs(dot(x, y)),
      Math.abs(dot(y, z)),
      Math.abs(dot(x, z)),
    );
    if (!(scale > 0) || off > 1e-4 * scale)
      throw new ParticleOptionError(
        'mesh.transform',
        'a matrix that scales unevenly, shears or collapses',
        'must be a rotation, a uniform scale and a translation (births stay uniform by area only then)',
      );
    transform = Float32Array.from(m);
  }
  const velocity = given['velocity'] ?? [0, 0, 0];
  vector('mesh.velocity', velocity, 3);
  const angularVelocity = given['angularVelocity'] ?? [0, 0, 0];
  vector('mesh.angularVelocity', angularVelocity, 3);
  return {
    transform,
    velocity: velocity as [number, number, number],
    angularVelocity: angularVelocity as [number, number, number],
  };
}

/** A mesh-space point placed by `m` (column-major), float32 as the kernel computes it. */
function place(m: Float32Array, p: readonly number[]): number[] {
  return [0, 1, 2].map((d) =>
    f(f(f(f(m[d]! * p[0]!) + f(m[4 + d]! * p[1]!)) + f(m[8 + d]! * p[2]!)) + m[12 + d]!),
  );
}

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
