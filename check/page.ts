// One rung of ignis-check in the page: ?scene=<module URL>&rung=<name>&frames=N&dt=S&width=W&height=H
// &params=<JSON>. Makes the device on the canvas for the rung, runs the scene's frames with a fixed
// dt, and leaves the outcome in window.__check (the CLI screenshots the canvas then).
import { createDevice } from '../src/index.js';
import { RUNGS } from './rungs.js';
import type { CreateScene, Scene } from './scene.js';

interface Outcome {
  done?: true;
  error?: string;
  stage?: string;
  backend?: string;
  fallbackReason?: string;
  state?: number[] | null;
}
const report = (o: Outcome): void => {
  (window as unknown as { __check: Outcome }).__check = o;
};

const q = new URLSearchParams(location.search);
const sceneUrl = q.get('scene') ?? '';
let stage = 'load';
try {
  const rung = RUNGS.find((r) => r.name === q.get('rung'));
  if (!rung) throw new Error(`unknown rung ${q.get('rung')}`);
  const canvas = document.getElementById('canvas') as HTMLCanvasElement;
  canvas.width = Number(q.get('width') ?? 256);
  canvas.height = Number(q.get('height') ?? 256);
  canvas.style.width = `${canvas.width}px`;
  canvas.style.height = `${canvas.height}px`;
  const mod = (await import(/* @vite-ignore */ sceneUrl)) as { create?: CreateScene };
  if (typeof mod.create !== 'function')
    throw new Error(
      `the scene module exports no create(device, canvas, params) function (it exports: ${Object.keys(mod).join(', ') || 'nothing'})`,
    );
  stage = 'device';
  const device = await createDevice({ backend: rung.backend, canvas, restrict: rung.restrict });
  stage = 'create';
  const scene: Scene = await mod.create(
    device,
    canvas,
    JSON.parse(q.get('params') ?? '{}') as never,
  );
  const frames = Number(q.get('frames') ?? 10);
  const dt = Number(q.get('dt') ?? 1 / 60);
  for (let i = 0; i < frames; i++) {
    stage = `frame ${i}`;
    await device.beginFrame();
    scene.frame(dt);
  }
  stage = 'read';
  await device.queue.onSubmittedWorkDone();
  const state = scene.read ? await scene.read() : null;
  stage = 'destroy';
  scene.destroy();
  report({
    done: true,
    backend: device.caps.backend,
    fallbackReason: device.fallbackReason ?? undefined,
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
  });
} catch (e) {
  report({ error: e instanceof Error ? e.message : String(e), stage });
}
