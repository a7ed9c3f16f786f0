// The vector field module (src/particles/modules/field.ts): the trilinear sampler reproduces a
// linear field exactly and repeats with 'repeat'; curl noise is divergence-free and of unit RMS;
// the reference integrates a constant field as a constant force; each mistake is named.
import { sameTable, tableOf } from '../../src/particles/table-source.js';
import { describe, expect, it } from 'vitest';
import {
  ParticleOptionError,
  createState,
  curlNoiseField,
  particleModules,
  resolveOptions,
  stepState,
  type ParticleOptionsInput,
} from '../../src/all.js';
import { fieldOf, sampleField } from '../../src/particles/modules/field.js';

const STILL: ParticleOptionsInput = {
  count: 64,
  emitter: { shape: 'sphere', position: [0, 0, 0], radius: 1, angle: 0 },
  speedMin: 0,
  speedMax: 0,
  spread: 0,
  lifeMin: 100,
  lifeMax: 100,
  gravity: [0, 0, 0],
  drag: 0,
  floorY: -1000,
};
const withField = (field: Record<string, unknown>): ParticleOptionsInput => ({
  ...STILL,
  modules: [...particleModules(STILL), { module: 'field', ...field }],
});
const size = [4, 3, 5] as const;
const min = [-2, -1, -3] as const;
const max = [2, 3, 1] as const;
/** F(p) = A p + b at every node: a field trilinear sampling reproduces exactly. */
function linear(a: number[][], b: number[]): number[] {
  const out: number[] = [];
  for (let z = 0; z < size[2]; z++)
    for (let y = 0; y < size[1]; y++)
      for (let x = 0; x < size[0]; x++) {
        const p = [x, y, z].map((i, k) => min[k]! + ((max[k]! - min[k]!) * i) / (size[k]! - 1));
        for (let c = 0; c < 3; c++)
          out.push(a[c]![0]! * p[0]! + a[c]![1]! * p[1]! + a[c]![2]! * p[2]! + b[c]!);
      }
  return out;
}

