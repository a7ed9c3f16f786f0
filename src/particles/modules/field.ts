/**
 * Update: a vector field — a grid of vectors over a box of the world, sampled trilinearly at each
 * particle: a force (`as: 'force'`, acceleration `strength · F(x)`) or a wind the particle is
 * carried by (`as: 'velocity'`, acceleration `strength · (F(x) − v)`). Outside the box the field
 * is clamped to its faces (`tiling: 'clamp'`) or repeats (`'repeat'`: the grid is one period).
 * Smoke pushed around obstacles, dust in a draught, leaves on a current.
 *
 * `{ module: 'field', min, max, size: [nx, ny, nz], vectors | curl, strength, as, tiling }`:
 * `vectors` are x, y, z per node, x fastest, then y, then z; or `curl: { frequency, seed }` makes
 * them — curl noise (divergence-free: it swirls, it does not bunch particles) of unit RMS, the
 * generator `curlNoiseField` also gives to code. Every path reads the grid as a table
 * (table-source.ts: storage buffers, textures or arrays) — WebGL2 needs no 3-D textures — and the
 * CPU reference samples the same numbers; beside a mesh or a heightfield (their columns side by
 * side in one table), not in a sub-emitter (which reads its parent).
 */
import { ParticleOptionError, finite, vector } from '../errors.js';
import type { UniformValue } from '../../compute/layout.js';
import { defineModule, type ModuleOptions } from './module.js';

/** The source attribute the grid is read as (`ignisSource(i).fieldVector`). */
export const FIELD_SOURCE = 'fieldVector';
/** The most nodes a field may have (32³). */
export const MAX_FIELD_NODES = 32768;

const OPTIONS = ['min', 'max', 'size', 'vectors', 'curl', 'strength', 'as', 'tiling'];

/** A field resolved: its box, grid, vectors (the table: xyz per node, w 0) and how it acts. */
export interface VectorField {
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
  readonly size: readonly [number, number, number];
  readonly table: Float32Array;
  readonly strength: number;
  readonly as: 'force' | 'velocity';
  readonly tiling: 'clamp' | 'repeat';
}

const TABLES = new WeakMap<object, Float32Array>();
const CURLS = new Map<string, Float32Array>();

/** A hash of a lattice point to [0, 1). */
function lattice(x: number, y: number, z: number, seed: number): number {
  let h = (x * 374761393 + y * 668265263 + z * 1274126177 + seed * 2147483647) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise in [-1, 1] at (x, y, z). */
function noise(x: number, y: number, z: number, seed: number): number {
  const [ix, iy, iz] = [Math.floor(x), Math.floor(y), Math.floor(z)];
  const s = (t: number): number => t * t * (3 - 2 * t);
  const [fx, fy, fz] = [s(x - ix), s(y - iy), s(z - iz)];
  const at = (dx: number, dy: number, dz: number): number =>
    lattice(ix + dx, iy + dy, iz + dz, seed);
  const mix = (a: number, b: number, t: number): number => a + (b - a) * t;
  const v = mix(
    mix(mix(at(0, 0, 0), at(1, 0, 0), fx), mix(at(0, 1, 0), at(1, 1, 0), fx), fy),
    mix(mix(at(0, 0, 1), at(1, 0, 1), fx), mix(at(0, 1, 1), at(1, 1, 1), fx), fy),
    fz,
  );
  return 2 * v - 1;
}

/**
 * Curl noise on a grid: at each node of `size` over [min, max], the curl of a vector potential of
 * three value noises at `frequency` (cycles per world unit), scaled to unit RMS. Divergence-free:
 * particles it carries swirl without bunching. x, y, z per node, x fastest (the field's `vectors`).
 */
export function curlNoiseField(o: {
  min: readonly [number, number, number];
  max: readonly [number, number, number];
  size: readonly [number, number, number];
  frequency?: number;
  seed?: number;
}): number[] {
  const frequency = o.frequency ?? 0.5;
  const seed = o.seed ?? 1;
  const [nx, ny, nz] = o.size;
  const out: number[] = [];
  const h = 1e-3 / frequency;
  const potential = (k: number, x: number, y: number, z: number): number =>
    noise(x * frequency, y * frequency, z * frequency, seed * 3 + k);
  const d = (k: number, axis: number, p: number[]): number => {
    const a = [...p];
    const b = [...p];
    a[axis]! -= h;
    b[axis]! += h;
    return (potential(k, b[0]!, b[1]!, b[2]!) - potential(k, a[0]!, a[1]!, a[2]!)) / (2 * h);
  };
  let sum = 0;
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const p = [x, y, z].map(
          (i, axis) =>
            o.min[axis]! + ((o.max[axis]! - o.min[axis]!) * i) / Math.max(1, o.size[axis]! - 1),
        );
        // curl A = (∂Az/∂y − ∂Ay/∂z, ∂Ax/∂z − ∂Az/∂x, ∂Ay/∂x − ∂Ax/∂y)
        const v = [d(2, 1, p) - d(1, 2, p), d(0, 2, p) - d(2, 0, p), d(1, 0, p) - d(0, 1, p)];
        sum += v[0]! ** 2 + v[1]! ** 2 + v[2]! ** 2;
        out.push(...v);
      }
  const rms = Math.sqrt(sum / (nx * ny * nz)) || 1;
  return out.map((x) => Math.fround(x / rms));
}

