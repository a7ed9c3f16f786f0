// Browser side of the benchmark: runs one scenario (the post chain, a blur, a whole frame, a CPU
// loop, the portable flock or a hand-written reference, drawn to a canvas of the given size) and
// returns its measurements. The Node side (bench/runner.mjs) interleaves scenarios and repeats,
// aggregates and writes the results.
import { createDevice, type Device, type QuerySet } from '../../src/all.js';
import { createWorkload, type Workload } from './workloads.js';
import { runReference } from './reference.js';
import { runDraws } from './draws.js';

export interface Scenario {
  id: string;
  /** post: the post chain alone; blur: the blur alone; frame: particles + post; cpu: the CPU update loop alone (particles alone: a scene, check/scenes/particles.ts). */
  kind: 'post' | 'blur' | 'frame' | 'cpu' | 'reference' | 'portable' | 'draws';
  /** cpu: which loop (`ignis` the CPU path's, `reference` the oracle, `plain` a hand-written one). */
  path: 'compute' | 'pingpong' | 'cpu' | 'fragment' | 'ignis' | 'plain' | 'reference';
  /** frame: the particles' path (the post chain's is `postPath`). */
  particlePath?: 'compute' | 'pingpong' | 'cpu';
  postPath?: 'compute' | 'fragment';
  /** portable: the boids flock (1-D gather, `count` boids) or Life (a 2-D grid of `count` cells). */
  program?: 'flock' | 'life';
  radius?: number;
  backend: 'webgpu' | 'webgl2';
  drawMode: 'instanced' | 'pulled' | 'splat' | 'auto';
  /** reference: the soft disc (Ignis's default) or an image per particle (options.texture). */
  look?: 'disc' | 'sprite';
  count: number;
  width: number;
  height: number;
  warmup: number;
  frames: number;
  /** Stop a metric's loop after this long once at least 5 frames are in. */
  budgetMs: number;
  /** Skip the scenario when one warm-up frame takes longer than this. */
  tooSlowMs: number;
  /** Update-only steps of 0.1 s before measuring, so the fountain is in its steady state. */
  preroll: number;
}

export interface Measured {
  skipped?: string;
  backend: string;
  adapter: string;
  e2eMs: number[];
  rafMs: number[];
  cpuMs: number[];
  gpuUpdateMs: number[] | null;
  gpuDrawMs: number[] | null;
  /** GPU time of each named span per measured frame (timestamps), where the device has them. */
  gpuSpansMs: Record<string, number[]> | null;
  /** The path(s) taken and why. */
  describe: string;
  /** The draw mode used (what `auto` chose), where there are particles. */
  drawn?: string;
  /** The `reference` suite: the hand-written draw's e2e and CPU ms per frame. */
  reference?: {
    e2eMs: number[];
    cpuMs: number[];
    /** GPU ms of the hand-written draw's pass per frame (WebGPU with timestamps), else null. */
    gpuDrawMs: number[] | null;
    /** The hand-written frame after `jsUs` µs of plain JavaScript (reference.ts: the control). */
    control: { cpuMs: number[]; jsUs: number };
    /**
     * The two draws' images of one frame compared: pixels Ignis lit, and pixels whose channels
     * differ by more than `tolerance` (of 255) between the two (the same look: few, from the order
     * of the additive blends' rounding).
     */
    image: { lit: number; differing: number; tolerance: number };
  };
  /** The `draws` suite: CPU µs per draw of each contender, one sample per round (draws.ts). */
  draws?: {
    ignis: number[];
    raw: number[];
    three: number[];
    /** Pixels the last frame lit: Ignis's and the hand-written frame's (the same draws). */
    lit: { ignis: number; raw: number };
  };
  gpuBytes: number;
  heapBytes: number | null;
  alive: number;
  /** What the backend reports: features and limits. */
  caps: { features: Record<string, boolean>; limits: Record<string, number> } | null;
}

function canvasOf(width: number, height: number): HTMLCanvasElement {
  document.querySelector('canvas')?.remove();
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.style.width = `${width / devicePixelRatio}px`;
  canvas.style.height = `${height / devicePixelRatio}px`;
  document.body.append(canvas);
  return canvas;
}