describe('field module', () => {
  it('samples a linear field exactly inside its box, and clamps outside it', () => {
    const A = [
      [0.5, -1, 0.25],
      [2, 0, -0.5],
      [0, 1, 1],
    ];
    const b = [1, -2, 0.5];
    const f = fieldOf(resolveOptions(withField({ min, max, size, vectors: linear(A, b) })))!;
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      const p = [0, 1, 2].map(
        (k) => min[k]! + (max[k]! - min[k]!) * ((i * [0.37, 0.61, 0.83][k]!) % 1),
      );
      const got = sampleField(f, p[0]!, p[1]!, p[2]!);
      for (let c = 0; c < 3; c++)
        worst = Math.max(
          worst,
          Math.abs(got[c]! - (A[c]![0]! * p[0]! + A[c]![1]! * p[1]! + A[c]![2]! * p[2]! + b[c]!)),
        );
    }
    expect(worst).toBeLessThan(1e-5);
    // outside: the value on the nearest face
    expect(sampleField(f, 10, 0, 0)).toEqual(sampleField(f, max[0], 0, 0));
  });

  it("repeats with tiling 'repeat' (the grid is one period)", () => {
    const vectors = Array.from({ length: 3 * size[0] * size[1] * size[2] }, (_, i) => Math.sin(i));
    const f = fieldOf(resolveOptions(withField({ min, max, size, vectors, tiling: 'repeat' })))!;
    const [x, y, z] = [0.3, 0.7, -1.2];
    const a = sampleField(f, x, y, z);
    const b = sampleField(
      f,
      x + 3 * (max[0] - min[0]),
      y - (max[1] - min[1]),
      z + (max[2] - min[2]),
    );
    for (let c = 0; c < 3; c++) expect(b[c]).toBeCloseTo(a[c]!, 4);
  });

  it('curl noise is divergence-free (to its grid) and of unit RMS, the same every time', () => {
    const o = {
      min: [-4, -4, -4],
      max: [4, 4, 4],
      size: [17, 17, 17],
      frequency: 0.3,
      seed: 5,
    } as const;
    const v = curlNoiseField(o);
    expect(curlNoiseField(o)).toEqual(v);
    const n = 17;
    let rms = 0;
    for (let i = 0; i < v.length; i++) rms += v[i]! ** 2;
    expect(Math.sqrt(rms / (n * n * n))).toBeCloseTo(1, 3);
    // central differences of the sampled field inside: divergence small against the gradients
    const h = 8 / (n - 1);
    const at = (x: number, y: number, z: number, c: number): number =>
      v[3 * (x + n * (y + n * z)) + c]!;
    let div = 0;
    let grad = 0;
    for (let z = 1; z < n - 1; z++)
      for (let y = 1; y < n - 1; y++)
        for (let x = 1; x < n - 1; x++) {
          const dx = (at(x + 1, y, z, 0) - at(x - 1, y, z, 0)) / (2 * h);
          const dy = (at(x, y + 1, z, 1) - at(x, y - 1, z, 1)) / (2 * h);
          const dz = (at(x, y, z + 1, 2) - at(x, y, z - 1, 2)) / (2 * h);
          div += Math.abs(dx + dy + dz);
          grad += Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
        }
    expect(div / grad).toBeLessThan(0.1);
  });

  it('the reference integrates a constant field as a constant force, and as a wind', () => {
    const nodes = size[0] * size[1] * size[2];
    const vectors = Array.from({ length: nodes }, () => [1, 0, -2]).flat();
    const force = resolveOptions(withField({ min, max, size, vectors, strength: 2 }));
    const s = createState(force);
    for (let n = 1; n <= 30; n++) stepState(force, n, 1 / 60, s);
    expect(s.velocity[0]).toBeCloseTo(2 * 1 * 0.5, 3);
    expect(s.velocity[2]).toBeCloseTo(2 * -2 * 0.5, 3);
    const wind = resolveOptions(
      withField({ min, max, size, vectors, strength: 2, as: 'velocity' }),
    );
    const w = createState(wind);
    for (let n = 1; n <= 120; n++) stepState(wind, n, 1 / 60, w);
    // carried towards (1, 0, −2): 1 − e^−4 of the way after 2 s at rate 2
    expect(w.velocity[0]).toBeGreaterThan(0.97);
    expect(w.velocity[0]).toBeLessThan(1.001);
  });

  it.each([
    [{ min, max, size: [1, 3, 3], curl: {} }, 'field.size'],
    [{ min, max: [2, -5, 1], size, curl: {} }, 'field.max'],
    [{ min, max, size, vectors: [1, 2, 3] }, 'field.vectors'],
    [{ min, max, size }, 'field'],
    [{ min, max, size, curl: {}, vectors: [] }, 'field'],
    [{ min, max, size, curl: { frequency: 0 } }, 'field.curl.frequency'],
    [{ min, max, size: [64, 64, 64], curl: {} }, 'field.size'],
    [{ min, max, size, curl: {}, as: 'wind' }, 'field.as'],
    [{ min, max, size, curl: {}, tiling: 'mirror' }, 'field.tiling'],
    [{ min, max, size, curl: {}, speed: 1 }, 'field.speed'],
  ])('%j is refused, naming %s', (field, option) => {
    try {
      resolveOptions(withField(field));
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ParticleOptionError);
      expect((e as ParticleOptionError).option).toBe(option);
    }
  });

  it('one table for a mesh, a heightfield and a field side by side: every column as many rows as the longest, each its own numbers', () => {
    const o: ParticleOptionsInput = {
      ...STILL,
      mesh: { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0] },
    };
    const heights = Array.from({ length: 9 }, (_, i) => i / 10);
    const resolved = resolveOptions({
      ...o,
      modules: [
        ...particleModules(o),
        { module: 'field', min, max, size, curl: {} },
        {
          module: 'colliders',
          shapes: [{ shape: 'heightfield', center: [0, -1, 0], size: [4, 4], columns: 3, heights }],
        },
      ],
    });
    const made = tableOf(resolved)!;
    expect(made.from.length).toBe(3);
    const table = made.make();
    const nodes = size[0] * size[1] * size[2];
    expect(table.rows).toBe(nodes);
    expect(Object.keys(table.columns).sort()).toEqual(
      ['colliderHeight', 'fieldVector', 'meshA', 'meshB', 'meshC'].sort(),
    );
    for (const column of Object.values(table.columns)) expect(column.length).toBe(4 * nodes);
    // the heights, then zeros; the triangle, then zeros
    expect(Array.from({ length: 9 }, (_, i) => table.columns['colliderHeight']![4 * i])).toEqual(
      heights.map(Math.fround),
    );
    expect(table.columns['colliderHeight']![4 * 9]).toBe(0);
    expect(Array.from(table.columns['meshB']!.subarray(0, 4))).toEqual([1, 0, 0, 0.5]);
    expect(table.columns['meshA']![4]).toBe(0);
    // the same options again: the same sources (the same table, not made again)
    expect(sameTable(tableOf(resolveOptions(resolved))!.from, made.from)).toBe(true);
  });

  it('a resolved field given back (modules: ps.modules) resolves to the same grid; a grid of the wrong size is named', () => {
    const o = resolveOptions(withField({ min, max, size, curl: { seed: 3 } }));
    const again = resolveOptions({ ...STILL, modules: o.modules });
    expect(fieldOf(again)!.table).toBe(fieldOf(o)!.table);
    const entry = o.modules.find((m) => m.module === 'field')!;
    expect(() =>
      resolveOptions({
        ...STILL,
        modules: [
          ...o.modules.filter((m) => m !== entry),
          { module: 'field', ...entry.options, table: new Float32Array(8) },
        ],
      }),
    ).toThrow(/field\.table = 8 numbers must be 240 numbers/);
  });

  it('not in a sub-emitter (it reads its parent)', () => {
    // a parent as the sub-emitter module looks at it: a system with events
    const parent = { count: 4, eventSource: {}, options: { events: 'death' } } as never;
    expect(() =>
      resolveOptions({
        ...STILL,
        count: 4,
        subEmitter: { parent },
        modules: [
          ...particleModules({ ...STILL, count: 4, subEmitter: { parent } }),
          { module: 'field', min, max, size, curl: {} },
        ],
      }),
    ).toThrow(/field = a vector field cannot be read by a sub-emitter/);
  });
});
