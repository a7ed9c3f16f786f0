// One rung of ignis-check (or ignis-bench) in the page: ?scene=<module URL>&rung=<name>&frames=N
// &dt=S&width=W&height=H&params=<JSON>[&mode=bench&warmup=W
// &budgetMs=B&tooSlowMs=T&clocks=on|off|auto]. Sizes the canvas, runs the rung
// (check/run-scene.ts) and leaves the outcome in window.__check (the check CLI screenshots the
// canvas then).
import { runRung, type Outcome, type RungQuery } from './run-scene.js';

const q = new URLSearchParams(location.search);
const canvas = document.getElementById('canvas') as HTMLCanvasElement;
canvas.width = Number(q.get('width') ?? 256);
canvas.height = Number(q.get('height') ?? 256);
canvas.style.width = `${canvas.width}px`;
canvas.style.height = `${canvas.height}px`;
const outcome: Outcome = await runRung(
  {
    scene: q.get('scene') ?? '',
    rung: q.get('rung') ?? '',
    frames: Number(q.get('frames') ?? 10),
    dt: Number(q.get('dt') ?? 1 / 60),
    params: JSON.parse(q.get('params') ?? '{}') as Record<string, string | number>,
    bench: q.get('mode') === 'bench',
    warmup: Number(q.get('warmup') ?? 5),
    ...(q.has('budgetMs') ? { budgetMs: Number(q.get('budgetMs')) } : {}),
    ...(q.has('tooSlowMs') ? { tooSlowMs: Number(q.get('tooSlowMs')) } : {}),
    ...(q.has('clocks') ? { clocks: q.get('clocks') as RungQuery['clocks'] } : {}),
  },
  canvas,
);
(window as unknown as { __check: Outcome }).__check = outcome;
