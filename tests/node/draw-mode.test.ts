import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_CLOSE_BUDGET_MS,
  CALIBRATION_CLOSE_ROUNDS,
  CALIBRATION_ENOUGH_MS,
  CALIBRATION_ROUNDS,
  CALIBRATION_START,
  CALIBRATION_BATCH_MAX,
  CALIBRATION_TIMER_TRUST,
  batchFor,
  chooseDrawMode,
  distrustTimer,
  type MeasureModes,
} from '../../src/particles/draw-mode.js';
import type { DrawMode } from '../../src/particles/options.js';

type Call = { n: number; among: DrawMode[]; rounds: number };

/**
 * A measurement of modes whose true time is `perParticle[mode] · n` ms, every round exact except
 * where `rounds(call, mode)` gives the call's rounds itself; records each call.
 */
function fakeMeasure(
  perParticle: Partial<Record<DrawMode, number>>,
  rounds: (call: number, mode: DrawMode, exact: number) => number[] | null = () => null,
): { measure: MeasureModes; calls: Call[] } {
  const calls: Call[] = [];
  const measure: MeasureModes = (n, among, count) => {
    const call = calls.push({ n, among: [...among], rounds: count }) - 1;
    const out = new Map<DrawMode, number[]>();
    for (const mode of among) {
      const exact = (perParticle[mode] as number) * n;
      out.set(mode, rounds(call, mode, exact) ?? new Array<number>(count).fill(exact));
    }
    return Promise.resolve(out);
  };
  return { measure, calls };
}

