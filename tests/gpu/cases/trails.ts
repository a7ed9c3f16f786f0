// Trails (the trail module): the history every path keeps is the reference's positions step by step,
// the ribbons are drawn the same on every path and in both raster modes, lie where the particle
// went (not ahead of it, not before the trail's reach), and never join one life to the next.
import {
  ParticleOptionError,
  TextureUsage,
  createParticleSystem,
  createState,
  resolveOptions,
  stepState,
  type Camera,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertThrows } from '../page/assert.js';
import { CAMERA, IMAGE, drawImage, imageDiff, pathsOf, stepped } from '../page/particle-helpers.js';

const DT = 1 / 60;

/** Many short lives in a ball: births and deaths inside the trail's reach. */
const RESPAWNING: ParticleOptionsInput = {
  count: 300,
  seed: 7,
  emitter: { shape: 'sphere', position: [0, -2, 0], radius: 1, angle: 0 },
  speedMin: 1,
  speedMax: 3,
  spread: 1,
  lifeMin: 0.05,
  lifeMax: 0.3,
  trail: { length: 8 },
};

const WHITE: [number, number, number, number] = [1, 1, 1, 1];

/** One particle rising at 3 units/s from (0, −4, 0), a tiny head, a wide opaque white trail. */
const RISING: ParticleOptionsInput = {
  count: 1,
  bursts: [{ time: 0, count: 1 }],
  emitter: { shape: 'box', position: [0, -4, 0], radius: 0 },
  speedMin: 3,
  speedMax: 3,
  spread: 0,
  gravity: [0, 0, 0],
  drag: 0,
  lifeMin: 10,
  lifeMax: 10,
  size: 0.01,
  colors: [WHITE, WHITE, WHITE, WHITE],
  trail: { length: 16, width: [0.4, 0.4], colors: [WHITE, WHITE] },
};

/** The pixel (column, row from the top) where `camera` puts world point p in an IMAGE² target. */
function pixelOf(camera: Camera, p: readonly number[]): [number, number] {
  const v = camera.view;
  const m = camera.projection;
  const view = [0, 1, 2, 3].map(
    (r) =>
      (v[r] as number) * p[0]! +
      (v[4 + r] as number) * p[1]! +
      (v[8 + r] as number) * p[2]! +
      (v[12 + r] as number),
  );
  const clip = [0, 1, 3].map(
    (r) =>
      (m[r] as number) * view[0]! +
      (m[4 + r] as number) * view[1]! +
      (m[8 + r] as number) * view[2]! +
      (m[12 + r] as number) * view[3]!,
  );
  const x = clip[0]! / clip[2]!;
  const y = clip[1]! / clip[2]!;
  return [Math.floor((x * 0.5 + 0.5) * IMAGE), Math.floor((0.5 - y * 0.5) * IMAGE)];
}

/** The red channel at world point p (the brightest within a pixel of it). */
function redAt(img: Uint8Array, p: readonly number[]): number {
  const [cx, cy] = pixelOf(CAMERA, p);
  let best = 0;
  for (let y = cy - 1; y <= cy + 1; y++)
    for (let x = cx - 1; x <= cx + 1; x++)
      if (x >= 0 && y >= 0 && x < IMAGE && y < IMAGE)
        best = Math.max(best, img[4 * (y * IMAGE + x)] as number);
  return best;
}

/** Sample k (k steps ago) of particle i in readTrail's positions: x, y, z, age. */
function sampleOf(positions: Float32Array, count: number, k: number, i = 0): number[] {
  return Array.from(positions.subarray(4 * (count * k + i), 4 * (count * k + i) + 4));
}

const mid = (a: readonly number[], b: readonly number[]): number[] =>
  [0, 1, 2].map((c) => (a[c]! + b[c]!) / 2);

/** Every path in both raster modes: a system stepped `steps` times, then drawn. */
async function everyWay(
  device: Device,
  options: ParticleOptionsInput,
  steps: number,
  check: (ps: ParticleSystem, img: Uint8Array, how: string) => Promise<void>,
): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>();
  for (const path of pathsOf(device))
    for (const drawMode of ['instanced', 'pulled'] as const) {
      const ps = await stepped(device, { ...options, path, drawMode }, steps, DT);
      const img = await drawImage(device, ps);
      const how = `${path}, ${drawMode}`;
      await check(ps, img, how);
      images.set(how, img);
      ps.destroy();
    }
  const [first, ...rest] = [...images.entries()];
  for (const [how, img] of rest) {
    const { differ, worst } = imageDiff(first![1], img, 0);
    assert(
      differ === 0,
      `${how} draws the trails as ${first![0]} does (${differ} pixels differ, worst by ${worst})`,
    );
  }
  return images;
}

