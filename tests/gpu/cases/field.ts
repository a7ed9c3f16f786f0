// The vector field module (src/particles/modules/field.ts) on every path: curl noise as a force
// (clamped) and a linear wind (repeating) carry particles as the CPU reference says (each path's
// state within 1e-3 of it), and without the field nothing moves.
import {
  EmissionSchedule,
  createState,
  particleModules,
  resolveOptions,
  stepState,
  type ParticleOptionsInput,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { pathsOf, stepped } from '../page/particle-helpers.js';

const COUNT = 1500;
const STEPS = 40;
const DT = 1 / 60;

/** Still particles in a ball: whatever moves them is the field. */
const STILL: ParticleOptionsInput = {
  count: COUNT,
  emitter: { shape: 'sphere', position: [0, 0, 0], radius: 3, angle: 0 },
  speedMin: 0,
  speedMax: 0,
  spread: 0,
  lifeMin: 100,
  lifeMax: 100,
  gravity: [0, 0, 0],
  drag: 0,
  floorY: -1000,
};

const size = [6, 5, 7] as const;
const min = [-2, -2, -2] as const;
const max = [2, 2, 2] as const;
const nodes = size[0] * size[1] * size[2];

const FIELDS: Record<string, Record<string, unknown>> = {
  // a curl-noise force over a box smaller than the ball: particles outside read its faces
  'curl noise, a force, clamped': {
    min,
    max,
    size,
    curl: { frequency: 0.4, seed: 3 },
    strength: 6,
  },
  // a wind that turns with x and repeats every 4 units: particles are carried towards it
  'a wind, repeating': {
    min,
    max,
    size,
    vectors: Array.from({ length: nodes }, (_, i) => {
      const x = i % size[0];
      return [Math.cos(x), 0.5, Math.sin(x)];
    }).flat(),
    as: 'velocity',
    tiling: 'repeat',
    strength: 3,
  },
};

/**
 * Born on a mesh (a 4 × 4 square at y = 2), falling through a curl-noise force onto a rippled
 * heightfield: the mesh's triangles, the field's grid and the terrain's heights are one table the
 * update reads, side by side.
 */
const TOGETHER: ParticleOptionsInput = {
  ...STILL,
  count: 600,
  bursts: [{ time: 0, count: 600 }],
  emitter: { shape: 'point', position: [0, 0, 0], radius: 0, angle: 0 },
  mesh: { positions: [-2, 2, -2, 2, 2, -2, 2, 2, 2, -2, 2, 2], indices: [0, 2, 1, 0, 3, 2] },
  gravity: [0, -9.8, 0],
};
const together = (): ParticleOptionsInput => ({
  ...TOGETHER,
  modules: [
    ...particleModules(TOGETHER),
    { module: 'field', min, max, size, curl: { frequency: 0.4, seed: 5 }, strength: 4 },
    {
      module: 'colliders',
      shapes: [
        {
          shape: 'heightfield',
          center: [0, -1, 0],
          size: [8, 8],
          columns: 9,
          heights: Array.from({ length: 81 }, (_, i) => 0.3 * Math.sin(i % 9) * Math.cos(i / 9)),
        },
      ],
      restitution: 0.2,
      friction: 0.3,
    },
  ],
});

export const cases = defineCases({
  'field: beside a mesh and a heightfield in one system (their tables side by side), every path steps as the reference':
    {
      async run({ device }) {
        const o = resolveOptions(together());
        const steps = 70;
        const ref = createState(o);
        const schedule = new EmissionSchedule();
        for (let n = 1; n <= steps; n++) stepState(o, n, DT, ref, schedule.advance(o, DT));
        // the reference: born on the square, pushed sideways by the field, resting on the terrain
        let low = 0;
        let sideways = 0;
        for (let i = 0; i < 600; i++) {
          if (ref.position[4 * i + 1]! < 0) low++;
          if (Math.hypot(ref.position[4 * i]!, ref.position[4 * i + 2]!) > 0.1) sideways++;
        }
        assert(low > 500, `the reference brings ${low} of 600 down to the terrain`);
        assert(sideways > 500, `the reference spreads ${sideways} of 600`);
        for (const path of pathsOf(device)) {
          const ps = await stepped(device, { ...together(), path }, steps, DT);
          const s = await ps.read();
          ps.destroy();
          let off = 0;
          for (let i = 0; i < 600; i++) {
            let d = 0;
            for (let c = 0; c < 3; c++)
              d = Math.max(d, Math.abs(s.position[4 * i + c]! - ref.position[4 * i + c]!));
            if (d > 1e-3) off++;
          }
          // (a grazing contact may go either way with the hardware's ÷ and √: a few per cent)
          assert(off <= 18, `${path}: ${off} of 600 particles more than 1e-3 from the reference`);
        }
      },
    },
  ...Object.fromEntries(
    Object.entries(FIELDS).map(([what, field]) => [
      `field: ${what} moves particles on every path as the reference says`,
      {
        async run({ device }: { device: Parameters<typeof stepped>[0] }) {
          const options: ParticleOptionsInput = {
            ...STILL,
            modules: [...particleModules(STILL), { module: 'field', ...field }],
          };
          const o = resolveOptions(options);
          const ref = createState(o);
          for (let n = 1; n <= STEPS; n++) stepState(o, n, DT, ref);
          let moved = 0;
          for (let i = 0; i < COUNT; i++)
            if (
              Math.hypot(ref.velocity[4 * i]!, ref.velocity[4 * i + 1]!, ref.velocity[4 * i + 2]!) >
              0.1
            )
              moved++;
          assert(moved > COUNT * 0.9, `the reference moves ${moved} of ${COUNT} particles`);
          for (const path of pathsOf(device)) {
            const ps = await stepped(device, { ...options, path }, STEPS, DT);
            const s = await ps.read();
            let worst = 0;
            for (let i = 0; i < 4 * COUNT; i++)
              for (const [a, b] of [
                [s.position[i], ref.position[i]],
                [s.velocity[i], ref.velocity[i]],
              ] as Array<[number, number]>)
                worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
            assert(
              worst < 1e-3,
              `${path}: the state is the reference's within 1e-3 (worst ${worst})`,
            );
            ps.destroy();
          }
          // without the field nothing moves
          const still = await stepped(device, { ...STILL, path: pathsOf(device)[0] }, STEPS, DT);
          const t = await still.read();
          assert(
            t.velocity.every((v, i) => i % 4 === 3 || v === 0),
            'without the field no particle moves',
          );
          still.destroy();
        },
      },
    ]),
  ),
});
