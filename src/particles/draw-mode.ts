/**
 * `drawMode: 'auto'`, decided by measurement. Which draw is fastest depends on the device, and
 * the evidence disagrees across devices: on SwiftShader `pulled` draws the same pixels 5–7× faster
 * than `instanced`; on an NVIDIA H200 `instanced` is 1.2–1.9× faster than `pulled`
 * (docs/benchmarks.md). So nothing is assumed: at the first draw, the system times each candidate
 * mode drawing its own state into a private target of the pass's size and format — GPU timestamps
 * where the device has them and they time the draws (`distrustTimer`), submit-to-done time
 * otherwise — interleaved over a few rounds, and
 * takes the fastest. Until then it draws with a provisional mode (pulled on a software adapter,
 * instanced on a hardware one).
 */
import { SOFTWARE_ADAPTER_NAME, type Caps } from '../rhi/core/caps.js';
import type { DrawMode, ParticleOptions } from './options.js';

/** Rounds of the measurement; the first is a warm-up (pipeline creation, caches) and is dropped. */
export const CALIBRATION_ROUNDS = 5;
/** Particles drawn by the first measurement (all of them when fewer). */
export const CALIBRATION_START = 16_384;
/** The sample grows eightfold while the fastest mode draws it in less than this. */
export const CALIBRATION_ENOUGH_MS = 2;
/**
 * A close call: the two fastest estimates nearer than this (the slower within 20% of the faster),
 * or nearer than their rounds spread (`spreadOf`, the two added), so that the rounds, or the line
 * through two samples smaller than the count, could have put them either way round — at a million
 * particles in WebKit's WebGL2 on 2 cores, two modes 3–10% apart in the frames were timed 15–30%
 * apart round to round, and their estimates came out in the wrong order in 4 of 11 measurements
 * (and 19–45% the wrong way round in a fresh browser's first system).
 */
export const CALIBRATION_CLOSE = 0.2;
/** Counted rounds more of the two modes of a close call. */
export const CALIBRATION_CLOSE_ROUNDS = 8;
/**
 * A close call is measured at the whole count — what the frames will draw — when its rounds are
 * expected to take less than this (ms, from the two estimates), and at the last sample's size,
 * pooled with its rounds, otherwise. The line through two smaller samples is an estimate: at a
 * million particles in WebKit's WebGL2, pooled at 524,288, it put the two modes 0.93–1.07× of each
 * other in 7 close calls where the frames had instanced 3–10% ahead; at the whole count, 13 close
 * calls of 15 under this rule had instanced ahead (docs/benchmarks.md, "A close call measured
 * again").
 */
export const CALIBRATION_CLOSE_BUDGET_MS = 20_000;

/**
 * On WebGL2 the GPU timestamps of a measurement are trusted when its runs' durations (each pass's
 * end less its start) add up to at least this share of the time from the first run's start to the
 * last run's end on the same clock. Its counted runs are submitted back to back, so nothing else
 * runs in that span: an honest timer times nearly all of it (Chromium's: 100%, with three systems
 * and the app's frames around). WebKit's timer (`queryCounterEXT` on Mesa's llvmpipe) timed 7–9%
 * of it (10,000 and 100,000 particles) — it read a hundred thousand particles at 7–15 ms a draw
 * that took 56–72 ms submit to done and 54–75 ms in the frames; the more and the smaller the
 * particles, the less of the draw it reads, as if it missed the vertex stage.
 */
export const CALIBRATION_TIMER_TRUST = 0.5;

/**
 * Why the GPU timestamps of one measurement cannot be trusted to time its draws, or null when they
 * can: on WebGL2 (a WebGL2 timestamp is the driver's, not the GPU's at a pass boundary), when the
 * runs spanned long enough to judge (at least CALIBRATION_ENOUGH_MS each, so the gaps between
 * passes are a small part) and their durations (`timerMs`) add up to less than
 * CALIBRATION_TIMER_TRUST of their span (`spanMs`: the first run's start to the last run's end, on
 * the timer's own clock). Not on WebGPU: there the timestamps are written at the passes' boundaries.
 * The wall time is not the yardstick: it also holds whatever else the GPU ran meanwhile (another
 * system's measurement, the app's frames), and Chromium's timer read 12–49% of it in a scene.
 */
