// The vector field module (src/particles/modules/field.ts) on every path: curl noise as a force
// (clamped) and a linear wind (repeating) carry particles as the CPU reference says (each path's
// state within 1e-3 of it), and without the field nothing moves.
import {
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

export const cases = defineCases(
  Object.fromEntries(
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
);
