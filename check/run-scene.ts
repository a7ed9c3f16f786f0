// One rung of a scene, wherever it runs: the page (check/page.ts, in Chromium) and Deno
// (check/deno-scene.ts, on a headless GPU server). Loads the scene module, makes the device on the
// canvas for the rung, runs the scene's frames with a fixed dt and returns the outcome the CLIs
// read. In bench mode every frame after the warm-up is timed: CPU (the scene's frame call:
// recording and submitting), end to end (until the GPU is done) and, where the device has
// timestamp queries, GPU time (the passes the scene began, summed, and per pass label).
import {
  BufferUsage,
  createDevice,
  type CommandEncoder,
  type Device,
  type QuerySet,
} from 'ignis-rhi';
import type { CreateScene, Scene, SceneInfo, SceneNeeds } from 'ignis-rhi/testing';
import { clockGuard, TOP_SHARE } from './clock-probe.js';
import { RUNGS } from './rungs.js';

/** What a rung ends with. */
export interface Outcome {
  done?: true;
  skipped?: string;
  error?: string;
  stage?: string;
  backend?: string;
  /** What the adapter says of itself (vendor, architecture, description). */
  adapter?: string;
  fallbackReason?: string;
  /** The scene's `read()`, as its bytes (`encodeState`); not read in bench mode. */
  state?: EncodedState | null;
  cpuMs?: number[];
  e2eMs?: number[];
  gpuMs?: number[];
  /** GPU ms per frame of the passes with each label (summed when several share one). */
  gpuPassMs?: Record<string, number[]>;
  /** What the scene's `info()` said after the measured frames. */
  info?: SceneInfo;
  /** Bytes of GPU memory the device had allocated after the measured frames. */
  gpuBytes?: number;
  /** The JavaScript heap in use after the measured frames, where the runtime tells (Chromium). */
  heapBytes?: number;
  /** Intervals between requestAnimationFrame callbacks of a free-running loop (browser only). */
  rafMs?: number[];
  /** Passes per frame beyond the timestamp slots (not in gpuMs). */
  untimedPasses?: number;
  /**
   * Bench, with the clock guarded: the lowest share of its top the GPU's clock was found at over
   * the measured frames (check/clock-probe.ts; 1 at the top).
   */
  clock?: number;
  /** Bench, with the guard asked for: why this rung's clock was not guarded. */
  clockNote?: string;
}

/**
 * A scene's state as one string of its bytes, not a list of numbers: a list of millions crossed
 * Chromium's protocol but crashed Firefox's content process over WebDriver BiDi (a million
 * particles' positions, 4,000,000 numbers). `f32`: 32-bit floats (a typed array or buffer's bytes
 * read as floats, as before); `f64`: a list of numbers and a Float64Array, at their precision.
 */
export interface EncodedState {
  type: 'f32' | 'f64';
  base64: string;
}

/** `state` (what `Scene.read` resolves to) as `EncodedState`. */
export function encodeState(
  state: ArrayBuffer | ArrayBufferView | readonly number[],
): EncodedState {
  let type: EncodedState['type'] = 'f32';
  let bytes: Uint8Array;
  if (Array.isArray(state)) {
    type = 'f64';
    bytes = new Uint8Array(Float64Array.from(state as readonly number[]).buffer);
  } else if (ArrayBuffer.isView(state)) {
    if (state instanceof Float64Array) type = 'f64';
    // (the view's own bytes, to a whole number of floats: not the rest of its buffer)
    const width = type === 'f64' ? 8 : 4;
    const length = state.byteLength - (state.byteLength % width);
    bytes = new Uint8Array(state.buffer, state.byteOffset, length);
  } else {
    const buffer = state as ArrayBuffer;
    bytes = new Uint8Array(buffer, 0, buffer.byteLength - (buffer.byteLength % 4));
  }
  // btoa takes a binary string: built a chunk at a time (an argument list has a limit)
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { type, base64: btoa(binary) };
}

/** What the CLI asks of a rung. */
export interface RungQuery {
  scene: string;
  rung: string;
  frames: number;
  dt: number;
  params: Record<string, string | number>;
  bench: boolean;
  warmup: number;
  /** Bench: stop measuring a metric after this many ms once 5 frames are in (default: no limit). */
  budgetMs?: number;
  /** Bench: skip the rung when a warm-up frame takes longer than this many ms (default: no limit). */
  tooSlowMs?: number;
  /**
   * Bench: guard the GPU's clock (check/clock-probe.ts) — bring it to its top before the measured
   * frames and again whenever a second of them has passed and it has fallen, and report the
   * lowest share found. `auto`: where it fits (WebGPU, timestamps, a hardware adapter); `on`: on
   * a software adapter too; `off` (the default).
   */
  clocks?: 'on' | 'off' | 'auto';
}

/** Timestamp pairs per frame; passes beyond them are counted as untimed. */
const TIMED_PASSES = 512;

