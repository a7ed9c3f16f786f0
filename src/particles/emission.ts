/**
 * Emission over time: which particle slots are born at each step. A system with `emitRate` or
 * `bursts` starts with every slot dead; each step the schedule says how many particles are
 * emitted, and they take the next slots of a ring over the capacity (`count`): slots
 * `[start, start + count)` modulo the capacity. The schedule is a pure function of the options and
 * of the steps' dts, computed once per step on the CPU, so every path (compute, ping-pong, CPU)
 * and the TypeScript reference emit the same slots at the same step. When more particles would be
 * alive than there are slots, the ring takes the oldest emitted slots back (docs/particles.md,
 * "Emission").
 */
import type { Burst, EmitRange, ParticleOptions } from './options.js';
export type { Burst, BurstInput, EmitRange } from './options.js';

/**
 * The clock compared with bursts' times on a nanosecond grid: three steps of 1/60 s add up to
 * 0.049999999999999996 s, which must count as 0.05 s for a burst at 0.05 s to land on the step a
 * person expects.
 */
const snap = (t: number): number => Math.round(t * 1e9) / 1e9;

/**
 * floor(rate · t) of the clock as summed: sixty steps of 1/60 s at 60 per second make
 * 4.999999999999999 by the fifth step, which must count as 5 (one particle a step, not 0 and then
 * 2). A count within 1e-7 of a whole number (and 1e-12 of itself: the rounding of a long-summed
 * clock) is that number.
 */
const emittedBy = (x: number): number => Math.floor(x + 1e-7 + 1e-12 * x);

/** Whether options ask for emission over time (else every slot is alive and respawns: continuous). */
export function emits(o: Pick<ParticleOptions, 'emitRate' | 'bursts'>): boolean {
  return o.emitRate !== null || o.bursts.length > 0;
}

/** Bursts firing in the emitter-clock interval [from, to) of one cycle of `duration` seconds. */
function burstsIn(bursts: readonly Burst[], duration: number, from: number, to: number): number {
  let n = 0;
  for (const b of bursts) {
    for (let k = 0; k < b.cycles; k++) {
      const t = b.time + k * b.interval;
      if (t >= duration) break;
      if (t >= from && t < to) n += b.count;
    }
  }
  return n;
}

/**
 * Particles emitted while the emitter clock runs from `c0` to `c1` (seconds since start): the rate
 * part, `floor(rate · t)` counted at both ends (for the first `duration` seconds unless `loop`),
 * and every burst occurrence in [c0, c1) (the clock on a nanosecond grid), cycle after cycle when
 * `loop`.
 */
export function emittedBetween(
  o: Pick<ParticleOptions, 'emitRate' | 'bursts' | 'duration' | 'loop'>,
  c0: number,
  c1: number,
): number {
  let n = 0;
  if (o.emitRate !== null) {
    const end = o.loop ? Infinity : o.duration;
    n += emittedBy(o.emitRate * Math.min(c1, end)) - emittedBy(o.emitRate * Math.min(c0, end));
  }
  c0 = snap(c0);
  c1 = snap(c1);
  if (o.bursts.length > 0) {
    if (!o.loop) n += burstsIn(o.bursts, o.duration, c0, c1);
    else {
      const d = o.duration;
      for (let cycle = Math.floor(c0 / d); cycle <= Math.floor(c1 / d); cycle++) {
        const base = cycle * d;
        n += burstsIn(o.bursts, d, Math.max(c0, base) - base, Math.min(c1, base + d) - base);
      }
    }
  }
  return n;
}

/**
 * The emitter's running state: its clock (seconds of emission so far, paused by `stop()`), the next
 * ring slot and the counts. `advance(dt)` is called once per step and returns the step's slots.
 */
export class EmissionSchedule {
  clock = 0;
  playing = true;
  /** The next slot the ring gives out. */
  head = 0;
  emittedTotal = 0;
  emittedLastStep = 0;

  /** The slots step `dt` emits (count 0 when stopped, finished or between particles). */
  advance(o: ParticleOptions, dt: number): EmitRange {
    if (!this.playing) return this.#emit(o.count, 0);
    const c0 = this.clock;
    this.clock += dt;
    return this.#emit(o.count, emittedBetween(o, c0, this.clock));
  }

  /** Whether a non-looping emitter has run past its duration (nothing more will be emitted). */
  finished(o: ParticleOptions): boolean {
    return !o.loop && this.clock >= o.duration;
  }

  #emit(capacity: number, wanted: number): EmitRange {
    // more than the capacity in one step would overwrite its own newborns: the last `capacity` win
    const count = Math.min(wanted, capacity);
    const start = (this.head + (wanted - count)) % capacity;
    this.head = (start + count) % capacity;
    this.emittedTotal += wanted;
    this.emittedLastStep = wanted;
    return { start, count };
  }
}
