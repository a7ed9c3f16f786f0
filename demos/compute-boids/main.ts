// Flocking with compute: plain WGSL (sim.wgsl) that would run on raw WebGPU, driven through Ignis.
// Needs caps.features.compute; on WebGL2 the page says so instead of failing silently.
import { Pane } from 'tweakpane';
import { createDevice, type BackendRequest } from '../../src/index.js';
import { Boids, DEFAULT_PARAMS } from './boids.js';

const params = new URLSearchParams(location.search);
const canvas = document.getElementById('canvas') as HTMLCanvasElement;
const info = document.getElementById('info') as HTMLElement;
canvas.width = Math.floor(canvas.clientWidth * devicePixelRatio);
canvas.height = Math.floor(canvas.clientHeight * devicePixelRatio);

const device = await createDevice({ backend: (params.get('backend') ?? 'auto') as BackendRequest, canvas });
if (!device.caps.features.compute) {
  info.textContent = `The boids demo needs compute: caps.features.compute is false on ${device.caps.backend}.\nThe particles demo shows the WebGL2 fallback.`;
  throw new Error(info.textContent);
}
const surface = device.surface!;
const count = Number(params.get('count') ?? 1500);
const boids = new Boids(device, count, surface.format);
const settings = { ...DEFAULT_PARAMS };
const pane = new Pane({ title: 'boids' });
for (const key of Object.keys(settings) as Array<keyof typeof settings>) {
  pane.addBinding(settings, key, { min: 0, max: key === 'deltaT' ? 0.2 : key.endsWith('Distance') ? 0.3 : 0.2 });
}
pane.on('change', () => boids.setParams(settings));

let last = performance.now();
async function frame(): Promise<void> {
  await device.beginFrame();
  const encoder = device.createCommandEncoder({ label: 'frame' });
  boids.step(encoder);
  const pass = encoder.beginRenderPass({ colorAttachments: [{ texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0.04, 0.04, 0.06, 1] }] });
  boids.render(pass);
  pass.end();
  device.queue.submit([encoder.finish()]);
  const now = performance.now();
  info.textContent = `${device.caps.backend} · ${count} boids · ${(now - last).toFixed(1)} ms/frame`;
  last = now;
  requestAnimationFrame(() => void frame());
}
void frame();
