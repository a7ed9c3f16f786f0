// Events and sub-emitters: a system records births, deaths or floor contacts every step, and a
// sub-emitter spawns `count` children per event from them — the same children, frame by frame, on
// every path (a gather: each child slot reads its own parent), and as the reference says.
import {
  EmissionSchedule,
  createParticleSystem,
  createState,
  stepState,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert } from '../page/assert.js';
import { coverage, drawImage, pathsOf } from '../page/particle-helpers.js';

const DT = 1 / 60;

/** Rockets: a burst and a trickle, short random lives, each death an event. */
const ROCKETS: ParticleOptionsInput = {
  count: 64,
  seed: 5,
  emitRate: 90,
  bursts: [{ time: 0, count: 24 }],
  emitter: { shape: 'sphere', position: [0, -3, 0], radius: 1, angle: 0 },
  speedMin: 2,
  speedMax: 4,
  spread: 0.5,
  lifeMin: 0.1,
  lifeMax: 0.4,
  events: 'death',
};

/** Sparks of a sub-emitter: a small ball around the event, inheriting half the parent's velocity. */
const sparksOf = (
  parent: ParticleSystem,
  count: number,
  extra: ParticleOptionsInput = {},
): ParticleOptionsInput => ({
  seed: 9,
  subEmitter: { parent, count, inherit: 0.5 },
  emitter: { shape: 'sphere', position: [0, 0, 0], radius: 0.1, angle: 0 },
  speedMin: 1,
  speedMax: 2,
  spread: 1,
  lifeMin: 0.15,
  lifeMax: 0.3,
  ...extra,
});

/** The worst difference, relative where values are large, between two arrays. */
function worst(a: Float32Array, b: Float32Array): number {
  let w = 0;
  for (let i = 0; i < a.length; i++)
    w = Math.max(
      w,
      Math.abs((a[i] as number) - (b[i] as number)) / Math.max(1, Math.abs(b[i] as number)),
    );
  return w;
}

/** Steps systems in order, one encoder a step; `check` after each submit. */
async function run(
  device: Device,
  systems: ParticleSystem[],
  steps: number,
  check: (n: number) => Promise<void>,
): Promise<void> {
  for (let n = 1; n <= steps; n++) {
    const enc = device.createCommandEncoder();
    for (const ps of systems) ps.update(enc, DT);
    device.queue.submit([enc.finish()]);
    await check(n);
  }
}

