// The colliders module's front door and its reference: each bad option a ParticleOptionError
// naming it; the kernel compiles for every language; and the reference — what every GPU path is
// checked against (tests/gpu/cases/colliders.ts) — never lets a particle through a shape, however
// fast, as the march promises.
import { describe, expect, it, beforeAll } from 'vitest';
import { loadFrontEnd } from '../../src/compute/front-end.js';
import { resolveOptions, particleModules } from '../../src/particles/resolve.js';
import { ParticleOptionError } from '../../src/particles/errors.js';
import { particleKernel } from '../../src/particles/kernel.js';
import { createState, stepState } from '../../src/particles/reference.js';
import type { ParticleOptionsInput } from '../../src/particles/options.js';

const base: ParticleOptionsInput = { count: 16 };
const withColliders = (own: Record<string, unknown>): ParticleOptionsInput => ({
  ...base,
  modules: [...particleModules(resolveOptions(base)), { module: 'colliders', ...own }],
});

// the kernels' GLSL and CPU forms are translated by the WGSL front end, loaded on demand
beforeAll(() => loadFrontEnd());
describe('colliders', () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /colliders\.shapes = undefined must be an array of 1 to 8 shapes/],
    [{ shapes: [] }, /colliders\.shapes = \[\] must be an array of 1 to 8/],
    [{ shapes: [{ shape: 'cone' }] }, /colliders\.shapes\[0\]\.shape = cone must be 'sphere'/],
    [
      { shapes: [{ shape: 'sphere', center: [0, 0, 0], radius: -1 }] },
      /colliders\.shapes\[0\]\.radius = -1 must be positive/,
    ],
    [
      { shapes: [{ shape: 'sphere', center: [0, 0], radius: 1 }] },
      /colliders\.shapes\[0\]\.center = \[0,0\] must be an array of 3 numbers/,
    ],
    [
      { shapes: [{ shape: 'box', center: [0, 0, 0], size: [1, 0, 1] }] },
      /colliders\.shapes\[0\]\.size = \[1,0,1\] must be positive in x, y and z/,
    ],
    [
      {
        shapes: [
          { shape: 'sphere', center: [0, 0, 0], radius: 1 },
          { shape: 'plane', point: [0, 0, 0], normal: [0, 0, 0] },
        ],
      },
      /colliders\.shapes\[1\]\.normal = \[0,0,0\] must not be the zero vector/,
    ],
    [
      { shapes: [{ shape: 'plane', point: [0, 0, 0], normal: [0, 1, 0], radius: 2 }] },
      /colliders\.shapes\[0\]\.radius = 2 is not an option of a plane \(shape, point, normal\)/,
    ],
    [
      { shapes: [{ shape: 'sphere', center: [0, 0, 0], radius: 1, inside: 1 }] },
      /colliders\.shapes\[0\]\.inside = 1 must be true or false/,
    ],
    [
      { shapes: [{ shape: 'plane', point: [0, 0, 0], normal: [0, 1, 0] }], response: 'melt' },
      /colliders\.response = melt must be 'bounce', 'die' or 'stick'/,
    ],
    [
      { shapes: [{ shape: 'plane', point: [0, 0, 0], normal: [0, 1, 0] }], restitution: 2 },
      /colliders\.restitution = 2 must be from 0 to 1/,
    ],
    [
      { shapes: [{ shape: 'plane', point: [0, 0, 0], normal: [0, 1, 0] }], bounciness: 1 },
      /colliders\.bounciness = 1 is not an option of the colliders/,
    ],
    [
      {
        shapes: Array.from({ length: 9 }, () => ({
          shape: 'plane',
          point: [0, 0, 0],
          normal: [0, 1, 0],
        })),
      },
      /colliders\.shapes = .* must be an array of 1 to 8 shapes/,
    ],
    [
      {
        shapes: [
          {
            shape: 'heightfield',
            center: [0, 0, 0],
            size: [4, 4],
            columns: 3,
            heights: [0, 0, 0, 0],
          },
        ],
      },
      /colliders\.shapes\[0\]\.heights = 4 heights must be columns \(3\) × rows, at least 2 rows/,
    ],
    [
      {
        shapes: [
          {
            shape: 'heightfield',
            center: [0, 0, 0],
            size: [4, 0],
            columns: 2,
            heights: [0, 0, 0, 0],
          },
        ],
      },
      /colliders\.shapes\[0\]\.size = \[4,0\] must be positive in x and z/,
    ],
    [
      {
        shapes: [
          { shape: 'heightfield', center: [0, 0, 0], size: [4, 4], columns: 1.5, heights: [0, 0] },
        ],
      },
      /colliders\.shapes\[0\]\.columns = 1\.5 must be an integer of at least 2/,
    ],
  ];
  for (const [own, message] of bad)
    it(`refuses ${JSON.stringify(own).slice(0, 80)}`, () => {
      let error: unknown;
      try {
        resolveOptions(withColliders(own));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParticleOptionError);
      expect(String(error)).toMatch(message);
    });

  it('compiles one SDF of every shape into the kernel, and events record its contacts', () => {
    const listed = withColliders({
      shapes: [
        { shape: 'sphere', center: [0, 0, 0], radius: 1 },
        { shape: 'box', center: [2, 0, 0], size: [1, 1, 1], inside: true },
        { shape: 'capsule', a: [0, 0, 0], b: [0, 1, 0], radius: 0.2 },
        { shape: 'plane', point: [0, -1, 0], normal: [0, 2, 0] },
      ],
    });
    const o = resolveOptions({
      ...listed,
      modules: [...(listed.modules ?? []), { module: 'events', events: 'collision' }],
    });
    const kernel = particleKernel(o);
    for (const code of [kernel.wgslCompute, kernel.glslFragment]) {
      expect(code).toContain('colliderSdf');
      expect(code).toContain('colliderMarch');
    }
    expect(kernel.wgslCompute).toMatch(/-\(colliderBox\(p - params\.collider1A\.xyz/);
    expect(kernel.wgslCompute).toMatch(/colliderHit/);
    // the plane's normal is made unit length, its offset along it computed
    const colliders = o.modules.find((m) => m.module === 'colliders')?.options as {
      shapes: Array<{ normal?: number[] }>;
    };
    expect(colliders.shapes[3]?.normal).toEqual([0, 1, 0]);
  });

  it('the reference keeps a shower above a heightfield, bilinear between its samples', () => {
    // a 9 × 9 terrain of ripples over 8 × 8 units, centred at y = -1
    const columns = 9;
    const heights = Array.from(
      { length: columns * columns },
      (_, i) => 0.6 * Math.sin((i % columns) * 0.9) * Math.cos(Math.floor(i / columns) * 0.7),
    );
    const flat = {
      count: 256,
      seed: 5,
      gravity: [0, -9.8, 0] as [number, number, number],
      drag: 0,
      speedMin: 0,
      speedMax: 3,
      lifeMin: 3,
      lifeMax: 3,
      emitter: {
        shape: 'box' as const,
        position: [0, 3, 0] as [number, number, number],
        radius: 2.5,
        angle: 0,
      },
    };
    const o = resolveOptions({
      ...flat,
      modules: [
        ...particleModules(resolveOptions(flat)),
        {
          module: 'colliders',
          shapes: [{ shape: 'heightfield', center: [0, -1, 0], size: [8, 8], columns, heights }],
          restitution: 0.3,
        },
      ],
    });
    const height = (x: number, z: number): number => {
      const gx = ((x + 4) / 8) * (columns - 1);
      const gz = ((z + 4) / 8) * (columns - 1);
      const cx = Math.min(Math.floor(gx), columns - 2);
      const cz = Math.min(Math.floor(gz), columns - 2);
      const tx = gx - cx;
      const tz = gz - cz;
      const h = (c: number, r: number): number => heights[r * columns + c]!;
      const near = h(cx, cz) * (1 - tx) + h(cx + 1, cz) * tx;
      const far = h(cx, cz + 1) * (1 - tx) + h(cx + 1, cz + 1) * tx;
      return -1 + near * (1 - tz) + far * tz;
    };
    const state = createState(o);
    let landed = 0;
    for (let n = 1; n <= 90; n++) {
      stepState(o, n, 1 / 60, state);
      for (let i = 0; i < o.count; i++) {
        const [x, y, z] = state.position.subarray(4 * i, 4 * i + 3) as unknown as number[];
        if (Math.abs(x!) > 4 || Math.abs(z!) > 4) continue;
        const gap = y! - height(x!, z!);
        expect(gap, `particle ${i} at step ${n}`).toBeGreaterThan(-1e-3);
        if (n === 90 && gap < 0.05) landed++;
      }
    }
    expect(landed).toBeGreaterThan(50);
  });

  it('the reference never lets a particle through a thin slab, at any speed', () => {
    // particles fired from x = −3 along +x at a slab 0.02 thick at x = 0, 0.5 to 60 units a step
    // (25 to 3,000 slab thicknesses): an end-of-step test lets nearly all of them through
    const o = resolveOptions({
      count: 64,
      seed: 3,
      gravity: [0, 0, 0],
      drag: 0,
      lifeMin: 100,
      lifeMax: 100,
      modules: [
        ...particleModules(resolveOptions({ gravity: [0, 0, 0], drag: 0 })),
        {
          module: 'colliders',
          shapes: [{ shape: 'box', center: [0, 0, 0], size: [0.02, 4, 4] }],
          restitution: 0,
        },
      ],
    });
    const state = createState(o);
    for (let i = 0; i < o.count; i++) {
      state.position.set([-3, ((i % 8) - 4) * 0.3, (Math.floor(i / 8) - 4) * 0.3, 0], 4 * i);
      // 0.5 … 60 units a step at dt = 1/60
      state.velocity.set([30 + i * 56, (i % 3) - 1, 0, 100], 4 * i);
    }
    for (let n = 1; n <= 5; n++) {
      stepState(o, n, 1 / 60, state);
      for (let i = 0; i < o.count; i++)
        expect(
          state.position[4 * i] as number,
          `particle ${i} after step ${n} (speed ${30 + i * 56})`,
        ).toBeLessThan(-0.01);
    }
  });
});
