/**
 * `drawMode: 'auto'`, decided by measurement. Which draw is fastest depends on the device, and
 * the evidence disagrees across devices: on SwiftShader `pulled` draws the same pixels 5–7× faster
 * than `instanced`; on an NVIDIA H200 `instanced` is 1.2–1.9× faster than `pulled`
 * (docs/benchmarks.md). So nothing is assumed: at the first draw, the system times each candidate
 * mode drawing its own state into a private target of the pass's size and format — GPU timestamps
 * where the device has them, submit-to-done time otherwise — interleaved over a few rounds, and
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