export const cases = defineCases({
  'a sub-emitter spawns count children per parent death, frame by frame, on every path, as the reference does':
    {
      async run({ device }) {
        const STEPS = 40;
        for (const path of pathsOf(device)) {
          // WebGPU's fragment path holds 32 bytes a texel (position, velocity): the event records
          // need two more targets; where the device cannot, the system says so
          const parent = await createParticleSystem(device, { ...ROCKETS, path }).catch(
            (e: unknown) => e as Error,
          );
          if (parent instanceof Error) {
            assert(
              path === 'pingpong' &&
                64 > device.caps.limits.maxColorAttachmentBytesPerSample &&
                /maxColorAttachmentBytesPerSample/.test(parent.message),
              `${path}: ${parent.message}`,
            );
            continue;
          }
          const child = await createParticleSystem(device, sparksOf(parent, 4));
          assert(
            child.count === 256 && child.path === path,
            `${path}: the children take 4 slots a parent, on the parent's path (${child.count}, ${child.path})`,
          );
          let deaths = 0;
          await run(device, [parent, child], STEPS, async (n) => {
            const events = await parent.events();
            const stats = await child.stats();
            assert(
              events.kind === 'death' && events.step === n,
              `${path}: the events of step ${n} (${events.kind}, ${events.step})`,
            );
            assert(
              stats.newborn === 4 * events.count,
              `${path} step ${n}: ${stats.newborn} children born for ${events.count} deaths (4 each)`,
            );
            deaths += events.count;
          });
          assert(deaths > 30, `${path}: the rockets died over the run (${deaths} deaths)`);
          // the reference: the parent's schedule and records, the children spawned from them
          const op = parent.options;
          const oc = child.options;
          const pref = createState(op);
          const cref = createState(oc);
          const schedule = new EmissionSchedule();
          for (let n = 1; n <= STEPS; n++) {
            stepState(op, n, DT, pref, schedule.advance(op, DT));
            stepState(oc, n, DT, cref, undefined, pref.attributes);
          }
          const p = await parent.read();
          const c = await child.read();
          const w = Math.max(
            worst(p.position, pref.position),
            worst(p.attributes!['eventPosition']!, pref.attributes!['eventPosition']!),
            worst(c.position, cref.position),
            worst(c.velocity, cref.velocity),
          );
          assert(w < 1e-3, `${path}: parent records and children are the reference's (worst ${w})`);
          const { positions, count } = await parent.events({ positions: true });
          assert(
            positions?.length === 3 * count,
            `${path}: events({ positions }) gives x, y, z of each of the ${count} events`,
          );
          child.destroy();
          parent.destroy();
        }
      },
    },
  'a burst of a burst: two generations of sub-emitters, children per event on every path': {
    async run({ device }) {
      for (const path of pathsOf(device)) {
        const parent = await createParticleSystem(device, { ...ROCKETS, path }).catch(() => null);
        if (!parent) continue; // the fragment path without room for the records (the case above)
        const child = await createParticleSystem(
          device,
          sparksOf(parent, 3, { events: 'death', lifeMin: 0.05, lifeMax: 0.15 }),
        );
        const grandchild = await createParticleSystem(device, sparksOf(child, 2));
        assert(grandchild.count === 64 * 3 * 2, `${path}: 2 slots per child (${grandchild.count})`);
        let second = 0;
        await run(device, [parent, child, grandchild], 30, async (n) => {
          const [p, c] = [await parent.events(), await child.events()];
          const [cs, gs] = [await child.stats(), await grandchild.stats()];
          assert(
            cs.newborn === 3 * p.count,
            `${path} step ${n}: ${cs.newborn} children, ${p.count} deaths`,
          );
          assert(
            gs.newborn === 2 * c.count,
            `${path} step ${n}: ${gs.newborn} grandchildren, ${c.count} children's deaths`,
          );
          second += gs.newborn;
        });
        assert(second > 20, `${path}: the children burst again (${second} grandchildren born)`);
        grandchild.destroy();
        child.destroy();
        parent.destroy();
      }
    },
  },
  'births, floor contacts and bounces raise events too, as the reference counts them': {
    async run({ device }) {
      const falling: ParticleOptionsInput = {
        count: 200,
        seed: 2,
        emitter: { shape: 'box', position: [0, -1, 0], radius: 1, angle: 0 },
        speedMin: 0,
        speedMax: 1,
        lifeMin: 0.3,
        lifeMax: 1,
        floorY: -2,
        bounce: { restitution: 0.5, friction: 0.1 },
      };
      for (const kind of ['birth', 'floor', 'collision'] as const)
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...falling, events: kind, path }).catch(
            () => null,
          );
          if (!ps) continue;
          const o = ps.options;
          const ref = createState(o);
          let total = 0;
          await run(device, [ps], 30, async (n) => {
            stepState(o, n, DT, ref);
            const records = ref.attributes!['eventPosition']!;
            let want = 0;
            for (let i = 0; i < o.count; i++) if ((records[4 * i + 3] as number) > 0.5) want++;
            const got = await ps.events();
            assert(
              got.count === want,
              `${path} ${kind} step ${n}: ${got.count} events, the reference ${want}`,
            );
            if (kind === 'birth') {
              const stats = await ps.stats();
              assert(
                stats.newborn === got.count,
                `${path} step ${n}: every birth is an event (${stats.newborn} born)`,
              );
            }
            total += got.count;
          });
          assert(total > 10, `${path} ${kind}: events happened (${total})`);
          ps.destroy();
        }
    },
  },
  "inheritColor: a child's tint is the parent's colour at the event's life fraction, as the reference says, on every path":
    {
      async run({ device }) {
        // falling particles land on the floor at every fraction of their lives; the parent's
        // colour runs red → green → blue over a life, so each landing has its own colour
        const falling: ParticleOptionsInput = {
          count: 48,
          seed: 4,
          emitter: { shape: 'box', position: [0, -1, 0], radius: 1, angle: 0 },
          speedMin: 0,
          speedMax: 1,
          lifeMin: 0.3,
          lifeMax: 1,
          floorY: -2,
          colors: [
            [1, 0, 0, 1],
            [0, 1, 0, 1],
            [0, 0, 1, 0.5],
            [0, 0, 1, 0.5],
          ],
          colorStops: [0, 0.4, 0.8, 1],
          events: 'floor',
        };
        const STEPS = 30;
        for (const path of pathsOf(device)) {
          const parent = await createParticleSystem(device, { ...falling, path }).catch(() => null);
          if (!parent) continue; // the fragment path without room for the records (above)
          const child = await createParticleSystem(device, {
            ...sparksOf(parent, 2),
            subEmitter: { parent, count: 2, inheritColor: true },
          });
          let born = 0;
          await run(device, [parent, child], STEPS, async () => {
            born += (await child.stats()).newborn;
          });
          assert(born > 20, `${path}: children were born (${born})`);
          const op = parent.options;
          const oc = child.options;
          const pref = createState(op);
          const cref = createState(oc);
          for (let n = 1; n <= STEPS; n++) {
            stepState(op, n, DT, pref);
            stepState(oc, n, DT, cref, undefined, pref.attributes);
          }
          const c = await child.read();
          const tint = c.attributes?.['tint'];
          assert(tint !== undefined, `${path}: the children's state has a tint`);
          const w = worst(tint, cref.attributes!['tint']!);
          assert(w < 1e-3, `${path}: the tints are the reference's (worst ${w})`);
          // the landings' colours are spread over the gradient, not one stop
          const colours = new Set<string>();
          for (let i = 0; i < oc.count; i++)
            if ((c.velocity[4 * i + 3] as number) > 0)
              colours.add(Array.from(tint.subarray(4 * i, 4 * i + 3), (x) => x.toFixed(2)).join());
          assert(colours.size >= 5, `${path}: ${colours.size} distinct tints among the living`);
          child.destroy();
          parent.destroy();
        }
      },
    },
  'inheritColor: children of a red parent draw red in every draw mode, untinted children white': {
    async run({ device }) {
      const red: [number, number, number, number] = [1, 0, 0, 1];
      const white: [number, number, number, number] = [1, 1, 1, 1];
      const clear: [number, number, number, number] = [1, 1, 1, 0];
      for (const path of pathsOf(device)) {
        const parent = await createParticleSystem(device, {
          ...ROCKETS,
          path,
          colors: [red, red, red, red],
        }).catch(() => null);
        if (!parent) continue;
        const buffers = path === 'compute' || (path === 'cpu' && device.caps.features.compute);
        const modes: Array<[string, ParticleOptionsInput]> = [
          ['instanced', { drawMode: 'instanced' }],
          ['pulled', { drawMode: 'pulled' }],
          ['sorted', { drawMode: 'pulled', sort: true, blending: 'alpha' }],
          // trails alone (the particles transparent): a trail takes its particle's tint, and keeps
          // it while it fades after the particle died
          ...(['instanced', 'pulled'] as const).map((drawMode): [string, ParticleOptionsInput] => [
            `${drawMode} trails`,
            {
              drawMode,
              colors: [clear, clear, clear, clear],
              trail: { length: 8, width: [0.3, 0.3], colors: [white, white], fade: 0.3 },
            },
          ]),
          ...(buffers
            ? ([
                ['splat', { drawMode: 'splat' }],
                ['living', { drawMode: 'pulled', compact: true }],
              ] as Array<[string, ParticleOptionsInput]>)
            : []),
        ];
        const look = (
          inheritColor: boolean,
          extra: ParticleOptionsInput,
        ): ParticleOptionsInput => ({
          ...sparksOf(parent, 2, {
            colors: [white, white, white, white],
            size: 0.4,
            ...extra,
          }),
          subEmitter: { parent, count: 2, inheritColor },
        });
        const children = await Promise.all(
          modes.flatMap(([, extra]) => [
            createParticleSystem(device, look(true, extra)),
            createParticleSystem(device, look(false, extra)),
          ]),
        );
        await run(device, [parent, ...children], 20, async () => {});
        for (let m = 0; m < modes.length; m++) {
          const how = `${path}, ${(modes[m] as [string, ParticleOptionsInput])[0]}`;
          const tinted = children[2 * m] as ParticleSystem;
          const own = children[2 * m + 1] as ParticleSystem;
          const [a, b] = [await drawImage(device, tinted), await drawImage(device, own)];
          const ca = coverage(a);
          const cb = coverage(b);
          assert(ca.lit > 20 && cb.lit > 20, `${how}: both drew (${ca.lit}, ${cb.lit} pixels)`);
          assert(
            ca.mean[0] > 20 && ca.mean[1] === 0 && ca.mean[2] === 0,
            `${how}: the tinted children are red (mean ${ca.mean.map((x) => x.toFixed(1)).join(', ')})`,
          );
          assert(
            cb.mean[1] > 20 && cb.mean[2] > 20,
            `${how}: the others keep their white (mean ${cb.mean.map((x) => x.toFixed(1)).join(', ')})`,
          );
        }
        for (const c of children) c.destroy();
        parent.destroy();
      }
    },
  },
  'sub-emitter errors name the option': {
    async run({ device }) {
      const plain = await createParticleSystem(device, { count: 8 });
      const loud = await createParticleSystem(device, { count: 8, events: 'death' });
      const cases: Array<[ParticleOptionsInput, RegExp]> = [
        [{ subEmitter: { parent: plain } }, /subEmitter\.parent.*raises no events/],
        [{ subEmitter: { parent: loud, count: 0 } }, /subEmitter\.count.*positive integer/],
        [{ subEmitter: { parent: loud, count: 2 }, count: 10 }, /count.*8 × 2 = 16/],
        [{ subEmitter: { parent: loud }, emitRate: 5 }, /emitRate.*parent's events/],
        [
          { subEmitter: { parent: loud, inheritColor: 'yes' as never } },
          /subEmitter\.inheritColor.*must be true/,
        ],
        [{ events: 'explode' as never }, /events.*'birth', 'death', 'floor' or 'collision'/],
        [{ events: 'collision' }, /events.*records bounces: give the system collision/],
      ];
      for (const [options, message] of cases) {
        let error: unknown;
        try {
          (await createParticleSystem(device, options)).destroy();
        } catch (e) {
          error = e;
        }
        assert(
          message.test(String(error)),
          `${JSON.stringify(Object.keys(options))}: ${String(error)}`,
        );
      }
      let error: unknown;
      try {
        await plain.events();
      } catch (e) {
        error = e;
      }
      assert(/events\(\) needs the events module/.test(String(error)), String(error));
      plain.destroy();
      loud.destroy();
    },
  },
});
