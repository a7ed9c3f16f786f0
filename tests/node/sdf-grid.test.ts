// A baked SDF as a collider (src/particles/modules/sdf-grid.ts): meshSdf bakes a closed mesh to
// the distances an analytic SDF gives (a box: exact at every node; its sign from the winding
// number), every bad option is named, and the reference keeps a fast shower out of a baked ball
// — nothing ever inside the trilinear surface, however fast, since the march's bound is |g|/√3.
import { describe, expect, it } from 'vitest';
import { resolveOptions, particleModules } from '../../src/particles/resolve.js';
import { ParticleOptionError } from '../../src/particles/errors.js';
import { createState, stepState } from '../../src/particles/reference.js';
import { meshSdf, sdfGridReference, resolveSdfGrid } from '../../src/particles/modules/sdf-grid.js';

/** A box of half-sizes h as 12 counter-clockwise triangles (seen from outside). */
function boxMesh(h: [number, number, number]): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++)
    positions.push(i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]);
  // faces as quads of corner bits, counter-clockwise from outside
  const quads = [
    [0, 2, 3, 1], // −z
    [4, 5, 7, 6], // +z
    [0, 1, 5, 4], // −y
    [2, 6, 7, 3], // +y
    [0, 4, 6, 2], // −x
    [1, 3, 7, 5], // +x
  ];
  const indices = quads.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]);
  return { positions, indices };
}

const boxSdf = (p: number[], h: number[]): number => {
  const q = p.map((x, i) => Math.abs(x) - h[i]!);
  const outside = Math.hypot(...q.map((x) => Math.max(x, 0)));
  return outside + Math.min(Math.max(q[0]!, q[1]!, q[2]!), 0);
};

describe('baked SDF colliders', () => {
  it('meshSdf bakes a box to the box’s distances at every node, negative inside', () => {
    const h: [number, number, number] = [0.8, 0.5, 0.6];
    const grid = meshSdf(boxMesh(h), {
      min: [-1.5, -1.5, -1.5],
      max: [1.5, 1.5, 1.5],
      size: [7, 6, 5],
    });
    expect(grid.distances.length).toBe(7 * 6 * 5);
    let worst = 0;
    let inside = 0;
    for (let z = 0; z < 5; z++)
      for (let y = 0; y < 6; y++)
        for (let x = 0; x < 7; x++) {
          const p = [-1.5 + x * 0.5, -1.5 + y * 0.6, -1.5 + z * 0.75];
          const d = grid.distances[x + 7 * (y + 6 * z)]!;
          worst = Math.max(worst, Math.abs(d - boxSdf(p, h)));
          if (d < 0) inside++;
        }
    expect(worst).toBeLessThan(1e-5);
    expect(inside).toBeGreaterThan(0);
  });

  it('names every bad option', () => {
    const good = {
      shape: 'sdf',
      min: [0, 0, 0],
      max: [1, 1, 1],
      size: [2, 2, 2],
      distances: new Array(8).fill(1),
    };
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, max: [1, 0, 1] }, /g\.max = \[1,0,1\] must be above min/],
      [{ ...good, size: [2, 1, 2] }, /g\.size = \[2,1,2\] must be three integers of at least 2/],
      [{ ...good, size: [40, 40, 40] }, /g\.size = \[40,40,40\] has 64000 nodes; at most 32768/],
      [
        { ...good, distances: [1, 2] },
        /g\.distances = 2 numbers must be one per node: 2 × 2 × 2 = 8/,
      ],
      [
        { ...good, distances: [1, 1, 1, NaN, 1, 1, 1, 1] },
        /g\.distances\[3\] = NaN must be a finite/,
      ],
      [{ ...good, distances: 'far' }, /g\.distances = far must be an array of numbers/],
    ];
    for (const [given, message] of bad) {
      let error: unknown;
      try {
        resolveSdfGrid('g', given);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParticleOptionError);
      expect(String(error)).toMatch(message);
    }
    const withTwo = () =>
      resolveOptions({
        count: 4,
        modules: [
          ...particleModules({ count: 4 }),
          { module: 'colliders', shapes: [good, { ...good }] },
        ],
      });
    expect(withTwo).toThrow(/colliders\.shapes = 2 baked SDFs may hold one baked SDF/);
  });

  it('its bound never exceeds the distance to the trilinear surface, inside the box and out', () => {
    // a baked ball of radius 1 on a coarse 6³ grid: sample the bound and walk to the zero set
    const size: [number, number, number] = [6, 6, 6];
    const distances = new Float32Array(216);
    for (let i = 0; i < 216; i++) {
      const p = [i % 6, Math.floor(i / 6) % 6, Math.floor(i / 36)].map((k) => -2 + (k * 4) / 5);
      distances[i] = Math.hypot(...p) - 1;
    }
    const grid = resolveSdfGrid('g', {
      shape: 'sdf',
      min: [-2, -2, -2],
      max: [2, 2, 2],
      size,
      distances,
    });
    const g = sdfGridReference(grid);
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 8 - 4;
    for (let k = 0; k < 400; k++) {
      const p = [random(), random(), random()];
      const d = g(p);
      if (d <= 0) continue;
      // every point of the ball of radius d about p is on the outside of the surface
      for (let j = 0; j < 20; j++) {
        const dir = [random(), random(), random()];
        const l = Math.hypot(...dir);
        const q = p.map((x, i) => x + (dir[i]! / l) * d * 0.999);
        expect(g(q), `${p} (${d}) → ${q}`).toBeGreaterThan(-1e-6);
      }
    }
  });

  it('the reference keeps a fast shower out of a baked ball (nothing inside its surface)', () => {
    const distances = new Float32Array(16 ** 3);
    for (let i = 0; i < distances.length; i++) {
      const p = [i % 16, Math.floor(i / 16) % 16, Math.floor(i / 256)].map(
        (k) => -2 + (k * 4) / 15,
      );
      distances[i] = Math.hypot(...p) - 1.2;
    }
    const flat = {
      count: 256,
      seed: 3,
      gravity: [0, -30, 0] as [number, number, number],
      drag: 0,
      speedMin: 0,
      speedMax: 1,
      lifeMin: 3,
      lifeMax: 3,
      emitter: {
        shape: 'box' as const,
        position: [0, 4, 0] as [number, number, number],
        radius: 1,
        angle: 0,
      },
    };
    const o = resolveOptions({
      ...flat,
      modules: [
        ...particleModules(resolveOptions(flat)),
        {
          module: 'colliders',
          shapes: [
            { shape: 'sdf', min: [-2, -2, -2], max: [2, 2, 2], size: [16, 16, 16], distances },
          ],
          restitution: 0.2,
        },
      ],
    });
    const grid = resolveSdfGrid('g', {
      shape: 'sdf',
      min: [-2, -2, -2],
      max: [2, 2, 2],
      size: [16, 16, 16],
      distances,
    });
    const g = sdfGridReference(grid);
    const state = createState(o);
    const touched = new Set<number>();
    for (let n = 1; n <= 60; n++) {
      stepState(o, n, 1 / 60, state);
      for (let i = 0; i < o.count; i++) {
        const p = Array.from(state.position.subarray(4 * i, 4 * i + 3));
        expect(g(p), `particle ${i} at step ${n}`).toBeGreaterThan(-1e-3);
        if (g(p) < 0.05) touched.add(i);
      }
    }
    // the ball meets the middle of the shower
    expect(touched.size).toBeGreaterThan(50);
  });
});
