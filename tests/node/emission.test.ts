// Emission over time (src/particles/emission.ts): the schedule is a pure function of the options
// and the steps' dts; the CPU path's loop agrees bit for bit with the reference under it; every
// bad emission option is a ParticleOptionError naming it; start/stop on a continuous system is an
// error. The GPU paths against the reference: tests/gpu/cases/emission.ts.
import { describe, expect, it } from 'vitest';
import {
  EmissionSchedule,
  NullDevice,
  ParticleOptionError,
  ValidationError,
  createParticleSystem,
  createState,
  emittedBetween,
  resolveOptions,
  stepState,
} from '../../src/all.js';
import { stepStateFast } from '../../src/particles/cpu-step.js';

/** Emitted counts per step over `steps` steps of `dt`. */
function perStep(
  input: Parameters<typeof resolveOptions>[0],
  steps: number,
  dt = 1 / 60,
): number[] {
  const o = resolveOptions({ count: 1_000_000, ...input });
  const s = new EmissionSchedule();
  return Array.from({ length: steps }, () => s.advance(o, dt).count);
}
const sum = (v: number[]): number => v.reduce((a, b) => a + b, 0);

describe('the emission schedule', () => {
  it('a rate emits floor(rate · t) particles by time t, spread over the steps', () => {
    const counts = perStep({ emitRate: 90 }, 60);
    expect(sum(counts)).toBe(90);
    // 1.5 per step: alternately 1 and 2
    expect(new Set(counts)).toEqual(new Set([1, 2]));
    expect(sum(perStep({ emitRate: 10 }, 30))).toBe(5);
  });

  it('a rate that is a whole number of particles a step emits exactly that every step (the summed clock rounds below it)', () => {
    // the fifth step's clock is 0.08333333333333333 s: 60 per second made 4.999999999999999
    expect(perStep({ emitRate: 60 }, 600)).toEqual(Array(600).fill(1));
    expect(perStep({ emitRate: 120 }, 600, 1 / 120)).toEqual(Array(600).fill(1));
    expect(perStep({ emitRate: 30 }, 600)).toEqual(Array.from({ length: 600 }, (_, k) => k % 2));
    // 1,000 a second at 60 steps a second: floor(1000 k / 60) by step k, in whole numbers
    const counts = perStep({ emitRate: 1000 }, 3600);
    const by = (k: number): number => (1000 * k - ((1000 * k) % 60)) / 60;
    expect(counts).toEqual(Array.from({ length: 3600 }, (_, k) => by(k + 1) - by(k)));
  });

  it('bursts fire at their step, repeat per cycles and interval, and again each looping cycle', () => {
    const counts = perStep(
      {
        bursts: [
          { time: 0, count: 50 },
          { time: 0.5, count: 7, cycles: 3, interval: 0.25 },
        ],
        duration: 1,
      },
      120,
    );
    // step 1 covers [0, 1/60): the burst at 0; [0.5, 0.75, 1.0 (≥ duration: not in the cycle)]
    expect(counts[0]).toBe(50);
    expect(counts[30]).toBe(7); // [30/60, 31/60) holds 0.5
    expect(counts[45]).toBe(7); // 0.75
    expect(counts[60]).toBe(50); // the second cycle's burst at 0
    expect(sum(counts)).toBe(2 * (50 + 7 + 7));
    const once = perStep({ bursts: [{ time: 0.1, count: 5 }], duration: 1, loop: false }, 240);
    expect(sum(once)).toBe(5);
  });

  it('without loop a rate stops after the duration; emittedBetween is additive', () => {
    const o = resolveOptions({ emitRate: 100, duration: 0.5, loop: false });
    expect(sum(perStep(o, 120))).toBe(50);
    const a = emittedBetween(o, 0, 0.2) + emittedBetween(o, 0.2, 0.7);
    expect(a).toBe(emittedBetween(o, 0, 0.7));
  });

  it('slots come from a ring over the capacity; more than the capacity in one step keeps the last', () => {
    const o = resolveOptions({
      count: 100,
      bursts: [
        { time: 0, count: 70 },
        { time: 0.05, count: 70 },
      ],
    });
    const s = new EmissionSchedule();
    expect(s.advance(o, 1 / 60)).toEqual({ start: 0, count: 70 });
    s.advance(o, 1 / 60);
    s.advance(o, 1 / 60);
    expect(s.advance(o, 1 / 60)).toEqual({ start: 70, count: 70 }); // wraps: 70…99, 0…39
    expect(s.head).toBe(40);
    const big = resolveOptions({ count: 100, bursts: [{ time: 0, count: 250 }] });
    const t = new EmissionSchedule();
    expect(t.advance(big, 1 / 60)).toEqual({ start: 50, count: 100 });
    expect([t.head, t.emittedTotal]).toEqual([50, 250]);
  });

  it('a stopped schedule does not advance its clock', () => {
    const o = resolveOptions({ emitRate: 60 });
    const s = new EmissionSchedule();
    s.advance(o, 0.5);
    s.playing = false;
    expect(s.advance(o, 10)).toEqual({ start: 30, count: 0 });
    expect(s.clock).toBe(0.5);
  });
});

