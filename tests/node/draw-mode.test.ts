import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_CLOSE_BUDGET_MS,
  CALIBRATION_CLOSE_ROUNDS,
  CALIBRATION_ROUNDS,
  CALIBRATION_START,
  chooseDrawMode,
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