/** The field a stack runs (its module's options), or null. */
export function fieldOf(o: {
  readonly modules: readonly { module: string; options: Readonly<Record<string, unknown>> }[];
}): VectorField | null {
  return (o.modules.find((m) => m.module === 'field')?.options as VectorField | undefined) ?? null;
}

export const field = defineModule({
  name: 'field',
  stage: 'update',
  summary:
    "a vector field on a grid, sampled trilinearly: { min, max, size, vectors | curl, strength, as: 'force' | 'velocity', tiling }",
  keys: [],
  present: () => false,
  resolve(_o, own) {
    // a resolved field given back (`modules: ps.modules`): its grid is `table` (xyz per node, w 0)
    const back =
      own['table'] instanceof Float32Array &&
      own['vectors'] === undefined &&
      own['curl'] === undefined;
    for (const key of Object.keys(own))
      if (!OPTIONS.includes(key) && !(back && key === 'table'))
        throw new ParticleOptionError(
          `field.${key}`,
          own[key],
          `is not an option of the field (${OPTIONS.join(', ')})`,
        );
    if (Object.keys(own).length === 0) return {};
    vector('field.min', own['min'], 3);
    vector('field.max', own['max'], 3);
    const min = own['min'] as [number, number, number];
    const max = own['max'] as [number, number, number];
    if (!min.every((x, i) => x < max[i]!))
      throw new ParticleOptionError(
        'field.max',
        max,
        `must be above min (${min.join(', ')}) on every axis`,
      );
    vector('field.size', own['size'], 3);
    const size = own['size'] as [number, number, number];
    if (!size.every((n) => Number.isInteger(n) && n >= 2))
      throw new ParticleOptionError(
        'field.size',
        size,
        'must be three integers of at least 2 (nodes per axis)',
      );
    const nodes = size[0] * size[1] * size[2];
    if (nodes > MAX_FIELD_NODES)
      throw new ParticleOptionError(
        'field.size',
        size,
        `has ${nodes} nodes; at most ${MAX_FIELD_NODES}`,
      );
    const strength = own['strength'] ?? 1;
    finite('field.strength', strength);
    const as = own['as'] ?? 'force';
    if (as !== 'force' && as !== 'velocity')
      throw new ParticleOptionError('field.as', as, "must be 'force' or 'velocity'");
    const tiling = own['tiling'] ?? 'clamp';
    if (tiling !== 'clamp' && tiling !== 'repeat')
      throw new ParticleOptionError('field.tiling', tiling, "must be 'clamp' or 'repeat'");
    let table: Float32Array;
    if (back) {
      table = own['table'] as Float32Array;
      if (table.length !== 4 * nodes)
        throw new ParticleOptionError(
          'field.table',
          `${table.length} numbers`,
          `must be ${4 * nodes} numbers: x, y, z, 0 for each of the ${size.join(' × ')} nodes`,
        );
    } else if ((own['vectors'] === undefined) === (own['curl'] === undefined))
      throw new ParticleOptionError(
        'field',
        Object.keys(own).join(', '),
        'needs its vectors: `vectors` (x, y, z per node) or `curl: { frequency, seed }`, one of the two',
      );
    else if (own['vectors'] !== undefined) {
      const v = own['vectors'];
      const ok =
        v instanceof Float32Array || (Array.isArray(v) && v.every((x) => typeof x === 'number'));
      if (!ok || (v as ArrayLike<number>).length !== 3 * nodes)
        throw new ParticleOptionError(
          'field.vectors',
          ok ? `${(v as ArrayLike<number>).length} numbers` : v,
          `must be ${3 * nodes} numbers: x, y, z for each of the ${size.join(' × ')} nodes`,
        );
      const given = v as ArrayLike<number>;
      const cached = TABLES.get(given as object);
      if (cached) table = cached;
      else {
        table = new Float32Array(4 * nodes);
        for (let i = 0; i < nodes; i++)
          for (let c = 0; c < 3; c++) {
            const x = given[3 * i + c] as number;
            if (!Number.isFinite(x))
              throw new ParticleOptionError(
                `field.vectors[${3 * i + c}]`,
                x,
                'must be a finite number',
              );
            table[4 * i + c] = x;
          }
        TABLES.set(given as object, table);
      }
    } else {
      const curl = own['curl'] as { frequency?: unknown; seed?: unknown } | null;
      if (!curl || typeof curl !== 'object' || Array.isArray(curl))
        throw new ParticleOptionError('field.curl', curl, 'must be { frequency, seed }');
      for (const key of Object.keys(curl))
        if (key !== 'frequency' && key !== 'seed')
          throw new ParticleOptionError(
            `field.curl.${key}`,
            (curl as Record<string, unknown>)[key],
            'is not a curl option (frequency, seed)',
          );
      const frequency = curl.frequency ?? 0.5;
      const seed = curl.seed ?? 1;
      finite('field.curl.frequency', frequency);
      if ((frequency as number) <= 0)
        throw new ParticleOptionError('field.curl.frequency', frequency, 'must be positive');
      if (!Number.isInteger(seed) || (seed as number) < 0)
        throw new ParticleOptionError('field.curl.seed', seed, 'must be an integer of at least 0');
      const key = JSON.stringify([min, max, size, frequency, seed]);
      let made = CURLS.get(key);
      if (!made) {
        const v = curlNoiseField({
          min,
          max,
          size,
          frequency: frequency as number,
          seed: seed as number,
        });
        made = new Float32Array(4 * nodes);
        for (let i = 0; i < nodes; i++) made.set(v.slice(3 * i, 3 * i + 3), 4 * i);
        if (CURLS.size > 16) CURLS.clear();
        CURLS.set(key, made);
      }
      table = made;
    }
    const resolved: VectorField = {
      min,
      max,
      size,
      table,
      strength: strength as number,
      as,
      tiling,
    };
    return { ...resolved };
  },
  kernel: (o, own) => {
    if (own['table'] === undefined)
      throw new ParticleOptionError(
        'field',
        'no options',
        'needs { min, max, size, vectors | curl }',
      );
    if (o.subEmitter !== null)
      throw new ParticleOptionError(
        'field',
        'a vector field',
        "cannot be read by a sub-emitter (its update reads its parent's events: a table beside them is not built)",
      );
    const f = own as unknown as VectorField;
    return {
      key: `field ${f.as} ${f.tiling}`,
      uniforms: [
        ['fieldMin', 'vec4f'],
        ['fieldScale', 'vec4f'],
        ['fieldSize', 'vec4f'],
      ],
      source: [FIELD_SOURCE],
      helpers: HELPERS(f.tiling),
      force:
        f.as === 'force'
          ? 'acc = acc + fieldAt(position.xyz) * params.fieldMin.w;'
          : 'acc = acc + (fieldAt(position.xyz) - velocity.xyz) * params.fieldMin.w;',
    };
  },
  values: (_o, own): Record<string, UniformValue> => {
    const f = own as unknown as VectorField;
    if (!f.table) return {};
    const span = (n: number, a: number, b: number): number =>
      (f.tiling === 'repeat' ? n : n - 1) / (b - a);
    return {
      fieldMin: [...f.min, f.strength],
      fieldScale: [0, 1, 2].map((i) => span(f.size[i]!, f.min[i]!, f.max[i]!)).concat(0),
      fieldSize: [...f.size, 0],
    };
  },
  reference: {
    accelerate(own: ModuleOptions, x, y, z, _time, out, attribute) {
      const f = own as unknown as VectorField;
      const v = sampleField(f, x, y, z);
      const s = f.strength;
      const u = f.as === 'velocity' ? attribute('velocity') : [0, 0, 0];
      for (let c = 0; c < 3; c++)
        out[c] = (out[c] as number) + (v[c]! - (f.as === 'velocity' ? (u[c] as number) : 0)) * s;
    },
  },
});