/** One frame's GPU time: the sum, and per pass label. */
interface FrameGpuTime {
  total: number;
  passes: Record<string, number>;
}

/**
 * GPU time without the scene's help: every pass the scene begins without timestamps of its own
 * gets a pair from one query set (the device's encoder is wrapped), and its label is kept.
 * `frameMs()` sums this frame's intervals once the GPU is done; null when a WebGL2 interval was
 * disjoint.
 */
function timePasses(device: Device): {
  startFrame(): void;
  frameMs(): Promise<FrameGpuTime | null>;
  /** The most passes one frame began beyond the timestamp slots. */
  untimed: number;
} {
  const querySet: QuerySet = device.createQuerySet({
    label: 'ignis-bench pass timestamps',
    type: 'timestamp',
    count: 2 * TIMED_PASSES,
  });
  let used = 0;
  // only the frames between startFrame() and frameMs() are timed (not the rAF loop's)
  let timing = false;
  let untimedNow = 0;
  const labels: string[] = [];
  const state = {
    untimed: 0,
    startFrame: () => {
      used = 0;
      untimedNow = 0;
      timing = true;
    },
    frameMs: async (): Promise<FrameGpuTime | null> => {
      timing = false;
      const t = await querySet.readTimestamps();
      const passes: Record<string, number> = {};
      let total = 0;
      for (let k = 0; k < used; k++) {
        const ms = ((t[2 * k + 1] as number) - (t[2 * k] as number)) / 1e6;
        if (!Number.isFinite(ms) || ms < 0) return null;
        total += ms;
        passes[labels[k]!] = (passes[labels[k]!] ?? 0) + ms;
      }
      return { total, passes };
    },
  };
  const slot = (
    label: string | undefined,
  ):
    | { querySet: QuerySet; beginningOfPassWriteIndex: number; endOfPassWriteIndex: number }
    | undefined => {
    if (!timing) return undefined;
    if (used === TIMED_PASSES) {
      state.untimed = Math.max(state.untimed, ++untimedNow);
      return undefined;
    }
    const k = used++;
    labels[k] = label ?? 'unlabelled pass';
    return { querySet, beginningOfPassWriteIndex: 2 * k, endOfPassWriteIndex: 2 * k + 1 };
  };
  const create = device.createCommandEncoder.bind(device);
  device.createCommandEncoder = (desc?: Parameters<Device['createCommandEncoder']>[0]) => {
    const encoder: CommandEncoder = create(desc);
    const render = encoder.beginRenderPass.bind(encoder);
    const compute = encoder.beginComputePass.bind(encoder);
    encoder.beginRenderPass = (d) =>
      render(d.timestampWrites ? d : { ...d, timestampWrites: slot(d.label) });
    encoder.beginComputePass = (d = {}) =>
      compute(d.timestampWrites ? d : { ...d, timestampWrites: slot(d.label) });
    return encoder;
  };
  return state;
}

/**
 * `frames` + 1 rAF callbacks (fewer once `budgetMs` has passed with 5 intervals in), each
 * beginFrame() then a frame; the intervals between them.
 */
async function rafIntervals(
  device: Device,
  scene: Scene,
  dt: number,
  frames: number,
  budgetMs: number,
  progress: { stage: string },
): Promise<number[]> {
  const intervals: number[] = [];
  let last = -1;
  const start = performance.now();
  for (let i = 0; i <= frames; i++) {
    if (intervals.length >= 5 && performance.now() - start > budgetMs) break;
    progress.stage = `rAF frame ${i}`;
    const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    if (last >= 0) intervals.push(now - last);
    last = now;
    await device.beginFrame();
    scene.frame(dt);
  }
  return intervals;
}

/** Runs one rung; an error becomes `{ error, stage }` (the stage: load, device, create, frame n…). */
export async function runRung(q: RungQuery, canvas: HTMLCanvasElement): Promise<Outcome> {
  const progress = { stage: 'load' };
  try {
    return await run(q, canvas, progress);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e), stage: progress.stage };
  }
}