export function distrustTimer(
  backend: Caps['backend'],
  runs: number,
  timerMs: number,
  spanMs: number,
): string | null {
  if (backend !== 'webgl2' || runs === 0 || !(spanMs >= runs * CALIBRATION_ENOUGH_MS)) return null;
  if (!(timerMs < CALIBRATION_TIMER_TRUST * spanMs)) return null;
  return `the GPU timestamps time ${Math.round((timerMs / spanMs) * 100)}% of the ${spanMs.toFixed(1)} ms their ${runs} runs spanned`;
}

/** The most draws one run submits back to back on the wall clock (`batchFor`). */
export const CALIBRATION_BATCH_MAX = 32;
/** A run on the wall clock is not made longer than this by batching (ms, from the probe). */
export const CALIBRATION_BATCH_SPAN_MS = 250;

/**
 * How many draws one counted run submits back to back when the clock is submit to done: enough
 * that their work is at least 4× the wait for the GPU alone (`waitMs`, an empty submit waited for),
 * which is then subtracted, so the run times draws rather than the wait's polling — Firefox's
 * WebGL2 waits 9 ms for an empty submit here, longer than many draws take on a GPU. `probeMs` is
 * one draw waited for. At most CALIBRATION_BATCH_MAX, and no more than CALIBRATION_BATCH_SPAN_MS
 * of probes.
 */
export function batchFor(waitMs: number, probeMs: number): number {
  const work = Math.max(probeMs - waitMs, waitMs / CALIBRATION_BATCH_MAX, 1e-3);
  const wanted = Math.ceil((4 * waitMs) / work);
  const span = Math.floor(CALIBRATION_BATCH_SPAN_MS / Math.max(probeMs, 1e-3));
  return Math.max(1, Math.min(CALIBRATION_BATCH_MAX, wanted, span));
}

export function isSoftwareAdapter(caps: Caps): boolean {
  const a = caps.adapter;
  // the adapter's own word first: Firefox names no vendor or architecture (empty strings) but
  // says isFallbackAdapter for lavapipe
  return (
    a.isFallbackAdapter ||
    SOFTWARE_ADAPTER_NAME.test(`${a.vendor} ${a.architecture} ${a.description}`)
  );
}

/** The mode drawn while the measurement runs. */
export function provisionalMode(caps: Caps): DrawMode {
  return isSoftwareAdapter(caps) ? 'pulled' : 'instanced';
}

export interface SplatEligibility {
  /** Why the options' look rules a splat out (`splatBlocker`), or null. */
  look: string | null;
  /** The state is in storage buffers (compute path, or CPU path with storage buffers). */
  buffers: boolean;
  /** The frame loop calls `ps.prepareDraw()` (where the splat's compute pass is recorded). */
  prepared: boolean;
  /** The pass has a depth attachment (a splat does not depth-test). */
  depth: boolean;
}

/** The modes `auto` measures, and why any is left out. */
export function candidateModes(
  caps: Caps,
  splat: SplatEligibility,
): { modes: DrawMode[]; notes: string[] } {
  const modes: DrawMode[] = ['instanced', 'pulled'];
  const notes: string[] = [];
  const why = !caps.features.compute
    ? `no compute on ${caps.backend}`
    : splat.look !== null
      ? `drawMode 'splat' ${splat.look}`
      : !splat.buffers
        ? 'the state is in textures'
        : splat.depth
          ? 'the pass has a depth attachment'
          : !splat.prepared
            ? 'the frame loop does not call prepareDraw()'
            : null;
  if (why === null) modes.push('splat');
  else notes.push(`splat not measured: ${why}`);
  return { modes, notes };
}

/**
 * How far `ms` spread: half their range over their median (0 where there is nothing to spread: no
 * times, or a median of 0). The range, not a median deviation: of four rounds, one far off is what
 * makes their median unsure.
 */
export function spreadOf(ms: readonly number[]): number {
  const m = medianOf(ms);
  return m > 0 ? (Math.max(...ms) - Math.min(...ms)) / 2 / m : 0;
}

/** The median of `ms` (the lower middle value; NaN when empty). */
export function medianOf(ms: readonly number[]): number {
  const sorted = ms.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
}

/** A mode that took more than this many times the fastest at the first sample is not measured further. */
export const CALIBRATION_PRUNE = 3;

/**
 * Each mode's time for `count` particles from its medians at two sample sizes, on the line through
 * them (time = fixed + per-particle · n, the per-particle part never negative): a splat has a fixed
 * full-screen resolve that a small sample overweights, so the modes are compared at the real count.
 * With one sample size (the sample was the whole count) the medians are the estimates.
 */
