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
 *
 * A colour texture (`uvs`, u, v per vertex, and `colorMap`, rgba8 pixels: an ImageData or a glTF
 * base colour image decoded) tints each birth by the texture at its birth point's coordinates: one
 * more column holds each triangle's corner coordinates (the third corner's in b's and c's w), and the map's texels are rows of the table
 * (`meshTexel`), read four at a time for a bilinear sample with repeat — on every path the same
 * table, so the fragment and CPU paths sample what the compute path does.
 */
import { ParticleOptionError, object, vector } from '../errors.js';
import type { ParticleColorMap, ParticleMesh, ParticleOptions } from '../options.js';
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
/**
 * The column of a textured mesh: its triangles' corner coordinates ua, va, ub, vb (uc and vc are
 * the w of meshB and meshC: a step binds a storage buffer per column, and devices may bind 8).
 */
export const MESH_UV = 'meshUV';
/** The column of a colour map's texels (r, g, b, a 0…1; row y · width + x). */
export const MESH_TEXEL = 'meshTexel';
/** The most texels a colour map may have (512 × 512: 4 MiB of table). */
export const MAX_MAP_TEXELS = 512 * 512;

/**
 * A mesh as its triangle table: per triangle a (xyz, the area before it), b (xyz, its area — or a
 * textured mesh's uc), c (xyz, 0 — or vc).
 */
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
  /**
   * A textured mesh's corner coordinates per triangle: ua, va, ub, vb (uc in meshB's w, vc in
   * meshC's, where an untextured mesh has b's area and 0). null: none.
   */
  readonly meshUV: Float32Array | null;
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
    uvsGiven: unknown;
    mapGiven: unknown;
    positions: Float32Array;
    indices: Uint32Array | null;
    colors: Float32Array | null;
    uvs: Float32Array | null;
    colorMap: ParticleColorMap | null;
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
  const uvs = mesh.uvs;
  const meshUV = uvs ? new Float32Array(4 * triangles) : null;
  let sum = 0;
  for (let k = 0; k < triangles; k++) {
    const v = [0, 1, 2].map((j) => (indices ? (indices[3 * k + j] as number) : 3 * k + j));
    if (colors && meshColor) {
      const c = (i: number, ch: number): number =>
        byte(colors[4 * (v[i] as number) + ch] as number);
      for (let i = 0; i < 3; i++) meshColor[4 * k + i] = c(i, 0) + 256 * c(i, 1) + 65536 * c(i, 2);
      meshColor[4 * k + 3] = c(0, 3) + 256 * c(1, 3) + 65536 * c(2, 3);
    }
    const uv = (i: number, d: number): number => (uvs?.[2 * (v[i] as number) + d] as number) ?? 0;
    if (meshUV) meshUV.set([uv(0, 0), uv(0, 1), uv(1, 0), uv(1, 1)], 4 * k);
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
    meshB.set([...b, uvs ? uv(2, 0) : area], 4 * k);
    meshC.set([...c, uvs ? uv(2, 1) : 0], 4 * k);
    sum += area;
  }
  t = { triangles, meshA, meshB, meshC, area: f(sum), meshColor, meshUV };
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
      'null or { positions, indices, transform, velocity, angularVelocity, colors, uvs, colorMap }',
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
        'must be the bind pose (x, y, z per vertex) of the posed vertices in the mesh.positions buffer',
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
      geometry.uvsGiven === given['uvs'] &&
      geometry.mapGiven === given['colorMap'] &&
      unchanged(geometry, { ...given, positions: given[key] })
    ) {
      const resolved: ParticleMesh = {
        positions: geometry.positions,
        indices: geometry.indices,
        ...motion,
        colors: geometry.colors,
        uvs: geometry.uvs,
        colorMap: geometry.colorMap,
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
    const { uvs, colorMap } = texture(given, positions.length / 3);
    const resolved: ParticleMesh = {
      positions: Float32Array.from(positions),
      indices,
      ...motion,
      colors,
      uvs,
      colorMap,
      posed,
    };
    if (typeof given[key] === 'object' && given[key] !== null)
      GEOMETRY.set(given[key], {
        posed,
        indicesGiven: given['indices'],
        colorsGiven: given['colors'],
        uvsGiven: given['uvs'],
        mapGiven: given['colorMap'],
        positions: resolved.positions,
        indices,
        colors,
        uvs,
        colorMap,
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
    key: `mesh${o.mesh?.colors ? ' colored' : ''}${o.mesh?.colorMap ? ' mapped' : ''}${o.mesh?.posed ? ' posed' : ''}`,
    ...(o.mesh?.colors || o.mesh?.colorMap
      ? {
          helpers: (o.mesh.colors ? MESH_TINT : '') + (o.mesh.colorMap ? MESH_MAP : ''),
          // set at the birth and kept (a trail still reads it after its particle is gone)
          attributes: [{ name: TINT, spawn: tintAtBirth(o.mesh), persist: true }],
        }
      : {}),
    uniforms: [
      ...(o.mesh?.colorMap ? ([['meshMap', 'vec4f']] as const) : []),
      ['meshArea', 'f32'],
      ['meshTriangles', 'u32'],
      ['meshX', 'vec4f'],
      ['meshY', 'vec4f'],
      ['meshZ', 'vec4f'],
      ['meshW', 'vec4f'],
      ['meshVelocity', 'vec4f'],
      ['meshSpin', 'vec4f'],
    ],
    source: [
      ...MESH_SOURCE,
      ...(o.mesh?.colors ? [MESH_COLOR] : []),
      ...(o.mesh?.colorMap ? [MESH_UV, MESH_TEXEL] : []),
    ],
    // a mesh posed on the GPU: the total of the pose's areas, summed on the GPU before the step,
    // in the row after the last triangle
    spawn: `f32 meshTarget = r0 * ${o.mesh?.posed ? 'ignisSource(params.meshTriangles).meshA.w' : 'params.meshArea'};
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
      const { colors, weights, map } = birth;
      const vertex = colors
        ? [0, 1, 2, 3].map((ch) =>
            f(
              f(
                f((colors[0]![ch] as number) * weights[0]) +
                  f((colors[1]![ch] as number) * weights[1]),
              ) + f((colors[2]![ch] as number) * weights[2]),
            ),
          )
        : [1, 1, 1, 1];
      return map ? vertex.map((x, ch) => f(x * (map[ch] as number))) : vertex;
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
      if (t.meshColor || t.meshUV) {
        const map =
          m.colorMap && t.meshUV ? sampleMap(m.colorMap, birthUV(t, lo, [wa, wb, wc])) : null;
        BIRTHS.set(own, {
          colors: t.meshColor ? cornerColors(t.meshColor, lo) : null,
          weights: [wa, wb, wc],
          map,
        });
      }
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
const MESH_MAP = `
fn meshTexel(x: f32, y: f32) -> vec4f {
  return ignisSource(u32(x) + u32(params.meshMap.x) * u32(y)).${MESH_TEXEL};
}
fn meshMapAt(uv: vec2f) -> vec4f {
  let n = params.meshMap.xy;
  let g = (uv - floor(uv)) * n - vec2f(0.5);
  let lo = floor(g);
  let t = g - lo;
  let c = vec2f(select(lo.x, n.x - 1.0, lo.x < 0.0), select(lo.y, n.y - 1.0, lo.y < 0.0));
  var d = c + vec2f(1.0);
  d = vec2f(select(d.x, 0.0, d.x >= n.x), select(d.y, 0.0, d.y >= n.y));
  return mix(mix(meshTexel(c.x, c.y), meshTexel(d.x, c.y), t.x), mix(meshTexel(c.x, d.y), meshTexel(d.x, d.y), t.x), t.y);
}
`;

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
const BIRTHS = new WeakMap<
  object,
  { colors: number[][] | null; weights: [number, number, number]; map: number[] | null }
>();

/** The tint's expression at a birth: the corners' colours weighted, times the map at the birth's uv. */
function tintAtBirth(m: ParticleMesh): string {
  const vertex = m.colors ? 'meshTint(meshTri.meshColor, meshS, r2)' : '';
  const map = m.colorMap
    ? 'meshMapAt(meshTri.meshUV.xy * (1.0 - meshS) + meshTri.meshUV.zw * (meshS * (1.0 - r2)) + vec2f(meshTri.meshB.w, meshTri.meshC.w) * (meshS * r2))'
    : '';
  return vertex && map ? `${vertex} * ${map}` : vertex || map;
}

/** Triangle k's birth coordinates for weights w (float32 as the kernel weighs them). */
function birthUV(t: MeshTable, k: number, w: readonly [number, number, number]): [number, number] {
  const a = t.meshUV as Float32Array;
  // uc, vc: the w of b and c
  const c = [t.meshB[4 * k + 3] as number, t.meshC[4 * k + 3] as number];
  const at = (d: number): number =>
    f(
      f(f((a[4 * k + d] as number) * w[0]) + f((a[4 * k + 2 + d] as number) * w[1])) +
        f(c[d]! * w[2]),
    );
  return [at(0), at(1)];
}

/**
 * The colour map at (u, v): bilinear between texel centres, repeating (float64: the reference of
 * the kernel's meshMapAt).
 */
export function sampleMap(map: ParticleColorMap, uv: readonly [number, number]): number[] {
  const n = [map.width, map.height];
  const c: number[] = [];
  const d: number[] = [];
  const t: number[] = [];
  for (let a = 0; a < 2; a++) {
    const g = (uv[a]! - Math.floor(uv[a]!)) * n[a]! - 0.5;
    const lo = Math.floor(g);
    t.push(g - lo);
    const ca = lo < 0 ? n[a]! - 1 : lo;
    c.push(ca);
    d.push(ca + 1 >= n[a]! ? 0 : ca + 1);
  }
  const texel = (x: number, y: number, ch: number): number =>
    map.texels[4 * (x + map.width * y) + ch] as number;
  const mix = (a: number, b: number, s: number): number => a + (b - a) * s;
  return [0, 1, 2, 3].map((ch) =>
    mix(
      mix(texel(c[0]!, c[1]!, ch), texel(d[0]!, c[1]!, ch), t[0]!),
      mix(texel(c[0]!, d[1]!, ch), texel(d[0]!, d[1]!, ch), t[0]!),
      t[1]!,
    ),
  );
}

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
  'uvs',
  'colorMap',
];

/**
 * `uvs` (u, v per vertex, finite) and `colorMap` (`{ width, height, data }`, rgba8) of a mesh:
 * both or neither.
 */
function texture(
  given: Record<string, unknown>,
  vertices: number,
): { uvs: Float32Array | null; colorMap: ParticleColorMap | null } {
  const hasUVs = given['uvs'] !== undefined && given['uvs'] !== null;
  const hasMap = given['colorMap'] !== undefined && given['colorMap'] !== null;
  if (!hasUVs && !hasMap) return { uvs: null, colorMap: null };
  if (!hasMap)
    throw new ParticleOptionError(
      'mesh.colorMap',
      given['colorMap'],
      'must be given with mesh.uvs: the coordinates are where the colour map is sampled at each birth',
    );
  if (!hasUVs)
    throw new ParticleOptionError(
      'mesh.uvs',
      given['uvs'],
      'must be given with mesh.colorMap: u, v per vertex, where the map is sampled at each birth',
    );
  const u = numbers('mesh.uvs', given['uvs']);
  if (u.length !== 2 * vertices)
    throw new ParticleOptionError(
      'mesh.uvs',
      `${u.length} numbers`,
      `must be u, v per vertex: ${2 * vertices} for ${vertices} vertices`,
    );
  for (let i = 0; i < u.length; i++)
    if (!Number.isFinite(u[i]))
      throw new ParticleOptionError(`mesh.uvs[${i}]`, u[i], 'must be a finite number');
  object('mesh.colorMap', given['colorMap'], '{ width, height, data } (an ImageData)');
  const m = given['colorMap'] as Record<string, unknown>;
  const { width, height, data } = m;
  for (const [key, v] of [
    ['width', width],
    ['height', height],
  ] as const)
    if (!Number.isInteger(v) || (v as number) < 1)
      throw new ParticleOptionError(
        `mesh.colorMap.${key}`,
        v,
        'must be a whole number of texels, at least 1',
      );
  const texels = (width as number) * (height as number);
  if (texels > MAX_MAP_TEXELS)
    throw new ParticleOptionError(
      'mesh.colorMap',
      `${String(width)} × ${String(height)} texels`,
      `must have at most ${MAX_MAP_TEXELS} texels (512 × 512): each is a row of the update's table — scale the image down`,
    );
  const ok =
    data instanceof Uint8Array ||
    data instanceof Uint8ClampedArray ||
    (Array.isArray(data) && data.every((x) => Number.isInteger(x) && x >= 0 && x <= 255));
  if (!ok)
    throw new ParticleOptionError(
      'mesh.colorMap.data',
      data,
      'must be rgba8 pixels: a Uint8Array, a Uint8ClampedArray or whole numbers 0…255',
    );
  const bytes = data as ArrayLike<number>;
  if (bytes.length !== 4 * texels)
    throw new ParticleOptionError(
      'mesh.colorMap.data',
      `${bytes.length} bytes`,
      `must be r, g, b, a per texel: ${4 * texels} for ${String(width)} × ${String(height)}`,
    );
  return {
    uvs: Float32Array.from(u),
    colorMap: {
      width: width as number,
      height: height as number,
      data: Uint8Array.from(bytes),
      texels: Float32Array.from(bytes, (x) => x / 255),
    },
  };
}

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
    ...(m?.colorMap ? { meshMap: [m.colorMap.width, m.colorMap.height, 0, 0] } : {}),
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
  geometry: {
    positions: Float32Array;
    indices: Uint32Array | null;
    colors: Float32Array | null;
    uvs: Float32Array | null;
    colorMap: ParticleColorMap | null;
  },
  given: Record<string, unknown>,
): boolean {
  const uv = given['uvs'] as ArrayLike<number> | null | undefined;
  if (uv && geometry.uvs) {
    if (uv.length !== geometry.uvs.length) return false;
    for (let i = 0; i < uv.length; i++) if (f(uv[i] as number) !== geometry.uvs[i]) return false;
  }
  const map = given['colorMap'] as
    { width: unknown; height: unknown; data: ArrayLike<number> } | null | undefined;
  if (map && geometry.colorMap) {
    const g = geometry.colorMap;
    if (map.width !== g.width || map.height !== g.height || map.data.length !== g.texels.length)
      return false;
    for (let i = 0; i < map.data.length; i++)
      if (f((map.data[i] as number) / 255) !== g.texels[i]) return false;
  }
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