/** The field at (x, y, z), trilinear between its nodes (float64: the reference). */
export function sampleField(f: VectorField, x: number, y: number, z: number): number[] {
  const p = [x, y, z];
  const c0: number[] = [];
  const c1: number[] = [];
  const t: number[] = [];
  for (let a = 0; a < 3; a++) {
    const n = f.size[a]!;
    let g = ((p[a]! - f.min[a]!) * (f.tiling === 'repeat' ? n : n - 1)) / (f.max[a]! - f.min[a]!);
    if (f.tiling === 'repeat') {
      g -= n * Math.floor(g / n);
      const c = Math.min(Math.floor(g), n - 1);
      c0.push(c);
      c1.push(c + 1 >= n ? 0 : c + 1);
      t.push(g - c);
    } else {
      g = Math.min(Math.max(g, 0), n - 1);
      const c = Math.min(Math.floor(g), n - 2);
      c0.push(c);
      c1.push(c + 1);
      t.push(g - c);
    }
  }
  const [nx, ny] = f.size;
  const node = (i: number, j: number, k: number, c: number): number =>
    f.table[4 * (i + nx * (j + ny * k)) + c]!;
  const mix = (a: number, b: number, s: number): number => a + (b - a) * s;
  return [0, 1, 2].map((c) =>
    mix(
      mix(
        mix(node(c0[0]!, c0[1]!, c0[2]!, c), node(c1[0]!, c0[1]!, c0[2]!, c), t[0]!),
        mix(node(c0[0]!, c1[1]!, c0[2]!, c), node(c1[0]!, c1[1]!, c0[2]!, c), t[0]!),
        t[1]!,
      ),
      mix(
        mix(node(c0[0]!, c0[1]!, c1[2]!, c), node(c1[0]!, c0[1]!, c1[2]!, c), t[0]!),
        mix(node(c0[0]!, c1[1]!, c1[2]!, c), node(c1[0]!, c1[1]!, c1[2]!, c), t[0]!),
        t[1]!,
      ),
      t[2]!,
    ),
  );
}