export function estimateAt(
  count: number,
  first: { n: number; medians: ReadonlyMap<DrawMode, number> },
  second?: { n: number; medians: ReadonlyMap<DrawMode, number> },
): Map<DrawMode, number> {
  const out = new Map<DrawMode, number>();
  for (const [mode, t1] of first.medians) {
    const t2 = second?.medians.get(mode);
    if (!second || t2 === undefined || second.n === first.n) {
      out.set(mode, second && t2 === undefined ? NaN : t1);
      continue;
    }
    const perParticle = Math.max(0, (t2 - t1) / (second.n - first.n));
    out.set(mode, t2 + perParticle * (count - second.n));
  }
  return out;
}

/**
 * Times `among` drawing the first `n` particles: one warm-up round (not counted), then `rounds`
 * counted rounds, each mode once per round; each mode's times in ms, in the order taken.
 */
export type MeasureModes = (
  n: number,
  among: readonly DrawMode[],
  rounds: number,
) => Promise<Map<DrawMode, number[]>>;

/**
 * `auto`'s decision from measurements (calibrate.ts times the draws; this decides what to time):
 * the first CALIBRATION_START particles, the sample grown eightfold while the fastest mode draws
 * it in under CALIBRATION_ENOUGH_MS; when that sample is smaller than `count`, the modes within
 * CALIBRATION_PRUNE of the fastest measured again at a 4× larger sample and each one's time
 * extrapolated to `count` (`estimateAt`). When the two fastest estimates are a close call
 * (CALIBRATION_CLOSE: nearer than 20%, or than their rounds spread), those two are measured
 * CALIBRATION_CLOSE_ROUNDS rounds more — at the whole count where that fits
 * CALIBRATION_CLOSE_BUDGET_MS, else at the last sample's size, pooled with its rounds — and the
 * decision is taken on those. `clock` names the clock for the reason; when it changes during the
 * measurement (calibrate.ts gives up on a WebGL2 timer that does not time the draws), the decision
 * starts again on the new clock: times from two clocks are never compared. `size` is for the reason.
 */
export async function chooseDrawMode(
  measure: MeasureModes,
  count: number,
  modes: readonly DrawMode[],
  notes: string[],
  clock: string | (() => string),
  size: string,
): Promise<ReturnType<typeof pickFastest>> {
  const clockNow = typeof clock === 'string' ? () => clock : clock;
  const noted = notes.length;
  for (;;) {
    const on = clockNow();
    try {
      return await decide(
        async (n, among, rounds) => {
          const samples = await measure(n, among, rounds);
          if (clockNow() !== on) throw new ClockChanged();
          return samples;
        },
        count,
        modes,
        notes,
        on,
        size,
      );
    } catch (e) {
      if (!(e instanceof ClockChanged)) throw e;
      // what the first try noted (modes left out) was decided on the other clock
      notes.length = noted;
    }
  }
}

/** The measurement's clock changed under a decision (chooseDrawMode starts it again). */
class ClockChanged extends Error {}

