// One rung of ignis-check (or ignis-bench) in the page: ?scene=<module URL>&rung=<name>&frames=N
// &dt=S&width=W&height=H&params=<JSON>[&mode=bench&warmup=W]. Makes the device on the canvas for
// the rung, runs the scene's frames with a fixed dt, and leaves the outcome in window.__check (the
// check CLI screenshots the canvas then). In bench mode every frame after the warm-up is timed:
// CPU (the scene's frame call: recording and submitting) and end to end (until the GPU is done).
import { createDevice } from '../src/index.js';
import { RUNGS } from './rungs.js';
import type { CreateScene, Scene, SceneNeeds } from './scene.js';

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
}
const report = (o: Outcome): void => {
  (window as unknown as { __check: Outcome }).__check = o;
};

const q = new URLSearchParams(location.search);
const sceneUrl = q.get('scene') ?? '';
let stage = 'load';

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
  for (let i = 0; i < warmup + frames; i++) {
    stage = `frame ${i}`;
    await device.beginFrame();
    const t0 = performance.now();
    scene.frame(dt);
    if (!bench) continue;
    const t1 = performance.now();
    await device.queue.onSubmittedWorkDone();
    if (i < warmup) continue;
    cpuMs.push(t1 - t0);
    e2eMs.push(performance.now() - t0);
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
    ...(bench ? { cpuMs, e2eMs } : {}),
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