async function run(s: Scenario): Promise<Measured> {
  const canvas = canvasOf(s.width, s.height);
  let device: Device;
  try {
    // the portable suite's CPU path reads the buffers' host copies
    const hostShadows = s.kind === 'portable' && s.path === 'cpu';
    device = await createDevice({ backend: s.backend, canvas, hostShadows });
  } catch (e) {
    return skipped(`${s.backend} unavailable: ${(e as Error).message}`);
  }
  const adapter =
    `${device.caps.adapter.vendor} ${device.caps.adapter.architecture} ${device.caps.adapter.description}`.trim();
  if (s.kind === 'reference' || s.kind === 'draws') {
    try {
      return await (s.kind === 'draws' ? runDraws : runReference)(device, s, adapter);
    } catch (e) {
      device.destroy();
      return skipped(`${(e as Error).name}: ${(e as Error).message}`);
    }
  }
  let work: Workload;
  try {
    work = await createWorkload(device, s);
  } catch (e) {
    device.destroy();
    return skipped(`${(e as Error).name}: ${(e as Error).message}`);
  }
  const timing = device.caps.features.timestampQuery && work.pairs > 0;
  const querySet: QuerySet | null = timing
    ? device.createQuerySet({ label: 'bench timestamps', type: 'timestamp', count: 2 * work.pairs })
    : null;

  /** Records and submits one frame; returns the CPU time spent inside Ignis. */
  const frame = (withTimestamps: boolean): number => {
    const c0 = performance.now();
    work.frame(withTimestamps ? querySet : null);
    return performance.now() - c0;
  };

  // pre-roll: creation puts every particle at the emitter; a few seconds of simulated time spread
  // them into the steady-state fountain the frames then measure (and the screenshot shows)
  await work.preroll(s.preroll);

  // drawMode 'auto' measures at its first draw: one untimed frame, then wait for its choice, so
  // neither the warm-up's too-slow check nor the measured frames pay for the measurement
  frame(false);
  await device.queue.onSubmittedWorkDone();
  await work.ready();

  // warm-up, with the too-slow check
  for (let i = 0; i < s.warmup; i++) {
    const t0 = performance.now();
    frame(false);
    await device.queue.onSubmittedWorkDone();
    const took = performance.now() - t0;
    if (took > s.tooSlowMs) {
      work.destroy();
      device.destroy();
      return {
        ...skipped(
          `too slow: a warm-up frame took ${(took / 1000).toFixed(1)} s (limit ${(s.tooSlowMs / 1000).toFixed(1)} s)`,
        ),
        backend: s.backend,
        adapter,
      };
    }
  }

  // end-to-end: submit → GPU done, one frame at a time; CPU time inside Ignis; GPU pass times
  const e2eMs: number[] = [];
  const cpuMs: number[] = [];
  const spans: Record<string, number[]> = Object.fromEntries(
    Object.keys(work.spans).map((k) => [k, []]),
  );
  const start = performance.now();
  for (let i = 0; i < s.frames && (i < 5 || performance.now() - start < s.budgetMs); i++) {
    const t0 = performance.now();
    cpuMs.push(frame(true));
    await device.queue.onSubmittedWorkDone();
    e2eMs.push(performance.now() - t0);
    if (querySet) {
      const t = await querySet.readTimestamps();
      for (const [name, pairs] of Object.entries(work.spans)) {
        const ms = pairs.reduce(
          (sum, p) => sum + ((t[2 * p + 1] as number) - (t[2 * p] as number)) / 1e6,
          0,
        );
        // a disjoint WebGL2 interval is NaN: dropped, never counted as 0
        if (Number.isFinite(ms) && ms >= 0) spans[name]!.push(ms);
      }
    }
  }

  // steady state: intervals between requestAnimationFrame callbacks of a loop that, like an app,
  // waits in device.beginFrame() when maxFramesInFlight (2) frames are still on the GPU
  const rafMs: number[] = await new Promise((resolve) => {
    const intervals: number[] = [];
    let last = -1;
    const rafStart = performance.now();
    const tick = async (now: number): Promise<void> => {
      if (last >= 0) intervals.push(now - last);
      last = now;
      if (
        intervals.length >= s.frames ||
        (intervals.length >= 5 && performance.now() - rafStart > s.budgetMs)
      ) {
        resolve(intervals);
        return;
      }
      await device.beginFrame();
      frame(false);
      requestAnimationFrame((t) => void tick(t));
    };
    requestAnimationFrame((t) => void tick(t));
  });
  await device.queue.onSubmittedWorkDone();

  const alive = await work.alive();
  // leave one finished frame on the canvas for the screenshot
  frame(false);
  await device.queue.onSubmittedWorkDone();
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  const out: Measured = {
    backend: device.caps.backend,
    adapter,
    e2eMs,
    rafMs,
    cpuMs,
    gpuUpdateMs: spans.update && spans.update.length > 0 ? spans.update : null,
    gpuDrawMs: spans.draw && spans.draw.length > 0 ? spans.draw : null,
    gpuSpansMs: timing && Object.values(spans).some((v) => v.length > 0) ? spans : null,
    describe: work.describe,
    drawn: work.drawn,
    gpuBytes: device.stats().total.bytes,
    heapBytes: memory ? memory.usedJSHeapSize : null,
    alive: alive ?? 0,
    caps: { features: { ...device.caps.features }, limits: { ...device.caps.limits } },
  };
  (window as unknown as { __cleanup: () => void }).__cleanup = () => {
    querySet?.destroy();
    work.destroy();
    device.destroy();
  };
  return out;
}

function skipped(reason: string): Measured {
  return {
    skipped: reason,
    backend: '',
    adapter: '',
    e2eMs: [],
    rafMs: [],
    cpuMs: [],
    gpuUpdateMs: null,
    gpuDrawMs: null,
    gpuSpansMs: null,
    describe: '',
    gpuBytes: 0,
    heapBytes: null,
    alive: 0,
    caps: null,
  };
}

function cleanup(): void {
  (window as unknown as { __cleanup?: () => void }).__cleanup?.();
  (window as unknown as { __cleanup?: () => void }).__cleanup = undefined;
}

(window as unknown as { __bench: unknown }).__bench = { run, cleanup };
(window as unknown as { __benchReady: boolean }).__benchReady = true;
