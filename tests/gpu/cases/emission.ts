// Emission over time on every path of each backend: the GPU paths against the TypeScript reference
// under the same schedule (rate, bursts, a looping cycle, the ring wrapping), dead slots drawing
// nothing in every draw mode, stop/start, reset and prewarm. The schedule itself: tests/node.
import {
  EmissionSchedule,
  createParticleSystem,
  createState,
  resolveOptions,
  stepState,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual } from '../page/assert.js';
import { coverage, drawImage, pathsOf } from '../page/particle-helpers.js';

const DT = 1 / 60;

/** A fireworks-like emitter: a trickle, a burst that repeats, a one-second looping cycle. */
const EMITTER: ParticleOptionsInput = {
  count: 1500,
  seed: 5,
  emitRate: 600,
  bursts: [
    { time: 0.1, count: 500 },
    { time: 0.5, count: 150, cycles: 3, interval: 0.1 },
  ],
  duration: 1,
  lifeMin: 0.4,
  lifeMax: 1.1,
  emitter: { shape: 'sphere', position: [0, 0, 0], radius: 0.5 },
};

async function steps(device: Device, ps: ParticleSystem, n: number): Promise<void> {
  const enc = device.createCommandEncoder();
  for (let k = 0; k < n; k++) ps.update(enc, DT);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
}

/** Alive slots (age < life) of a state. */
function aliveIn(s: { position: Float32Array; velocity: Float32Array }, count: number): number {
  let alive = 0;
  for (let i = 0; i < count; i++)
    if ((s.position[4 * i + 3] as number) < (s.velocity[4 * i + 3] as number)) alive++;
  return alive;
}

type State = { position: Float32Array; velocity: Float32Array };

/**
 * Slots where any component of `arrays` is more than 1e-3 · max(1, |reference|) from the
 * reference (NaN counts): a particle whose death test flips by a rounding differs whole.
 */
function divergedSlots(
  state: State,
  reference: State,
  count: number,
  arrays: ReadonlyArray<keyof State>,
): number {
  let diverged = 0;
  for (let i = 0; i < count; i++)
    check: for (const name of arrays)
      for (let c = 0; c < 4; c++) {
        const a = state[name][4 * i + c] as number;
        const b = reference[name][4 * i + c] as number;
        if (!(Math.abs(a - b) <= 1e-3 * Math.max(1, Math.abs(b)))) {
          diverged++;
          break check;
        }
      }
  return diverged;
}

