// Ignis particles in a three.js scene (scene.ts): ?backend=webgl2 runs three's WebGL2 backend and
// Ignis on its context; ?particles=0 draws three alone; ?count=… sets the particle count;
// ?frames=N stops after N frames (the test compares still frames).
import { createThreeWithIgnis } from './scene.js';
import { FrameMeter, dockedPane, element, fitCanvas } from '../shared/ui.js';

const url = new URLSearchParams(location.search);
const canvas = element<HTMLCanvasElement>('canvas');
fitCanvas(canvas);
const info = element('info');
const backend = url.get('backend') === 'webgl2' ? 'webgl2' : 'webgpu';
const stopAfter = Number(url.get('frames') ?? Infinity);
const world = await createThreeWithIgnis(canvas, {
  backend,
  count: Number(url.get('count') ?? 50_000),
  particles: url.get('particles') !== '0',
});
const meter = new FrameMeter(dockedPane('three.js + Ignis'));
const ps = world.particles;
const label = `three.js ${backend === 'webgl2' ? 'WebGL2 backend' : 'WebGPURenderer'}${ps ? ` + Ignis ${ps.count.toLocaleString('en-US')} particles (${ps.path}, ${ps.drawMode})` : ' alone'}`;

let frames = 0;
let last = -1;
function tick(now: number): void {
  // rAF's first timestamp can be older than the page's setup: the clock starts at the first frame
  if (last < 0) last = now;
  const dt = Math.min((now - last) / 1000, 1 / 30);
  last = now;
  // a fixed step when the test asks for still frames, so every run draws the same thing
  world.frame(Number.isFinite(stopAfter) ? 1 / 60 : dt);
  meter.tick(now);
  info.textContent = `${label} — ${meter.text()}`;
  frames++;
  (window as unknown as { __frames: number }).__frames = frames;
  if (frames < stopAfter) requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