describe("drawMode 'auto': the decision from the measurements", () => {
  /** The decision for a million particles between instanced and pulled. */
  const aMillion = (measure: MeasureModes): ReturnType<typeof chooseDrawMode> =>
    chooseDrawMode(measure, 1_000_000, ['instanced', 'pulled'], [], 'clock', '960x540');
  /** A sample's call: both modes, the first rounds. */
  const both = (n: number): Call => ({
    n,
    among: ['instanced', 'pulled'],
    rounds: CALIBRATION_ROUNDS - 1,
  });
  /** Rounds that say the reverse of the truth (medians 1.08 and 0.98 of it), on the call `at`. */
  const misleading =
    (at: number) =>
    (call: number, mode: DrawMode, exact: number): number[] | null =>
      call === at
        ? (mode === 'instanced' ? [1.1, 1.08, 1.09, 0.9] : [0.97, 0.98, 1.2, 0.99]).map(
            (f) => f * exact,
          )
        : null;

  it('measures a close call again at the whole count and decides it there', async () => {
    // instanced truly 5% faster, the second sample's rounds saying the reverse — as the spread of
    // WebKit's WebGL2 at a million particles did in 4 of 11 measurements
    const truth = { instanced: 0.95e-4, pulled: 1e-4 };
    const { measure, calls } = fakeMeasure(truth, misleading(2));
    const chosen = await aMillion(measure);
    expect(chosen.mode).toBe('instanced');
    // the first sample grew to 131,072 (16,384 drew in under 2 ms), the second at 4× that, then
    // the close call: both modes again, at the million the frames draw (~1.8 s of rounds)
    expect(calls).toEqual([
      both(CALIBRATION_START),
      both(131_072),
      both(524_288),
      // (the two in the order the close estimates put them: pulled ahead)
      { n: 1_000_000, among: ['pulled', 'instanced'], rounds: CALIBRATION_CLOSE_ROUNDS },
    ]);
    expect(chosen.reason).toMatch(
      /; pulled and instanced a close call \(\d+% apart, their rounds spread \d+%\), so 8 rounds more of both at 1,000,000 of 1,000,000 particles \(medians of 8\)\): instanced 95\.000 ms, pulled 100\.000 ms$/,
    );
  });

  it("pools a close call's rounds with the last sample's where the whole count takes too long", async () => {
    // twenty times slower: 9 rounds of both at a million would take ~35 s
    const truth = { instanced: 1.9e-3, pulled: 2e-3 };
    expect((CALIBRATION_CLOSE_ROUNDS + 1) * (truth.instanced + truth.pulled) * 1e6).toBeGreaterThan(
      CALIBRATION_CLOSE_BUDGET_MS,
    );
    const { measure, calls } = fakeMeasure(truth, misleading(1));
    const chosen = await aMillion(measure);
    expect(chosen.mode).toBe('instanced');
    expect(calls).toEqual([
      both(CALIBRATION_START),
      both(65_536),
      { n: 65_536, among: ['pulled', 'instanced'], rounds: CALIBRATION_CLOSE_ROUNDS },
    ]);
    expect(chosen.reason).toContain(
      '8 rounds more of both at 65,536 of 1,000,000 particles (medians of 12)',
    );
    // extrapolated from the pooled medians, which are the truth
    expect(chosen.ms).toBeCloseTo(truth.instanced * 1_000_000, 6);
  });

  it('measures nothing more when the fastest is clear', async () => {
    const { measure, calls } = fakeMeasure({ instanced: 2e-4, pulled: 1e-4 });
    const chosen = await aMillion(measure);
    expect(chosen.mode).toBe('pulled');
    expect(calls.map((c) => c.rounds)).toEqual([4, 4, 4]);
    expect(chosen.reason).not.toContain('rounds more');
  });

  it('takes the close call at the only sample when that was the whole count', async () => {
    const { measure, calls } = fakeMeasure(
      { instanced: 1, pulled: 0.97, splat: 5 },
      (call, mode, exact) =>
        call === 0 && mode === 'pulled' ? [1.05, 1.06, 1.04, 0.9].map((f) => f * exact) : null,
    );
    const chosen = await chooseDrawMode(
      measure,
      10_000,
      ['instanced', 'pulled', 'splat'],
      [],
      'clock',
      '64x64',
    );
    expect(chosen.mode).toBe('pulled');
    expect(calls).toEqual([
      { n: 10_000, among: ['instanced', 'pulled', 'splat'], rounds: CALIBRATION_ROUNDS - 1 },
      // the two fastest only: splat is 5× slower
      { n: 10_000, among: ['instanced', 'pulled'], rounds: CALIBRATION_CLOSE_ROUNDS },
    ]);
    expect(chosen.reason).toMatch(
      /^measured \(clock, 10,000 of 10,000 particles, at 64x64, median of 4 rounds; instanced and pulled a close call/,
    );
  });

  it('calls it close past 20% where the rounds spread wider than the gap', async () => {
    // pulled 25% slower: beyond 20%, and each mode's rounds spread ±15% about their medians
    const perParticle = { instanced: 1, pulled: 1.25 };
    const spreadRounds = [0.7, 1, 1.3, 1.15];
    const decide = async (rounds: number[] | null): Promise<Call[]> => {
      const { measure, calls } = fakeMeasure(perParticle, (call, _mode, exact) =>
        call === 0 && rounds ? rounds.map((f) => f * exact) : null,
      );
      await chooseDrawMode(measure, 1_000, ['instanced', 'pulled'], [], 'clock', '64x64');
      return calls;
    };
    expect((await decide(spreadRounds)).map((c) => c.rounds)).toEqual([
      4,
      CALIBRATION_CLOSE_ROUNDS,
    ]);
    // the same gap, rounds that agree: decided at once
    expect((await decide(null)).map((c) => c.rounds)).toEqual([4]);
  });
});