export const cases = defineCases({
  'every path emits the slots the reference does and agrees with it after 90 steps (the ring wraps)':
    {
      async run({ device }) {
        const o = resolveOptions(EMITTER);
        const reference = createState(o);
        const schedule = new EmissionSchedule();
        for (let n = 1; n <= 90; n++) stepState(o, n, DT, reference, schedule.advance(o, DT));
        assert(
          schedule.emittedTotal > o.count,
          `the ring wrapped (${schedule.emittedTotal} emitted)`,
        );
        const expectedAlive = aliveIn(reference, o.count);
        assert(expectedAlive > 0 && expectedAlive < o.count, `some alive: ${expectedAlive}`);
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...EMITTER, path });
          await steps(device, ps, 90);
          const state = await ps.read();
          const diverged = divergedSlots(state, reference, o.count, ['position', 'velocity']);
          console.log(`${device.caps.backend}/${path}: ${diverged} of ${o.count} slots diverged`);
          // rounding may flip a death test a step early or late (tests/gpu/cases/particles.ts)
          assert(diverged <= 3, `${path}: ${diverged} slots differ from the reference`);
          const stats = await ps.stats();
          assert(
            Math.abs(stats.alive - expectedAlive) <= 3,
            `${path}: alive ${stats.alive} vs reference ${expectedAlive}`,
          );
          assertEqual(stats.emittedTotal, schedule.emittedTotal, `${path}: emittedTotal`);
          assertEqual(stats.emitted, schedule.emittedLastStep, `${path}: emitted by the last step`);
          ps.destroy();
        }
      },
    },

  'dead slots draw nothing in any draw mode; a burst lights pixels': {
    async run({ device }) {
      for (const path of pathsOf(device)) {
        for (const drawMode of ['instanced', 'pulled', 'splat'] as const) {
          if (drawMode === 'splat' && (path !== 'compute' || !device.caps.features.compute))
            continue;
          // emission with nothing emitted yet: every slot dead, at the origin, in front of the camera
          const ps = await createParticleSystem(device, {
            count: 400,
            path,
            drawMode,
            emitRate: 0,
            bursts: [{ time: 0.5, count: 200 }],
            size: 0.5,
            emitter: { shape: 'sphere', position: [0, -2, 0], radius: 1 },
          });
          await steps(device, ps, 2);
          const before = coverage(await drawImage(device, ps)).lit;
          assertEqual(before, 0, `${path}/${drawMode}: lit pixels with every slot dead`);
          await steps(device, ps, 30);
          const after = coverage(await drawImage(device, ps)).lit;
          assert(after > 50, `${path}/${drawMode}: the burst lit ${after} pixels`);
          ps.destroy();
        }
      }
    },
  },

  'stop() lets the living die out and emits nothing; start() emits again; reset() empties; prewarm fills the first frame':
    {
      async run({ device }) {
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, {
            count: 800,
            path,
            emitRate: 300,
            lifeMin: 0.2,
            lifeMax: 0.5,
          });
          await steps(device, ps, 30);
          const running = await ps.stats();
          assert(running.alive > 50, `${path}: alive while emitting (${running.alive})`);
          ps.stop();
          await steps(device, ps, 40);
          const stopped = await ps.stats();
          assertEqual(stopped.alive, 0, `${path}: alive 0.67 s after stop() (lives ≤ 0.5 s)`);
          assertEqual(stopped.emitted, 0, `${path}: emitted while stopped`);
          ps.start();
          await steps(device, ps, 10);
          assert((await ps.stats()).alive > 0, `${path}: emitting again after start()`);
          ps.reset();
          assertEqual((await ps.stats()).alive, 0, `${path}: alive after reset()`);
          ps.destroy();

          // prewarm: one second simulated at the first update, as the reference does it
          const input = { count: 600, path, emitRate: 200, lifeMin: 1, lifeMax: 2, prewarm: 1 };
          const warm = await createParticleSystem(device, input);
          await steps(device, warm, 1);
          const o = resolveOptions(input);
          const reference = createState(o);
          const schedule = new EmissionSchedule();
          for (let n = 1; n <= 61; n++) stepState(o, n, DT, reference, schedule.advance(o, DT));
          const alive = (await warm.stats()).alive;
          assertEqual(alive, aliveIn(reference, o.count), `${path}: alive after prewarm + 1 step`);
          assertEqual(warm.stepIndex, 61, `${path}: steps taken`);
          warm.destroy();
        }
      },
    },

  'setCapacity keeps the particles that fit; new slots are dead with emission, spawned when continuous; calls meanwhile are errors':
    {
      async run({ device }) {
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, {
            count: 500,
            path,
            emitRate: 600,
            lifeMin: 2,
            lifeMax: 3,
          });
          await steps(device, ps, 60);
          const before = await ps.read();
          assertEqual(aliveIn(before, 500), 500, `${path}: the ring full before growing`);
          const growing = ps.setCapacity(2000);
          let refused = '';
          try {
            ps.step(DT);
          } catch (e) {
            refused = (e as Error).message;
          }
          assert(/while setCapacity\(\) is moving the state/.test(refused), `${path}: ${refused}`);
          await growing;
          assertEqual(ps.count, 2000, `${path}: count`);
          const after = await ps.read();
          for (let i = 0; i < 4 * 500; i++)
            if (
              after.position[i] !== before.position[i] ||
              after.velocity[i] !== before.velocity[i]
            )
              throw new Error(`${path}: slot ${Math.floor(i / 4)} changed in setCapacity`);
          assertEqual(aliveIn(after, 2000), 500, `${path}: the new slots are dead`);
          // the emitter fills the new slots: more alive than the old capacity
          await steps(device, ps, 60);
          const grown = (await ps.stats()).alive;
          assert(grown > 1000, `${path}: ${grown} alive after growing`);
          await ps.setCapacity(300);
          assertEqual((await ps.stats()).alive <= 300, true, `${path}: shrunk`);
          ps.destroy();

          // continuous: the new slots live at once
          const fountain = await createParticleSystem(device, { count: 400, path });
          await steps(device, fountain, 5);
          await fountain.setCapacity(1000);
          await steps(device, fountain, 1);
          assertEqual((await fountain.stats()).alive, 1000, `${path}: continuous, all alive`);
          fountain.destroy();
        }
      },
    },

  'bounce: particles reaching the floor bounce on every path as the reference does, and stay above it':
    {
      async run({ device }) {
        const input: ParticleOptionsInput = {
          count: 2000,
          seed: 9,
          // spawned above the floor (the default emitter sits at y = -5.5)
          emitter: { position: [0, -2, 0] },
          floorY: -3,
          bounce: { restitution: 0.55, friction: 0.25 },
          lifeMin: 4,
          lifeMax: 5,
          speedMin: 3,
          speedMax: 5,
        };
        const o = resolveOptions(input);
        const reference = createState(o);
        for (let n = 1; n <= 90; n++) stepState(o, n, DT, reference);
        let onFloor = 0;
        for (let i = 0; i < o.count; i++) if (reference.position[4 * i + 1] === -3) onFloor++;
        assert(onFloor > 0, `the reference bounced particles (${onFloor} on the floor)`);
        for (const path of pathsOf(device)) {
          const ps = await createParticleSystem(device, { ...input, path });
          await steps(device, ps, 90);
          const state = await ps.read();
          const diverged = divergedSlots(state, reference, o.count, ['position']);
          let below = 0;
          for (let i = 0; i < o.count; i++) if ((state.position[4 * i + 1] as number) < -3) below++;
          console.log(`${device.caps.backend}/${path}: bounce, ${diverged} of ${o.count} diverged`);
          assertEqual(below, 0, `${path}: particles below the floor`);
          assert(diverged / o.count < 0.001, `${path}: ${diverged} differ from the reference`);
          ps.destroy();
        }
      },
    },
});
