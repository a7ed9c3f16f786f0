// One rung of ignis-check (or ignis-bench) in the page: ?scene=<module URL>&rung=<name>&frames=N
// &dt=S&width=W&height=H&params=<JSON>[&mode=bench&warmup=W]. Makes the device on the canvas for
// the rung, runs the scene's frames with a fixed dt, and leaves the outcome in window.__check (the
// check CLI screenshots the canvas then). In bench mode every frame after the warm-up is timed:
// CPU (the scene's frame call: recording and submitting), end to end (until the GPU is done) and,
// where the device has timestamp queries, GPU time (the passes the scene began, summed).
import { createDevice, type CommandEncoder, type Device, type QuerySet } from 'ignis-rhi';
import { RUNGS } from './rungs.js';
import type { CreateScene, Scene, SceneNeeds } from 'ignis-rhi/testing';

interface Outcome {
  done?: true;
  skipped?: string;
  error?: string;
  stage?: string;
  backend?: string;
  fallbackReason?: string;
  state?: number[] | null;
  cpuMs?: number[];
  e2eMs?: number[];
  gpuMs?: number[];
  /** Passes per frame beyond the timestamp slots (not in gpuMs). */
  untimedPasses?: number;
}
const report = (o: Outcome): void => {
  (window as unknown as { __check: Outcome }).__check = o;
};

const q = new URLSearchParams(location.search);
const sceneUrl = q.get('scene') ?? '';
let stage = 'load';

/** Timestamp pairs per frame; passes beyond them are counted as untimed. */
const TIMED_PASSES = 64;

/**
 * GPU time without the scene's help: every pass the scene begins without timestamps of its own
 * gets a pair from one query set (the device's encoder is wrapped). `frameMs()` sums this frame's
 * intervals once the GPU is done; null when a WebGL2 interval was disjoint.
 */
function timePasses(device: Device): {
  startFrame(): void;
  frameMs(): Promise<number | null>;
  untimed: number;
} {
  const querySet: QuerySet = device.createQuerySet({
    label: 'ignis-bench pass timestamps',
    type: 'timestamp',
    count: 2 * TIMED_PASSES,
  });
  let used = 0;
  const state = {
    untimed: 0,
    startFrame: () => {
      used = 0;
    },
    frameMs: async (): Promise<number | null> => {
      const t = await querySet.readTimestamps();
      let ns = 0;
      for (let k = 0; k < used; k++) ns += (t[2 * k + 1] as number) - (t[2 * k] as number);
      return Number.isFinite(ns) && ns >= 0 ? ns / 1e6 : null;
    },
  };
  const slot = ():
    | { querySet: QuerySet; beginningOfPassWriteIndex: number; endOfPassWriteIndex: number }
    | undefined => {
    if (used === TIMED_PASSES) {
      state.untimed++;
      return undefined;
    }
    const k = used++;
    return { querySet, beginningOfPassWriteIndex: 2 * k, endOfPassWriteIndex: 2 * k + 1 };
  };
  const create = device.createCommandEncoder.bind(device);
  device.createCommandEncoder = (desc?: Parameters<Device['createCommandEncoder']>[0]) => {
    const encoder: CommandEncoder = create(desc);
    const render = encoder.beginRenderPass.bind(encoder);
    const compute = encoder.beginComputePass.bind(encoder);
    encoder.beginRenderPass = (d) =>
      render(d.timestampWrites ? d : { ...d, timestampWrites: slot() });
    encoder.beginComputePass = (d = {}) =>
      compute(d.timestampWrites ? d : { ...d, timestampWrites: slot() });
    return encoder;
  };
  return state;
}

/** The rung, start to end: the outcome the CLI reads. */
async function run(): Promise<Outcome> {
  const rung = RUNGS.find((r) => r.name === q.get('rung'));
  if (!rung) throw new Error(`unknown rung ${q.get('rung')}`);
  const canvas = document.getElementById('canvas') as HTMLCanvasElement;
  canvas.width = Number(q.get('width') ?? 256);
  canvas.height = Number(q.get('height') ?? 256);
  canvas.style.width = `${canvas.width}px`;
  canvas.style.height = `${canvas.height}px`;
  const mod = (await import(/* @vite-ignore */ sceneUrl)) as {
    create?: CreateScene;
    needs?: SceneNeeds;
  };
  if (typeof mod.create !== 'function')
    throw new Error(
      `the scene module exports no create(device, canvas, params) function (it exports: ${Object.keys(mod).join(', ') || 'nothing'})`,
    );
  stage = 'device';
  const device = await createDevice({ backend: rung.backend, canvas, restrict: rung.restrict });
  const missing = (mod.needs ?? []).filter((f) => !device.caps.features[f]);
  if (missing.length > 0) {
    return {
      skipped: `the scene needs ${missing.join(', ')}: caps.features.${missing[0]} is false on this rung`,
      backend: device.caps.backend,
    };
  }
  stage = 'create';
  const scene: Scene = await mod.create(
    device,
    canvas,
    JSON.parse(q.get('params') ?? '{}') as never,
  );
  const frames = Number(q.get('frames') ?? 10);
  const dt = Number(q.get('dt') ?? 1 / 60);
  const bench = q.get('mode') === 'bench';
  const warmup = bench ? Number(q.get('warmup') ?? 5) : 0;
  const cpuMs: number[] = [];
  const e2eMs: number[] = [];
  const gpuMs: number[] = [];
  const timer = bench && device.caps.features.timestampQuery ? timePasses(device) : null;
  for (let i = 0; i < warmup + frames; i++) {
    stage = `frame ${i}`;
    await device.beginFrame();
    timer?.startFrame();
    const t0 = performance.now();
    scene.frame(dt);
    if (!bench) continue;
    const t1 = performance.now();
    await device.queue.onSubmittedWorkDone();
    if (i < warmup) continue;
    cpuMs.push(t1 - t0);
    e2eMs.push(performance.now() - t0);
    const gpu = await timer?.frameMs();
    if (gpu !== undefined && gpu !== null) gpuMs.push(gpu);
  }
  stage = 'read';
  await device.queue.onSubmittedWorkDone();
  const state = scene.read ? await scene.read() : null;
  stage = 'destroy';
  scene.destroy();
  return {
    done: true,
    backend: device.caps.backend,
    fallbackReason: device.fallbackReason ?? undefined,
    ...(bench ? { cpuMs, e2eMs, gpuMs, untimedPasses: timer?.untimed ?? 0 } : {}),
    state:
      state === null
        ? null
        : Array.isArray(state)
          ? [...(state as number[])]
          : [
              ...new Float32Array(
                ArrayBuffer.isView(state) ? state.buffer.slice(0) : (state as ArrayBuffer),
              ),
            ],
  };
}

try {
  report(await run());
} catch (e) {
  report({ error: e instanceof Error ? e.message : String(e), stage });
}
