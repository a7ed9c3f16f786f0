// Colliders (src/particles/modules/colliders.ts): analytic shapes particles bounce off, die on or
// stick to — on every path as the reference says, never inside a shape by the shapes' own
// distance functions (written here again in float64, not the module's), and never through one,
// however fast.
import {
  createParticleSystem,
  createState,
  meshSdf,
  particleModules,
  resolveOptions,
  stepState,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { pathsOf } from '../page/particle-helpers.js';
import { torusMesh } from '../../../demos/particles/presets.js';

const DT = 1 / 60;

type Shape =
  | { shape: 'sphere'; center: number[]; radius: number; inside?: boolean }
  | { shape: 'box'; center: number[]; size: number[] }
  | { shape: 'capsule'; a: number[]; b: number[]; radius: number }
  | { shape: 'plane'; point: number[]; normal: number[] };

/** The signed distance from p to a shape, in float64 (negative inside the solid). */
function distance(s: Shape, p: ArrayLike<number>): number {
  const at = (k: number): number => p[k] as number;
  if (s.shape === 'sphere') {
    const d = Math.hypot(at(0) - s.center[0]!, at(1) - s.center[1]!, at(2) - s.center[2]!);
    return s.inside ? s.radius - d : d - s.radius;
  }
  if (s.shape === 'box') {
    const q = [0, 1, 2].map((k) => Math.abs(at(k) - s.center[k]!) - s.size[k]! / 2);
    return Math.hypot(...q.map((x) => Math.max(x, 0))) + Math.min(Math.max(q[0]!, q[1]!, q[2]!), 0);
  }
  if (s.shape === 'capsule') {
    const pa = [0, 1, 2].map((k) => at(k) - s.a[k]!);
    const ba = [0, 1, 2].map((k) => s.b[k]! - s.a[k]!);
    const h = Math.min(
      Math.max(
        (pa[0]! * ba[0]! + pa[1]! * ba[1]! + pa[2]! * ba[2]!) /
          (ba[0]! ** 2 + ba[1]! ** 2 + ba[2]! ** 2),
        0,
      ),
      1,
    );
    return Math.hypot(...[0, 1, 2].map((k) => pa[k]! - ba[k]! * h)) - s.radius;
  }
  const n = Math.hypot(...s.normal);
  return [0, 1, 2].reduce((d, k) => d + ((at(k) - s.point[k]!) * s.normal[k]!) / n, 0);
}

/** The deepest any living particle is inside any shape (0 when none is). */
function deepest(shapes: readonly Shape[], position: Float32Array, velocity: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < position.length / 4; i++) {
    if ((velocity[4 * i + 3] as number) <= 0) continue;
    const p = position.subarray(4 * i, 4 * i + 3);
    for (const s of shapes) worst = Math.min(worst, distance(s, p));
  }
  return -worst;
}

/** The scene: a ball, a box, a capsule and the floor under a shower of particles. */
const SHAPES: Shape[] = [
  { shape: 'sphere', center: [0, 0, 0], radius: 1 },
  { shape: 'box', center: [1.6, -1, 0], size: [1, 1, 1] },
  { shape: 'capsule', a: [-1.6, -1.2, 0], b: [-1.6, 0.4, 0.3], radius: 0.35 },
  { shape: 'plane', point: [0, -2, 0], normal: [0, 1, 0] },
];

/** Particles falling from above onto `shapes`, with `colliders` options. */
function shower(
  shapes: readonly Shape[],
  colliders: Record<string, unknown>,
  extra: ParticleOptionsInput = {},
): ParticleOptionsInput {
  const { events, ...rest } = extra;
  const flat: ParticleOptionsInput = {
    count: 256,
    seed: 8,
    emitter: { shape: 'box', position: [0, 2.5, 0], radius: 2.2, angle: 0 },
    speedMin: 0,
    speedMax: 1,
    spread: 1,
    lifeMin: 1.2,
    lifeMax: 2.5,
    gravity: [0, -9.8, 0],
    drag: 0,
    ...rest,
  };
  return {
    ...flat,
    modules: [
      ...particleModules(flat),
      { module: 'colliders', shapes, ...colliders },
      ...(events ? [{ module: 'events', events }] : []),
    ],
  };
}

async function steps(device: Device, ps: ParticleSystem, n: number): Promise<void> {
  const enc = device.createCommandEncoder();
  for (let s = 0; s < n; s++) ps.update(enc, DT);
  device.queue.submit([enc.finish()]);
  await ps.read();
}