describe("drawMode 'auto': a clock that does not time the draws", () => {
  it('distrusts WebGL2 timestamps that add up to a small share of their own span', () => {
    // WebKit's WebGL2 at 10,000 particles: eight runs spanning 72 ms whose timestamps add up to
    // 6.5 ms
    expect(distrustTimer('webgl2', 8, 6.5, 72)).toBe(
      'the GPU timestamps time 9% of the 72.0 ms their 8 runs spanned',
    );
    // at the share trusted, on WebGPU, runs too quick to judge, or a span unknown: trusted
    expect(distrustTimer('webgl2', 8, CALIBRATION_TIMER_TRUST * 72, 72)).toBeNull();
    expect(distrustTimer('webgpu', 8, 6.5, 72)).toBeNull();
    expect(distrustTimer('webgl2', 8, 0.2, 8 * CALIBRATION_ENOUGH_MS - 1)).toBeNull();
    expect(distrustTimer('webgl2', 8, 0.2, Number.NaN)).toBeNull();
  });

  it('starts the decision again when the clock changes, comparing no times across clocks', async () => {
    // the first clock (a timer timing the vertex work only) has pulled 10× slower; the second
    // (submit to done) has pulled faster: what the frames pay
    let clock = 'GPU timestamps';
    const calls: Array<{ clock: string; n: number }> = [];
    const measure: MeasureModes = (n, among, rounds) => {
      calls.push({ clock, n });
      const perParticle =
        clock === 'GPU timestamps' ? { instanced: 1, pulled: 10 } : { instanced: 2, pulled: 1 };
      const out = new Map(
        among.map((m) => [
          m,
          new Array<number>(rounds).fill(perParticle[m as 'instanced' | 'pulled'] * n),
        ]),
      );
      clock = 'submit to done (the GPU timestamps time 5% of the 80.0 ms their 8 runs spanned)';
      return Promise.resolve(out);
    };
    const notes: string[] = ['splat not measured: no compute on webgl2'];
    const chosen = await chooseDrawMode(
      measure,
      10_000,
      ['instanced', 'pulled'],
      notes,
      () => clock,
      '64x64',
    );
    expect(chosen.mode).toBe('pulled');
    expect(calls).toEqual([
      { clock: 'GPU timestamps', n: 10_000 },
      { clock: expect.stringMatching(/^submit to done/) as unknown as string, n: 10_000 },
    ]);
    expect(chosen.reason).toBe(
      'measured (submit to done (the GPU timestamps time 5% of the 80.0 ms their 8 runs spanned), 10,000 of 10,000 particles, at 64x64, median of 4 rounds): instanced 20000.000 ms, pulled 10000.000 ms; splat not measured: no compute on webgl2',
    );
  });

  it("drops what the first clock's decision noted", async () => {
    // a million particles: the first clock's first sample leaves pulled out, then the clock changes
    let clock = 'GPU timestamps';
    const measure: MeasureModes = (n, among, rounds) => {
      const slow =
        clock === 'GPU timestamps'
          ? { instanced: 1e-4, pulled: 1e-3 }
          : { instanced: 2e-4, pulled: 1e-4 };
      const out = new Map(
        among.map((m) => [
          m,
          new Array<number>(rounds).fill(slow[m as 'instanced' | 'pulled'] * n),
        ]),
      );
      // the change shows after the second sample (the first grew to 131,072)
      if (n > 131_072) clock = 'submit to done';
      return Promise.resolve(out);
    };
    const notes: string[] = [];
    const chosen = await chooseDrawMode(
      measure,
      1_000_000,
      ['instanced', 'pulled'],
      notes,
      () => clock,
      '64x64',
    );
    expect(chosen.mode).toBe('pulled');
    expect(chosen.reason).not.toContain('left out');
    expect(notes).toEqual([]);
  });
});

describe("drawMode 'auto' on the wall clock: draws batched per run", () => {
  it('batches enough draws that their work is 4× the wait for the GPU, within the caps', () => {
    // the H200 under Deno: the wait 11.5 ms, a draw of 10,000 particles ~0.2 ms: as many as 250 ms
    // of such runs allow
    expect(batchFor(11.5, 11.7)).toBe(21);
    // a 2 ms wait and a draw of 0.1 ms: the most a run batches
    expect(batchFor(2, 2.1)).toBe(CALIBRATION_BATCH_MAX);
    // Firefox's WebGL2 here: the wait 9 ms, a draw waited for 21 ms (12 of work): 3
    expect(batchFor(9, 21)).toBe(3);
    // WebKit at a million: the wait 4 ms, a draw 500 ms: one
    expect(batchFor(4, 500)).toBe(1);
    // a draw at the wait's length exactly (no work seen): as many as 250 ms of probes allow
    expect(batchFor(9, 9)).toBe(27);
    // no wait at all: one
    expect(batchFor(0, 5)).toBe(1);
  });
});