/** The kernel's sampler: the grid coordinate, its cell's two corners per axis, eight reads, trilinear. */
const HELPERS = (tiling: 'clamp' | 'repeat'): string => `
fn fieldNode(x: f32, y: f32, z: f32) -> vec3f {
  return ignisSource(u32(x) + u32(params.fieldSize.x) * (u32(y) + u32(params.fieldSize.y) * u32(z))).${FIELD_SOURCE}.xyz;
}
fn fieldAt(p: vec3f) -> vec3f {
  let n = params.fieldSize.xyz;
  var g = (p - params.fieldMin.xyz) * params.fieldScale.xyz;
${
  tiling === 'repeat'
    ? `  g = g - n * floor(g / n);
  let c = min(floor(g), n - vec3f(1.0));
  var d = c + vec3f(1.0);
  d = vec3f(select(d.x, 0.0, d.x >= n.x), select(d.y, 0.0, d.y >= n.y), select(d.z, 0.0, d.z >= n.z));`
    : `  g = clamp(g, vec3f(0.0), n - vec3f(1.0));
  let c = min(floor(g), n - vec3f(2.0));
  let d = c + vec3f(1.0);`
}
  let t = g - c;
  let x0 = mix(fieldNode(c.x, c.y, c.z), fieldNode(d.x, c.y, c.z), t.x);
  let x1 = mix(fieldNode(c.x, d.y, c.z), fieldNode(d.x, d.y, c.z), t.x);
  let x2 = mix(fieldNode(c.x, c.y, d.z), fieldNode(d.x, c.y, d.z), t.x);
  let x3 = mix(fieldNode(c.x, d.y, d.z), fieldNode(d.x, d.y, d.z), t.x);
  return mix(mix(x0, x1, t.y), mix(x2, x3, t.y), t.z);
}
`;