describe('the CPU path under emission', () => {
  it.each([
    [
      'rate and bursts, looping, the ring wrapping',
      {
        emitRate: 900,
        bursts: [{ time: 0.3, count: 400, cycles: 2, interval: 0.4 }],
        duration: 1,
        lifeMin: 0.3,
        lifeMax: 0.8,
      },
    ],
    [
      'bursts only, short lives, a floor',
      { bursts: [{ time: 0, count: 1500 }], lifeMin: 0.2, lifeMax: 0.6, floorY: -6 },
    ],
  ])('%s: bit-identical to the reference over 150 steps', (_name, input) => {
    const o = resolveOptions({ count: 1200, seed: 3, ...input });
    const a = createState(o);
    const b = createState(o);
    expect(a.velocity[3]).toBe(-1); // every slot dead at creation
    const schedule = new EmissionSchedule();
    let alive = 0;
    for (let n = 1; n <= 150; n++) {
      const dt = n % 3 === 0 ? 1 / 30 : 1 / 60;
      const emit = schedule.advance(o, dt);
      stepState(o, n, dt, a, emit);
      stepStateFast(o, n, dt, b, emit);
      if (n === 20) {
        alive = 0;
        for (let i = 0; i < o.count; i++)
          if ((a.position[4 * i + 3] as number) < (a.velocity[4 * i + 3] as number)) alive++;
      }
    }
    expect(new Uint32Array(b.position.buffer)).toEqual(new Uint32Array(a.position.buffer));
    expect(new Uint32Array(b.velocity.buffer)).toEqual(new Uint32Array(a.velocity.buffer));
    // some alive, not all: emission, not the continuous rule
    expect(alive).toBeGreaterThan(0);
    expect(alive).toBeLessThan(o.count);
  });
});

describe('emission options', () => {
  it.each([
    [{ emitRate: -1 }, 'emitRate'],
    [{ emitRate: Number.NaN }, 'emitRate'],
    [{ bursts: {} }, 'bursts'],
    [{ bursts: [5] }, 'bursts[0]'],
    [{ bursts: [{ time: -1, count: 3 }] }, 'bursts[0].time'],
    [{ bursts: [{ time: 0, count: 2.5 }] }, 'bursts[0].count'],
    [{ bursts: [{ time: 0, count: 2, cycles: 3, interval: 0 }] }, 'bursts[0].interval'],
    [{ bursts: [{ time: 0 }] }, 'bursts[0].count'],
    [{ duration: 0 }, 'duration'],
    [{ loop: 'yes' }, 'loop'],
    [{ prewarm: -0.5 }, 'prewarm'],
    [{ prewarm: 3600 }, 'prewarm'],
  ])('%j is a ParticleOptionError naming %s', (input, option) => {
    try {
      resolveOptions(input as never);
      expect.unreachable('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ParticleOptionError);
      expect((e as ParticleOptionError).option).toBe(option);
    }
  });

  it('start/stop on a continuous system is a typed error; on an emitting one they pause the emitter', async () => {
    const d = new NullDevice();
    const continuous = await createParticleSystem(d, { count: 16, path: 'cpu' });
    expect(() => continuous.stop()).toThrow(ValidationError);
    expect(() => continuous.start()).toThrow(/needs emission over time/);
    expect(continuous.emitting).toBe(true);
    const ps = await createParticleSystem(d, {
      count: 16,
      path: 'cpu',
      emitRate: 60,
      duration: 0.1,
      loop: false,
    });
    ps.stop();
    expect(ps.emitting).toBe(false);
    ps.start();
    expect(ps.emitting).toBe(true);
    for (let i = 0; i < 10; i++) ps.step(1 / 60);
    // a non-looping emitter past its duration has finished; start() runs its cycle again
    expect(ps.emitting).toBe(false);
    ps.start();
    expect(ps.emitting).toBe(true);
    // switching between continuous and emission changes the kernel: a new system
    expect(() => ps.setOptions({ emitRate: null })).toThrow(ParticleOptionError);
    ps.setOptions({ emitRate: 200 });
    continuous.destroy();
    ps.destroy();
  });
});