export const cases = defineCases({
  'the trail history is the reference positions, step by step, on every path': {
    async run({ device }) {
      const STEPS = 13;
      const o = resolveOptions(RESPAWNING);
      const ref = createState(o);
      const past: Float32Array[] = [];
      for (let n = 1; n <= STEPS; n++) {
        stepState(o, n, DT, ref);
        past.unshift(ref.position.slice());
      }
      let births = 0;
      for (let i = 0; i < o.count; i++)
        for (let k = 0; k < 7; k++)
          if ((past[k]![4 * i + 3] as number) <= (past[k + 1]![4 * i + 3] as number)) births++;
      assert(births > 100, `lives end and begin inside the trails' reach (${births} births)`);
      for (const path of pathsOf(device)) {
        // the states one step at a time, read back after each
        const single = await createParticleSystem(device, { ...RESPAWNING, path });
        const states: Float32Array[] = [];
        for (let n = 1; n <= STEPS; n++) {
          single.step(DT);
          states.unshift((await single.read()).position);
        }
        single.destroy();
        // ten steps to an encoder: the copies are recorded in order between the steps
        const ps = await stepped(device, { ...RESPAWNING, path }, STEPS, DT);
        const trail = await ps.readTrail();
        assert(
          trail.length === 8 && trail.recorded === 8,
          `${path}: 8 positions kept, 8 recorded (${trail.length}, ${trail.recorded})`,
        );
        let differ = 0;
        let worst = 0;
        for (let k = 0; k < 8; k++)
          for (let j = 0; j < 4 * o.count; j++) {
            const a = trail.positions[4 * o.count * k + j] as number;
            if (!Object.is(a, states[k]![j])) differ++;
            const b = past[k]![j] as number;
            worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
          }
        assert(
          differ === 0,
          `${path}: copy k of the history is, bit for bit, the state after step ${STEPS} − k (${differ} floats differ)`,
        );
        const tolerance = ps.precision === 'f16' ? 1e-2 : 1e-3;
        assert(
          worst <= tolerance,
          `${path}: and the reference's within ${tolerance} (worst ${worst})`,
        );
        ps.destroy();
      }
    },
  },
  'a ribbon lies where its particle went, the same on every path and raster mode': {
    async run({ device }) {
      const STEPS = 40;
      await everyWay(device, RISING, STEPS, async (ps, img, how) => {
        const { positions, recorded } = await ps.readTrail();
        assert(recorded === 16, `${how}: 16 positions recorded (${recorded})`);
        const head = sampleOf(positions, 1, 0);
        const tail = sampleOf(positions, 1, 15);
        assert(
          head[1]! - tail[1]! > 0.7,
          `${how}: the trail spans 15 steps of rising (${tail[1]} to ${head[1]})`,
        );
        const along = [0.25, 0.5, 0.75].map((t) => [0, tail[1]! + t * (head[1]! - tail[1]!), 0]);
        for (const p of along)
          assert(
            redAt(img, p) > 200,
            `${how}: the ribbon covers y = ${p[1]} (red ${redAt(img, p)})`,
          );
        const ahead = [0, head[1]! + 0.6, 0];
        const before = [0, tail[1]! - 0.6, 0];
        assert(
          redAt(img, ahead) === 0,
          `${how}: nothing ahead of the particle (red ${redAt(img, ahead)})`,
        );
        assert(
          redAt(img, before) === 0,
          `${how}: nothing beyond the trail's reach, where it was 16 steps ago and more (red ${redAt(img, before)})`,
        );
        const aside = [0.6, mid(head, tail)[1]!, 0];
        assert(
          redAt(img, aside) === 0,
          `${how}: the ribbon is 0.4 wide (red ${redAt(img, aside)} at x = 0.6)`,
        );
      });
      // without the trail module only the tiny head is drawn
      const { trail: _trail, ...bare } = RISING;
      const ps = await stepped(device, bare, STEPS, DT);
      const img = await drawImage(device, ps);
      assert(
        redAt(img, [0, -2.6, 0]) === 0,
        `without trail nothing lies behind the particle (red ${redAt(img, [0, -2.6, 0])})`,
      );
      ps.destroy();
    },
  },
  'a textured ribbon shows its image along the trail, head to tail, the same on every path and raster mode':
    {
      async run({ device }) {
        // two texels: white at the head's end (u < 0.25), black at the tail's (u > 0.75)
        const image = device.createTexture({
          label: 'white to black',
          size: { width: 2, height: 1 },
          format: 'rgba8unorm',
          usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
        });
        device.queue.writeTexture(
          { texture: image },
          new Uint8Array([255, 255, 255, 255, 0, 0, 0, 255]),
          { bytesPerRow: 8 },
          { width: 2, height: 1 },
        );
        const textured: ParticleOptionsInput = {
          ...RISING,
          trail: { ...(RISING.trail as object), texture: image },
        };
        await everyWay(device, textured, 40, async (ps, img, how) => {
          const { positions } = await ps.readTrail();
          const head = sampleOf(positions, 1, 0);
          const tail = sampleOf(positions, 1, 15);
          const at = (u: number): number[] => [0, head[1]! + u * (tail[1]! - head[1]!), 0];
          assert(
            redAt(img, at(0.12)) > 200,
            `${how}: white near the head (red ${redAt(img, at(0.12))})`,
          );
          assert(
            redAt(img, at(0.88)) < 30,
            `${how}: black near the tail (red ${redAt(img, at(0.88))})`,
          );
          // the image spans the width, not the soft edge: a point a third of the way out is as lit
          const side = [0.12, at(0.12)[1]!, 0];
          assert(
            redAt(img, side) > 200,
            `${how}: the image is not faded across (red ${redAt(img, side)})`,
          );
        });
        await assertThrows(
          () => createParticleSystem(device, { ...RISING, trail: { texture: {} as never } }),
          ParticleOptionError,
          /trail\.texture.*must be null or a texture of this device/,
          'not a texture',
        );
        const unbound = device.createTexture({
          label: 'not sampled',
          size: { width: 2, height: 1 },
          format: 'rgba8unorm',
          usage: TextureUsage.COPY_DST,
        });
        await assertThrows(
          () => createParticleSystem(device, { ...RISING, trail: { texture: unbound } }),
          ParticleOptionError,
          /trail\.texture.*needs TextureUsage.TEXTURE_BINDING/,
          'a texture shaders may not sample',
        );
      },
    },
  'inherit: the trail takes the particle’s colour and size over life at each sample’s age, its end-of-life look once it has died':
    {
      async run({ device }) {
        const RED = [1, 0, 0, 1] as const;
        const BLUE = [0, 0, 1, 1] as const;
        // red for the first 40% of a half-second life, blue after 60%; the width shrinking to a fifth
        const aging: ParticleOptionsInput = {
          ...RISING,
          lifeMin: 0.5,
          lifeMax: 0.5,
          colors: [RED, RED, BLUE, BLUE],
          colorStops: [0, 0.4, 0.6, 1],
          sizeOverLife: [1, 0.2],
          trail: { length: 16, width: [0.4, 0.4], colors: [WHITE, WHITE], inherit: true },
        };
        const channels = (img: Uint8Array, p: readonly number[]): [number, number] => {
          const [cx, cy] = pixelOf(CAMERA, p);
          const i = (cy * IMAGE + cx) * 4;
          return [img[i] as number, img[i + 2] as number];
        };
        // 26 steps: the head at 87% of its life (blue, narrow), the tail's end at 37% (red, wide)
        await everyWay(device, aging, 26, async (ps, img, how) => {
          const { positions } = await ps.readTrail();
          const head = sampleOf(positions, 1, 0);
          const tail = sampleOf(positions, 1, 15);
          const at = (u: number, x = 0): number[] => [x, head[1]! + u * (tail[1]! - head[1]!), 0];
          const [hr, hb] = channels(img, at(0.1));
          assert(
            hb > 150 && hr < 30,
            `${how}: blue near the head, late in life (r ${hr}, b ${hb})`,
          );
          const [tr, tb] = channels(img, at(0.9));
          assert(
            tr > 150 && tb < 30,
            `${how}: red near the tail, early in life (r ${tr}, b ${tb})`,
          );
          const wide = Math.max(...channels(img, at(0.9, 0.09)));
          const narrow = Math.max(...channels(img, at(0.1, 0.09)));
          assert(wide > 60, `${how}: 0.09 aside the tail is on the ribbon (${wide})`);
          assert(
            narrow === 0,
            `${how}: 0.09 aside the head is off it, narrower late in life (${narrow})`,
          );
        });
        // 36 steps, a ring of 32: dead for six; the positions from early in its life, red while it
        // lived, are drawn as at its end: blue (and narrow)
        const long: ParticleOptionsInput = {
          ...aging,
          trail: { length: 32, width: [0.4, 0.4], colors: [WHITE, WHITE], inherit: true },
        };
        await everyWay(device, long, 36, async (ps, img, how) => {
          const { positions } = await ps.readTrail();
          const { velocity } = await ps.read();
          assert((velocity[3] as number) <= 0, `${how}: the particle has died`);
          const early = sampleOf(positions, 1, 27);
          assert(
            early[3]! < 0.2,
            `${how}: sample 27 back is from early in its life (age ${early[3]})`,
          );
          const [r, b] = channels(img, [0, early[1]!, 0]);
          assert(
            b > 60 && r < 30,
            `${how}: early positions take the end-of-life blue (r ${r}, b ${b})`,
          );
        });
        await assertThrows(
          () => createParticleSystem(device, { ...RISING, trail: { inherit: 'yes' as never } }),
          ParticleOptionError,
          /trail\.inherit.*must be true or false/,
          'inherit is a boolean',
        );
      },
    },
  'fade: an ended life’s trail fades out over trail.fade seconds after its last position, on every path and raster mode; a living trail is untouched':
    {
      async run({ device }) {
        const FADE = 0.2;
        const base: ParticleOptionsInput = {
          ...RISING,
          lifeMin: 0.5,
          lifeMax: 0.5,
          trail: { length: 32, width: [0.4, 0.4], colors: [WHITE, WHITE] },
        };
        const fading: ParticleOptionsInput = {
          ...base,
          trail: { ...(base.trail as object), fade: FADE },
        };
        // while the particle lives, its trail is the trail without a fade
        const plain = await everyWay(device, base, 20, async () => {});
        const alive = await everyWay(device, fading, 20, async () => {});
        const { differ } = imageDiff([...plain.values()][0]!, [...alive.values()][0]!, 0);
        assert(differ === 0, `a living trail is not faded (${differ} pixels differ)`);
        // dead (emission: the slot stays dead) and born again (continuous: a new life rises)
        // (the continuous particle starts part-way through a life: it ends at step 13, 43, …)
        for (const [name, o, at] of [
          ['dead', fading, [34, 38, 44]],
          [
            'born again',
            {
              ...fading,
              bursts: undefined,
              seed: 3,
              emitter: { shape: 'box', position: [0, -3, 0], radius: 2 },
            },
            [46, 50, 56],
          ],
        ] as const)
          for (const steps of at) {
            let unfaded = 0;
            await everyWay(device, { ...o, trail: base.trail }, steps, async (ps, img) => {
              const { positions } = await ps.readTrail();
              const s = Array.from({ length: 32 }, (_, k) => sampleOf(positions, 1, k));
              const d = s.findIndex((x, k) => k > 0 && x[3]! > 0 && s[k - 1]![3]! <= x[3]!);
              unfaded = redAt(img, mid(s[d + 2]!, s[d + 4]!));
            });
            await everyWay(device, o, steps, async (ps, img, how) => {
              const { positions } = await ps.readTrail();
              const s = Array.from({ length: 32 }, (_, k) => sampleOf(positions, 1, k));
              // the ended life's newest sample: d steps before the newest record
              const d = s.findIndex((x, k) => k > 0 && x[3]! > 0 && s[k - 1]![3]! <= x[3]!);
              assert(d >= 2 && d <= 27, `${how}, ${name}: the life ended inside the ring (${d})`);
              const alpha = Math.max(0, 1 - (d * DT) / FADE);
              const red = redAt(img, mid(s[d + 2]!, s[d + 4]!));
              assert(
                Math.abs(red - 255 * alpha) <= 8,
                `${how}, ${name}, ${steps} steps: the ended life's trail at alpha 1 − ${d} steps / ${FADE} s = ${alpha.toFixed(3)} (red ${red}; ${unfaded} without the fade)`,
              );
              assert(unfaded > 240, `${how}, ${name}: without the fade it is drawn (${unfaded})`);
            });
          }
        await assertThrows(
          () => createParticleSystem(device, { ...RISING, trail: { fade: -1 } }),
          ParticleOptionError,
          /trail\.fade.*must be seconds ≥ 0/,
          'a negative fade',
        );
      },
    },
  'a trail never joins one life to the next, and outlives its particle': {
    async run({ device }) {
      // continuous: a particle of 0.25 s respawns somewhere else in a ball of radius 2
      const relife: ParticleOptionsInput = {
        ...RISING,
        bursts: undefined,
        seed: 3,
        emitter: { shape: 'sphere', position: [0, -2, 0], radius: 2.5, angle: 0 },
        lifeMin: 0.25,
        lifeMax: 0.25,
        trail: { length: 24, width: [0.25, 0.25], colors: [WHITE, WHITE] },
      };
      await everyWay(device, relife, 26, async (ps, img, how) => {
        const { positions } = await ps.readTrail();
        const samples = Array.from({ length: 24 }, (_, k) => sampleOf(positions, 1, k));
        const birth = samples.findIndex((s, k) => k < 23 && s[3]! <= samples[k + 1]![3]!);
        assert(birth > 1 && birth < 21, `${how}: a birth inside the trail (sample ${birth})`);
        const born = samples[birth]!;
        const died = samples[birth + 1]!;
        const gap = Math.hypot(born[0]! - died[0]!, born[1]! - died[1]!, born[2]! - died[2]!);
        assert(gap > 1, `${how}: the new life begins ${gap} from where the last one ended`);
        assert(
          redAt(img, mid(born, died)) === 0,
          `${how}: no segment from the death to the birth (red ${redAt(img, mid(born, died))})`,
        );
        const old = mid(samples[birth + 2]!, samples[birth + 4]!);
        assert(
          redAt(img, old) > 200,
          `${how}: the last life's trail is still drawn (red ${redAt(img, old)})`,
        );
      });
      // with emission: a dead particle's samples (at the origin, age 0) join nothing
      const once: ParticleOptionsInput = { ...RISING, lifeMin: 0.2, lifeMax: 0.2 };
      await everyWay(device, once, 20, async (ps, img, how) => {
        const { positions } = await ps.readTrail();
        const newest = sampleOf(positions, 1, 0);
        assert(
          newest.every((x) => x === 0),
          `${how}: the newest sample is a dead slot's (${newest})`,
        );
        const last = Array.from({ length: 16 }, (_, k) => sampleOf(positions, 1, k)).find(
          (s) => s[3]! > 0,
        )!;
        assert(last !== undefined, `${how}: the life's samples are still in the ring`);
        assert(
          redAt(img, last) > 200,
          `${how}: the trail outlives its particle (red ${redAt(img, last)})`,
        );
        const toOrigin = mid(last, [0, 0, 0]);
        assert(
          redAt(img, toOrigin) === 0,
          `${how}: nothing joins the trail to the dead slot's origin (red ${redAt(img, toOrigin)})`,
        );
      });
    },
  },
  'a linked ribbon joins the living particles in birth order (a swoosh behind a moving emitter), on every path and raster mode; inherit colours it by each one’s age':
    {
      async run({ device }) {
        // still particles, one born per step where the emitter is, the emitter moving along x
        const swoosh: ParticleOptionsInput = {
          ...RISING,
          bursts: [],
          emitRate: 60,
          count: 64,
          speedMin: 0,
          speedMax: 0,
          trail: null,
          link: { width: [0.3, 0.3], colors: [WHITE, WHITE] },
        };
        const STEPS = 40;
        const at = (n: number): number[] => [-2 + 0.1 * n, -2, 0];
        const images = new Map<string, Uint8Array>();
        for (const path of pathsOf(device))
          for (const drawMode of ['instanced', 'pulled'] as const) {
            const ps = await createParticleSystem(device, { ...swoosh, path, drawMode });
            for (let n = 1; n <= STEPS; n++) {
              ps.setOptions({ emitter: { position: at(n) as [number, number, number] } });
              ps.step(DT);
            }
            const img = await drawImage(device, ps);
            const how = `${path}, ${drawMode}`;
            // between births (0.1 apart, the particles 0.01 wide): only the ribbon lights it
            for (const n of [5, 20, 35]) {
              const p = [-2 + 0.1 * n + 0.05, -2, 0];
              assert(
                redAt(img, p) > 200,
                `${how}: the ribbon joins births ${n} and ${n + 1} (red ${redAt(img, p)})`,
              );
            }
            assert(redAt(img, [0, -1.4, 0]) === 0, `${how}: nothing off the emitter's path`);
            assert(
              redAt(img, [-2 + 0.1 * (STEPS + 5), -2, 0]) === 0,
              `${how}: nothing beyond the newest particle`,
            );
            images.set(how, img);
            ps.destroy();
          }
        const [first, ...rest] = [...images.entries()];
        for (const [how, img] of rest) {
          const { differ } = imageDiff(first![1], img, 0);
          assert(
            differ === 0,
            `${how} draws the link as ${first![0]} does (${differ} pixels differ)`,
          );
        }
        // inherit: each particle's colour at its age — the oldest blue, the newest red
        const aged: ParticleOptionsInput = {
          ...swoosh,
          lifeMin: 1,
          lifeMax: 1,
          colors: [
            [1, 0, 0, 1],
            [1, 0, 0, 1],
            [0, 0, 1, 1],
            [0, 0, 1, 1],
          ],
          colorStops: [0, 0.3, 0.5, 1],
          link: { width: [0.3, 0.3], colors: [WHITE, WHITE], inherit: true },
        };
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...aged, path, drawMode: 'pulled' });
          for (let n = 1; n <= STEPS; n++) {
            ps.setOptions({ emitter: { position: at(n) as [number, number, number] } });
            ps.step(DT);
          }
          const img = await drawImage(device, ps);
          const rgb = (n: number): [number, number] => {
            const [cx, cy] = pixelOf(CAMERA, [-2 + 0.1 * n + 0.05, -2, 0]);
            const i = (cy * IMAGE + cx) * 4;
            return [img[i] as number, img[i + 2] as number];
          };
          const [or, ob] = rgb(5);
          assert(ob > 150 && or < 30, `${path}: born 35 steps ago, blue (r ${or}, b ${ob})`);
          const [nr, nb] = rgb(35);
          assert(nr > 150 && nb < 30, `${path}: born 5 steps ago, red (r ${nr}, b ${nb})`);
          ps.destroy();
        }
        let error: unknown;
        try {
          await createParticleSystem(device, { count: 8, link: {} });
        } catch (e) {
          error = e;
        }
        assert(
          /link.*give the system emitRate or bursts/.test(String(error)),
          `continuous: ${String(error)}`,
        );
      },
    },
  'several linked ribbons: the slots dealt interleaved (a ribbon per column) or in blocks (a ribbon per row), never joined across, on every path and raster mode':
    {
      async run({ device }) {
        // 36 births, one a step, each where the emitter is moved: birth n at column n % 8, row
        // floor(n / 8) of a grid, so births 32…35 (a fifth row) reuse slots 0…3
        const at = (n: number): [number, number, number] => [
          -3 + 0.8 * (n % 8),
          -4 + Math.floor(n / 8),
          0,
        ];
        const grid: ParticleOptionsInput = {
          ...RISING,
          bursts: [],
          emitRate: 60,
          count: 32,
          speedMin: 0,
          speedMax: 0,
          trail: null,
        };
        const BIRTHS = 36;
        /** Lit (a ribbon there) or dark at the midpoint of births a and b. */
        const between = (img: Uint8Array, a: number, b: number): boolean =>
          redAt(img, mid(at(a), at(b))) > 200;
        const cases = [
          // one ribbon: every birth joined to the next, rows and the diagonals between them
          { link: {}, row: true, column: false, diagonal: true },
          // a ribbon per column: slot i on ribbon i % 8
          { link: { ribbons: 8 }, row: false, column: true, diagonal: false },
          // a ribbon per row: slots [8r, 8r + 8)
          {
            link: { ribbons: 4, split: 'blocks' as const },
            row: true,
            column: false,
            diagonal: false,
          },
        ];
        for (const c of cases) {
          const images = new Map<string, Uint8Array>();
          for (const path of pathsOf(device))
            for (const drawMode of ['instanced', 'pulled'] as const) {
              const ps = await createParticleSystem(device, {
                ...grid,
                link: { width: [0.3, 0.3], colors: [WHITE, WHITE], ...c.link },
                path,
                drawMode,
              });
              for (let n = 0; n < BIRTHS; n++) {
                ps.setOptions({ emitter: { position: at(n) } });
                ps.step(DT);
              }
              const img = await drawImage(device, ps);
              const how = `link ${JSON.stringify(c.link)}, ${path}, ${drawMode}`;
              const expect = (what: string, a: number, b: number, lit: boolean): void =>
                assert(
                  between(img, a, b) === lit,
                  `${how}: births ${a} and ${b} (${what}) ${lit ? 'joined' : 'apart'} (red ${redAt(img, mid(at(a), at(b)))})`,
                );
              // in the rows still alive (births 4…35: slots 0…3 were born again)
              for (const n of [4, 10, 21, 29]) expect('a row', n, n + 1, c.row);
              // (columns 0, 1, 6, 7: the diagonals cross the middle ones between the rows)
              for (const n of [6, 7, 8, 9, 15, 22]) expect('a column', n, n + 8, c.column);
              for (const n of [15, 23]) expect('a row to the next', n, n + 1, c.diagonal);
              // the reborn slots: the fifth row, joined to the fourth in its columns (interleaved),
              // along itself (blocks, one ribbon), never to the first row's births still alive
              expect('the fifth row', 33, 34, c.row);
              expect('a column into the fifth row', 25, 33, c.column);
              // slot 3 (birth 35) follows slot 4 (birth 4) in a block: a point on that segment,
              // off every row, column (and, one ribbon aside, diagonal) — never lit
              if (!c.diagonal)
                assert(
                  redAt(img, [-0.1, -2.5, 0]) === 0,
                  `${how}: the reborn slot 3 is not joined to birth 4 (red ${redAt(img, [-0.1, -2.5, 0])})`,
                );
              images.set(`${path}, ${drawMode}`, img);
              ps.destroy();
            }
          const [first, ...rest] = [...images.entries()];
          for (const [how, img] of rest) {
            const { differ } = imageDiff(first![1], img, 0);
            assert(
              differ === 0,
              `link ${JSON.stringify(c.link)}: ${how} draws as ${first![0]} does (${differ} pixels differ)`,
            );
          }
        }
        for (const [link, message] of [
          [{ ribbons: 5 }, /link\.ribbons.*5.*divides the system's count \(32\)/],
          [{ ribbons: 32 }, /link\.ribbons.*32.*1 of the system's 32 slots/],
          [{ ribbons: 0 }, /link\.ribbons.*0/],
          [{ split: 'rows' }, /link\.split.*rows.*'interleaved' or 'blocks'/],
        ] as const)
          await assertThrows(
            () => createParticleSystem(device, { ...grid, link: link as object }),
            ParticleOptionError,
            message,
            `link ${JSON.stringify(link)}`,
          );
      },
    },
  'trail errors name the option; readTrail needs the module': {
    async run({ device }) {
      const ps = await createParticleSystem(device, { count: 4 });
      let error: unknown;
      try {
        await ps.readTrail();
      } catch (e) {
        error = e;
      }
      assert(
        /readTrail\(\) needs the trail module/.test(String(error)),
        `readTrail without trail: ${String(error)}`,
      );
      ps.destroy();
      const trailed = await createParticleSystem(device, { count: 4, trail: { length: 4 } });
      assert(
        trailed.bytesPerParticle >= 32 + 4 * (trailed.precision === 'f16' ? 8 : 16),
        `the trail's ring counts in bytesPerParticle (${trailed.bytesPerParticle})`,
      );
      trailed.setOptions({ trail: { length: 6 } });
      trailed.step(DT);
      const after = await trailed.readTrail();
      assert(
        after.length === 6 && after.recorded === 1,
        `setOptions makes the ring again (${after.length}, ${after.recorded})`,
      );
      trailed.setOptions({ trail: null });
      error = undefined;
      try {
        await trailed.readTrail();
      } catch (e) {
        error = e;
      }
      assert(error !== undefined, 'trail: null turns the trails off');
      trailed.destroy();
    },
  },
});
