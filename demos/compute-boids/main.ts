// Flocking with compute: plain WGSL (sim.wgsl) that would run on raw WebGPU, driven through Ignis.
// Needs caps.features.compute; on WebGL2 the page says so instead of failing silently. The flock is
// pre-rolled (200 steps) so the first frame shows flocks, not the initial random scatter.
import { createDevice, type BackendRequest } from '../../src/index.js';
import { Boids, DEFAULT_PARAMS } from './boids.js';
import { dockedPane, element, fitCanvas, FrameMeter } from '../shared/ui.js';

const PREROLL_STEPS = 200;

const params = new URLSearchParams(location.search);
const canvas = element<HTMLCanvasElement>('canvas');
const info = element('info');
fitCanvas(canvas);

const device = await createDevice({
  backend: (params.get('backend') ?? 'auto') as BackendRequest,
  canvas,
});
if (!device.caps.features.compute) {
  info.textContent = `The boids demo needs compute: caps.features.compute is false on ${device.caps.backend}.\nThe particles demo shows the WebGL2 fallback.`;
  throw new Error(info.textContent);
}
const surface = device.surface!;
const count = Number(params.get('count') ?? 1500);
const boids = new Boids(device, count, surface.format);
const settings = { ...DEFAULT_PARAMS };
const pane = dockedPane('boids');
const meter = new FrameMeter(pane);
const rules = pane.addFolder({ title: 'rules' });
for (const key of Object.keys(settings) as Array<keyof typeof settings>) {
  rules.addBinding(settings, key, {
    min: 0,
    max: key === 'deltaT' ? 0.2 : key.endsWith('Distance') ? 0.3 : 0.2,
  });
}
pane.on('change', () => boids.setParams(settings));

for (let i = 0; i < PREROLL_STEPS; i += 20) {
  const encoder = device.createCommandEncoder({ label: 'preroll' });
  for (let k = 0; k < 20; k++) boids.step(encoder);
  device.queue.submit([encoder.finish()]);
}

let frames = 0;
async function frame(): Promise<void> {
  await device.beginFrame();
  fitCanvas(canvas);
  const encoder = device.createCommandEncoder({ label: 'frame' });
  boids.step(encoder);
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0.04, 0.04, 0.06, 1] },
    ],
  });
  boids.render(pass);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick();
  frames++;
  info.textContent = `${device.caps.backend} · ${count} boids · ${meter.text()}`;
  Object.assign(window, { __frames: frames, __prerolled: PREROLL_STEPS });
  if (frames < Number(params.get('frames') ?? Infinity)) requestAnimationFrame(() => void frame());
}
void frame();