export const cases = defineCases({
  'colliders: a shower bounces off a ball, a box, a capsule and the floor as the reference does, never inside them, on every path':
    {
      async run({ device }) {
        const STEPS = 70;
        const input = shower(SHAPES, { restitution: 0.5, friction: 0.2 }, { events: 'collision' });
        const o = resolveOptions(input);
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...input, path }).catch(
            (e: unknown) => e as Error,
          );
          if (ps instanceof Error) {
            // WebGPU's fragment path holds 32 bytes a texel: the event records need more
            assert(
              path === 'pingpong' && /maxColorAttachmentBytesPerSample/.test(ps.message),
              `${path}: ${ps.message}`,
            );
            continue;
          }
          const ref = createState(o);
          let contacts = 0;
          let eventsOff = 0;
          for (let n = 1; n <= STEPS; n++) {
            const enc = device.createCommandEncoder();
            ps.update(enc, DT);
            device.queue.submit([enc.finish()]);
            stepState(o, n, DT, ref);
            const got = (await ps.events()).count;
            let want = 0;
            const records = ref.attributes!['eventPosition']!;
            for (let i = 0; i < o.count; i++) if ((records[4 * i + 3] as number) > 0.5) want++;
            eventsOff += Math.abs(got - want);
            contacts += got;
          }
          const s = await ps.read();
          let off = 0;
          for (let i = 0; i < o.count; i++) {
            let d = 0;
            for (let k = 0; k < 3; k++)
              d = Math.max(
                d,
                Math.abs((s.position[4 * i + k] as number) - (ref.position[4 * i + k] as number)),
              );
            if (d > 1e-3) off++;
          }
          const inside = deepest(SHAPES, s.position, s.velocity);
          const refInside = deepest(SHAPES, ref.position, ref.velocity);
          const how = `${path}: ${contacts} contacts (${eventsOff} counted otherwise than the reference over ${STEPS} steps), ${off} of ${o.count} particles more than 1e-3 from the reference, the deepest ${inside.toExponential(1)} inside a shape (reference ${refInside.toExponential(1)})`;
          assert(contacts > 100, `${how}: the particles hit the shapes`);
          // a march of 16 steps in float32: a GPU's ÷ and sqrt may round within 2.5 ulp, so a
          // grazing particle can decide otherwise than the reference, and go its own way after
          assert(off <= o.count * 0.03, `${how}: the states are the reference's`);
          assert(eventsOff <= STEPS, `${how}: the contacts are the reference's`);
          assert(inside < 2e-3 && refInside < 2e-3, `${how}: nothing is inside a shape`);
          ps.destroy();
        }
      },
    },
  'colliders never let a particle through, however fast: a slab 0.02 thick stops particles of 0.5 to 60 units a step, on every path':
    {
      async run({ device }) {
        const slab: Shape = { shape: 'box', center: [0, 0, 0], size: [8, 0.02, 8] };
        const flat: ParticleOptionsInput = {
          count: 128,
          seed: 2,
          emitter: { shape: 'box', position: [0, -3, 0], radius: 1.5, angle: 0 },
          speedMin: 30,
          speedMax: 3600,
          spread: 0,
          lifeMin: 100,
          lifeMax: 100,
          gravity: [0, 0, 0],
          drag: 0,
        };
        const input: ParticleOptionsInput = {
          ...flat,
          modules: [
            ...particleModules(flat),
            { module: 'colliders', shapes: [slab], restitution: 0 },
          ],
        };
        // without the colliders, most pass the slab in the first step
        const free = createState(resolveOptions(flat));
        stepState(resolveOptions(flat), 1, DT, free);
        let crossed = 0;
        for (let i = 0; i < 128; i++) if ((free.position[4 * i + 1] as number) > 0.01) crossed++;
        assert(crossed > 100, `without colliders ${crossed} of 128 cross the slab in a step`);
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...input, path });
          let highest = -Infinity;
          for (let n = 0; n < 6; n++) {
            await steps(device, ps, 1);
            const s = await ps.read();
            for (let i = 0; i < ps.count; i++)
              highest = Math.max(highest, s.position[4 * i + 1] as number);
          }
          const s = await ps.read();
          let resting = 0;
          for (let i = 0; i < ps.count; i++)
            if (Math.abs((s.position[4 * i + 1] as number) + 0.012) < 1e-3) resting++;
          assert(
            highest <= -0.01 + 1e-4,
            `${path}: the highest particle reached y = ${highest} (the slab's underside is at −0.01)`,
          );
          assert(resting > 100, `${path}: ${resting} of 128 rest against the slab`);
          ps.destroy();
        }
      },
    },
  "colliders' responses: 'die' kills on contact, 'stick' holds still on the surface, an inside sphere holds everything in, on every path":
    {
      async run({ device }) {
        for (const path of pathsOf(device)) {
          // die: a burst falls on the shapes; the living are never inside, and fewer each second
          const die = await createParticleSystem(device, {
            ...shower(SHAPES, { response: 'die' }, { bursts: [{ time: 0, count: 256 }] }),
            path,
          });
          await steps(device, die, 1);
          const before = (await die.stats()).alive;
          await steps(device, die, 50);
          const after = (await die.stats()).alive;
          const d = await die.read();
          const deepDie = deepest(SHAPES, d.position, d.velocity);
          assert(
            before === 256 && after < 200 && deepDie < 2e-3,
            `${path} die: ${before} → ${after} alive, the deepest living ${deepDie} inside`,
          );
          die.destroy();
          // stick: still, and on a surface
          const stick = await createParticleSystem(device, {
            ...shower(SHAPES, { response: 'stick' }, { lifeMin: 5, lifeMax: 5 }),
            path,
          });
          await steps(device, stick, 60);
          const s = await stick.read();
          let stuck = 0;
          let farthest = 0;
          for (let i = 0; i < stick.count; i++) {
            const v = s.velocity.subarray(4 * i, 4 * i + 3);
            if (v[0] !== 0 || v[1] !== 0 || v[2] !== 0) continue;
            stuck++;
            const p = s.position.subarray(4 * i, 4 * i + 3);
            const nearest = Math.min(...SHAPES.map((sh) => Math.abs(distance(sh, p))));
            farthest = Math.max(farthest, nearest);
          }
          assert(
            stuck > 100 && farthest < 0.01,
            `${path} stick: ${stuck} still, the farthest ${farthest} from a surface`,
          );
          stick.destroy();
          // inside: a ball of radius 2 around a fast spray from its centre
          const globe: Shape = { shape: 'sphere', center: [0, 0, 0], radius: 2, inside: true };
          const spray: ParticleOptionsInput = {
            count: 128,
            seed: 6,
            emitter: { shape: 'cone', position: [0, 0, 0], radius: 0, angle: 3.14 },
            speedMin: 5,
            speedMax: 40,
            lifeMin: 5,
            lifeMax: 5,
            gravity: [0, -3, 0],
          };
          const held = await createParticleSystem(device, {
            ...spray,
            modules: [
              ...particleModules(spray),
              { module: 'colliders', shapes: [globe], restitution: 0.9 },
            ],
            path,
          });
          let farthestOut = 0;
          for (let k = 0; k < 6; k++) {
            await steps(device, held, 10);
            const h = await held.read();
            farthestOut = Math.max(farthestOut, deepest([globe], h.position, h.velocity));
          }
          assert(farthestOut < 2e-3, `${path} inside: ${farthestOut} outside the globe at most`);
          held.destroy();
        }
      },
    },
  "colliders: a baked SDF (a torus mesh baked by meshSdf) holds a shower out of the torus, as the reference does, on every path (WebGL2's fragment path on SwiftShader refuses it by name)":
    {
      async run({ device }) {
        // the demo's torus (radius 3, tube 0.6, 32 × 12 segments) baked on a 24 × 8 × 24 grid
        const torus = torusMesh();
        const grid = meshSdf(torus, { min: [-4, -1.2, -4], max: [4, 1.2, 4], size: [24, 8, 24] });
        /** The smooth torus's distance in float64: what the baked polygon approximates. */
        const exact = (x: number, y: number, z: number): number =>
          Math.hypot(Math.hypot(x, z) - 3, y) - 0.6;
        const flat: ParticleOptionsInput = {
          count: 256,
          seed: 9,
          gravity: [0, -9.8, 0],
          drag: 0,
          speedMin: 0,
          speedMax: 1,
          lifeMin: 3,
          lifeMax: 3,
          emitter: { shape: 'box', position: [0, 4.5, 0], radius: 3.6, angle: 0 },
        };
        const input: ParticleOptionsInput = {
          ...flat,
          modules: [
            ...particleModules(flat),
            { module: 'colliders', shapes: [grid], restitution: 0.3, friction: 0.2 },
          ],
        };
        const o = resolveOptions(input);
        const ref = createState(o);
        for (let n = 1; n <= 60; n++) stepState(o, n, DT, ref);
        // WebGL2's fragment path on SwiftShader refuses it by name (its pass never finishes there)
        const a = device.caps.adapter;
        const webgl2 =
          device.caps.shaderLanguage === 'glsl' &&
          /swiftshader/i.test(`${a.vendor} ${a.architecture} ${a.description}`);
        if (webgl2) {
          let error: unknown;
          try {
            (await createParticleSystem(device, { ...input, path: 'pingpong' })).destroy();
          } catch (e) {
            error = e;
          }
          assert(
            /colliders\.shapes = a baked SDF is not run by WebGL2's fragment path/.test(
              String(error),
            ),
            String(error),
          );
        }
        for (const path of pathsOf(device).filter((p) => !(webgl2 && p === 'pingpong'))) {
          const ps = await createParticleSystem(device, { ...input, path });
          let deepest = Infinity;
          const met = new Set<number>();
          for (let k = 0; k < 6; k++) {
            await steps(device, ps, 10);
            const s = await ps.read();
            for (let i = 0; i < ps.count; i++) {
              const d = exact(s.position[4 * i]!, s.position[4 * i + 1]!, s.position[4 * i + 2]!);
              deepest = Math.min(deepest, d);
              if (d < 0.08) met.add(i);
            }
          }
          const s = await ps.read();
          let off = 0;
          for (let i = 0; i < ps.count; i++) {
            let d = 0;
            for (let k = 0; k < 3; k++)
              d = Math.max(d, Math.abs(s.position[4 * i + k]! - ref.position[4 * i + k]!));
            if (d > 1e-3) off++;
          }
          const how = `${path}: deepest ${deepest.toFixed(4)} inside the smooth torus, ${met.size} met it, ${off} of 256 more than 1e-3 from the reference`;
          // the baked surface is a 32 × 12 polygon, trilinear on a grid of 0.35 units: within 0.06
          assert(deepest > -0.06, `${how}: nothing passes into the torus`);
          assert(met.size > 20, `${how}: the shower meets the torus`);
          assert(off <= 256 * 0.03, `${how}: the states are the reference's`);
          ps.destroy();
        }
      },
    },
  'colliders: a heightfield holds a shower above its bilinear surface, as the reference does, on every path':
    {
      async run({ device }) {
        const columns = 9;
        const heights = Array.from(
          { length: columns * columns },
          (_, i) => 0.6 * Math.sin((i % columns) * 0.9) * Math.cos(Math.floor(i / columns) * 0.7),
        );
        /** The terrain's height at (x, z), bilinear in float64 (not the module's code). */
        const height = (x: number, z: number): number => {
          const gx = ((x + 4) / 8) * (columns - 1);
          const gz = ((z + 4) / 8) * (columns - 1);
          const cx = Math.min(Math.floor(gx), columns - 2);
          const cz = Math.min(Math.floor(gz), columns - 2);
          const [tx, tz] = [gx - cx, gz - cz];
          const h = (c: number, r: number): number => heights[r * columns + c]!;
          const near = h(cx, cz) * (1 - tx) + h(cx + 1, cz) * tx;
          const far = h(cx, cz + 1) * (1 - tx) + h(cx + 1, cz + 1) * tx;
          return -1 + near * (1 - tz) + far * tz;
        };
        const flat: ParticleOptionsInput = {
          count: 256,
          seed: 5,
          gravity: [0, -9.8, 0],
          drag: 0,
          speedMin: 0,
          speedMax: 3,
          lifeMin: 3,
          lifeMax: 3,
          emitter: { shape: 'box', position: [0, 3, 0], radius: 2.5, angle: 0 },
        };
        const input: ParticleOptionsInput = {
          ...flat,
          modules: [
            ...particleModules(flat),
            {
              module: 'colliders',
              shapes: [
                { shape: 'heightfield', center: [0, -1, 0], size: [8, 8], columns, heights },
              ],
              restitution: 0.3,
            },
          ],
        };
        const o = resolveOptions(input);
        const ref = createState(o);
        for (let n = 1; n <= 90; n++) stepState(o, n, DT, ref);
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...input, path });
          let lowest = Infinity;
          for (let k = 0; k < 9; k++) {
            await steps(device, ps, 10);
            const s = await ps.read();
            for (let i = 0; i < ps.count; i++) {
              const [x, y, z] = [0, 1, 2].map((d) => s.position[4 * i + d] as number) as [
                number,
                number,
                number,
              ];
              if (Math.abs(x) <= 4 && Math.abs(z) <= 4) lowest = Math.min(lowest, y - height(x, z));
            }
          }
          const s = await ps.read();
          let off = 0;
          let landed = 0;
          for (let i = 0; i < ps.count; i++) {
            let d = 0;
            for (let k = 0; k < 3; k++)
              d = Math.max(
                d,
                Math.abs((s.position[4 * i + k] as number) - (ref.position[4 * i + k] as number)),
              );
            if (d > 1e-3) off++;
            const [x, y, z] = [0, 1, 2].map((k) => s.position[4 * i + k] as number) as [
              number,
              number,
              number,
            ];
            if (Math.abs(x) <= 4 && Math.abs(z) <= 4 && y - height(x, z) < 0.05) landed++;
          }
          const how = `${path}: lowest ${lowest.toExponential(2)} above the terrain, ${landed} resting on it, ${off} of 256 more than 1e-3 from the reference`;
          assert(lowest > -2e-3, `${how}: nothing below the surface`);
          assert(landed > 50, `${how}: the shower reached the terrain`);
          assert(off <= 256 * 0.03, `${how}: the states are the reference's`);
          ps.destroy();
        }
      },
    },
});