async function run(
  q: RungQuery,
  canvas: HTMLCanvasElement,
  progress: { stage: string },
): Promise<Outcome> {
  const rung = RUNGS.find((r) => r.name === q.rung);
  if (!rung) throw new Error(`unknown rung ${q.rung}`);
  const mod = (await import(/* @vite-ignore */ q.scene)) as {
    create?: CreateScene;
    needs?: SceneNeeds;
  };
  if (typeof mod.create !== 'function')
    throw new Error(
      `the scene module exports no create(device, canvas, params) function (it exports: ${Object.keys(mod).join(', ') || 'nothing'})`,
    );
  progress.stage = 'device';
  let device: Device;
  try {
    device = await createDevice({ backend: rung.backend, canvas, restrict: rung.restrict });
  } catch (e) {
    // a browser without the rung's API (WebKit has no WebGPU on Linux): the rung cannot run here
    if (e instanceof Error && /UnavailableError$/.test(e.name))
      return { skipped: `this browser has no ${rung.backend}: ${e.message}` };
    throw e;
  }
  const missing = (mod.needs ?? []).filter((f) => !device.caps.features[f]);
  if (missing.length > 0) {
    return {
      skipped: `the scene needs ${missing.join(', ')}: caps.features.${missing[0]} is false on this rung`,
      backend: device.caps.backend,
    };
  }
  // what the GPU or a backend reported (an invalid shader, a failed submit): a rung with errors
  // fails, even when its image happens to match
  const reported: string[] = [];
  device.onError((e) => reported.push(`${e.name}: ${e.message}`));
  progress.stage = 'create';
  const scene: Scene = await mod.create(device, canvas, q.params as never);
  const { frames, dt, bench } = q;
  const warmup = bench ? q.warmup : 0;
  const cpuMs: number[] = [];
  const e2eMs: number[] = [];
  const gpuMs: number[] = [];
  const gpuPassMs: Record<string, number[]> = {};
  const timer = bench && device.caps.features.timestampQuery ? timePasses(device) : null;
  const budgetMs = q.budgetMs ?? Infinity;
  const guard = bench ? clockGuard(q.clocks, device, BufferUsage) : { probe: null };
  /** The clock's shares of its top found over the measured frames, and when it was last warmed. */
  const found: number[] = [];
  let warmed = -Infinity;
  let measuring = 0;
  for (let i = 0; i < warmup + frames; i++) {
    if (i === warmup) measuring = performance.now();
    else if (i >= warmup + 5 && performance.now() - measuring > budgetMs) break;
    if (guard.probe && i >= warmup && performance.now() - warmed >= 1000) {
      progress.stage = `the clock, before frame ${i}`;
      if (i > warmup) found.push(await guard.probe.check());
      if (i === warmup || (found.at(-1) as number) < TOP_SHARE) await guard.probe.warm();
      warmed = performance.now();
    }
    progress.stage = `frame ${i}`;
    await device.beginFrame();
    timer?.startFrame();
    const t0 = performance.now();
    scene.frame(dt);
    if (!bench) continue;
    const t1 = performance.now();
    await device.queue.onSubmittedWorkDone();
    const took = performance.now() - t0;
    if (i < warmup) {
      if (took > (q.tooSlowMs ?? Infinity)) {
        guard.probe?.destroy();
        scene.destroy();
        return {
          skipped: `too slow: a warm-up frame took ${(took / 1000).toFixed(1)} s (limit ${((q.tooSlowMs ?? 0) / 1000).toFixed(1)} s)`,
          backend: device.caps.backend,
        };
      }
      continue;
    }
    cpuMs.push(t1 - t0);
    e2eMs.push(took);
    const gpu = await timer?.frameMs();
    if (!gpu) continue;
    gpuMs.push(gpu.total);
    for (const [label, ms] of Object.entries(gpu.passes)) (gpuPassMs[label] ??= []).push(ms);
  }
  if (guard.probe) {
    progress.stage = 'the clock, after the frames';
    found.push(await guard.probe.check());
    guard.probe.destroy();
  }
  // steady state (a browser only): intervals between requestAnimationFrame callbacks of a loop that,
  // like an app, only waits in beginFrame() when frames in flight are still on the GPU
  const rafMs =
    bench && typeof requestAnimationFrame === 'function'
      ? await rafIntervals(device, scene, dt, frames, budgetMs, progress)
      : [];
  progress.stage = 'read';
  await device.queue.onSubmittedWorkDone();
  // (ignis-check compares the state; ignis-bench never reads it, and at a million particles
  // reading it back costs more than a frame)
  const state = !bench && scene.read ? await scene.read() : null;
  progress.stage = 'info';
  const info = bench && scene.info ? await scene.info() : undefined;
  const gpuBytes = device.stats().total.bytes;
  const heapBytes = (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;
  progress.stage = 'destroy';
  scene.destroy();
  progress.stage = 'the frames';
  if (reported.length > 0)
    throw new Error(`the device reported ${reported.length} error(s); the first: ${reported[0]}`);
  return {
    done: true,
    backend: device.caps.backend,
    adapter: [
      device.caps.adapter.vendor,
      device.caps.adapter.architecture,
      device.caps.adapter.description,
    ]
      .filter(Boolean)
      .join(' '),
    fallbackReason: device.fallbackReason ?? undefined,
    ...(bench
      ? {
          cpuMs,
          e2eMs,
          gpuMs,
          gpuPassMs,
          rafMs,
          untimedPasses: timer?.untimed ?? 0,
          ...(found.length > 0 ? { clock: Math.min(...found) } : {}),
          // (a note only where the guard was asked for and could not be had)
          ...(q.clocks && q.clocks !== 'off' && guard.note ? { clockNote: guard.note } : {}),
          gpuBytes,
          heapBytes,
        }
      : {}),
    ...(info ? { info } : {}),
    state: state === null ? null : encodeState(state),
  };
}