/** chooseDrawMode on one clock. */
async function decide(
  measure: MeasureModes,
  count: number,
  modes: readonly DrawMode[],
  notes: string[],
  clock: string,
  size: string,
): Promise<ReturnType<typeof pickFastest>> {
  const rounds = CALIBRATION_ROUNDS - 1;
  const mediansOf = (samples: ReadonlyMap<DrawMode, number[]>): Map<DrawMode, number> =>
    new Map([...samples].map(([m, ms]) => [m, medianOf(ms)]));
  const fastest = (m: ReadonlyMap<DrawMode, number>): number =>
    Math.min(...[...m.values()].filter(Number.isFinite));
  const n1 = (n: number): string => n.toLocaleString('en-US');
  let n = Math.min(count, CALIBRATION_START);
  let first = await measure(n, modes, rounds);
  while (n < count && fastest(mediansOf(first)) < CALIBRATION_ENOUGH_MS) {
    n = Math.min(count, n * 8);
    first = await measure(n, modes, rounds);
  }
  /** The samples a close call adds to: the last measurement's. */
  let last = { n, samples: first };
  let estimate = (): Map<DrawMode, number> => mediansOf(first);
  let how = `${n1(n)} of ${n1(count)} particles`;
  if (n < count) {
    // a second, larger sample of the modes still in the running, and a line through both
    const medians = mediansOf(first);
    const best = fastest(medians);
    const contenders = modes.filter(
      (m) => (medians.get(m) ?? Infinity) <= CALIBRATION_PRUNE * best,
    );
    for (const m of modes)
      if (!contenders.includes(m))
        notes.push(
          `${m} left out after ${n1(n)} particles (${((medians.get(m) ?? NaN) / best).toFixed(1)}× the fastest)`,
        );
    const n2 = Math.min(count, n * 4);
    const second = await measure(n2, contenders, rounds);
    const firstAt = { n, medians: new Map(contenders.map((m) => [m, medians.get(m) as number])) };
    last = { n: n2, samples: second };
    estimate = () => estimateAt(count, firstAt, { n: n2, medians: mediansOf(second) });
    how = `${n1(n)} and ${n1(n2)} of ${n1(count)} particles, extrapolated`;
  }
  how = `${clock}, ${how}, at ${size}, median of ${rounds} rounds`;
  let estimates = estimate();
  const ranked = [...estimates].filter(([, ms]) => Number.isFinite(ms)).sort((a, b) => a[1] - b[1]);
  const [a, b] = ranked;
  if (a && b) {
    const pair = [a[0], b[0]];
    const gap = b[1] / a[1] - 1;
    const spread = pair.reduce((sum, m) => sum + spreadOf(last.samples.get(m) ?? []), 0);
    if (gap <= Math.max(CALIBRATION_CLOSE, spread)) {
      // the whole count where it fits the budget: no line drawn through smaller samples
      const whole =
        last.n < count &&
        (CALIBRATION_CLOSE_ROUNDS + 1) * (a[1] + b[1]) <= CALIBRATION_CLOSE_BUDGET_MS;
      const at = whole ? count : last.n;
      const more = await measure(at, pair, CALIBRATION_CLOSE_ROUNDS);
      if (whole) for (const m of pair) estimates.set(m, medianOf(more.get(m) ?? []));
      else {
        for (const m of pair) last.samples.get(m)?.push(...(more.get(m) ?? []));
        estimates = estimate();
      }
      const pct = (x: number): string => `${Math.round(x * 100)}%`;
      const medians = whole ? CALIBRATION_CLOSE_ROUNDS : rounds + CALIBRATION_CLOSE_ROUNDS;
      how = `${how}; ${pair.join(' and ')} a close call (${pct(gap)} apart, their rounds spread ${pct(spread)}), so ${CALIBRATION_CLOSE_ROUNDS} rounds more of both at ${n1(at)} of ${n1(count)} particles (medians of ${medians})`;
    }
  }
  return pickFastest(estimates, how, notes);
}

/** The fastest mode by estimated time, and the sentence saying so. */
export function pickFastest(
  estimates: ReadonlyMap<DrawMode, number>,
  how: string,
  notes: readonly string[],
): { mode: DrawMode; ms: number; raster: 'instanced' | 'pulled'; reason: string } {
  const all = [...estimates].map(([mode, ms]) => ({ mode, ms }));
  const valid = all.filter((m) => Number.isFinite(m.ms));
  if (valid.length === 0) throw new Error('no draw mode could be timed');
  const best = valid.reduce((a, b) => (b.ms < a.ms ? b : a));
  const rasters = valid.filter((m) => m.mode !== 'splat');
  const raster = (
    rasters.length > 0 ? rasters.reduce((a, b) => (b.ms < a.ms ? b : a)).mode : 'pulled'
  ) as 'instanced' | 'pulled';
  const figures = valid.map((m) => `${m.mode} ${m.ms.toFixed(3)} ms`).join(', ');
  return {
    mode: best.mode,
    ms: best.ms,
    raster,
    reason: `measured (${how}): ${figures}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  };
}

/**
 * Why options cannot be drawn by the splat (a sum of round camera-facing discs), or null: the
 * options a splat needs, said as `drawMode: 'splat'`'s error and as `auto`'s reason to skip it.
 */
export function splatBlocker(
  o: Pick<
    ParticleOptions,
    'blending' | 'billboard' | 'texture' | 'softParticles' | 'look' | 'light'
  > & { readonly geometry?: unknown },
): string | null {
  if (o.blending !== 'additive')
    return `needs blending 'additive' (a sum does not depend on order; blending is '${String(o.blending)}')`;
  if (o.billboard !== 'camera')
    return `needs billboard 'camera' (a splat adds round camera-facing discs; billboard is '${String(o.billboard)}')`;
  if (o.texture !== null) return 'needs no texture (a splat adds round discs, not images)';
  if (o.softParticles !== null)
    return 'needs no softParticles (a splat does not read the scene depth)';
  if (o.look !== null) return 'needs no look (a splat adds round discs)';
  if (o.light) return 'needs no light (a splat adds flat discs, not shaded spheres)';
  if (o.geometry) return 'needs no geometry (a splat adds discs, not meshes)';
  return null;
}
