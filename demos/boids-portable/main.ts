// One WGSL flock (flock.wgsl) on every path Ignis has: WebGPU compute runs it as written, WebGL2
// runs its GLSL translation as a fragment ping-pong, the CPU runs its JavaScript translation. The
// path switches live (the flock carries on); ?backend=webgl2 picks the WebGL2 device.
import { createDevice, type BackendRequest } from '../../src/index.js';
import type { PathName } from '../../src/compute/index.js';
import { DEFAULT_RULES, PortableFlock } from './flock.js';
import { dockedPane, element, fitCanvas, FrameMeter } from '../shared/ui.js';

const params = new URLSearchParams(location.search);
const canvas = element<HTMLCanvasElement>('canvas');
const info = element('info');
fitCanvas(canvas);

// host copies of the buffers, so the CPU path can be switched to on any device
const device = await createDevice({
  backend: (params.get('backend') ?? 'auto') as BackendRequest,
  canvas,
  hostShadows: true,
});
const surface = device.surface!;
const count = Number(params.get('count') ?? 1000);
const flock = new PortableFlock(device, count, (params.get('path') ?? 'auto') as 'auto' | PathName);
const settings = { ...DEFAULT_RULES };
const choice = { path: flock.sim.path as PathName };
const paths: PathName[] = device.caps.features.compute ? ['compute', 'cpu'] : ['pingpong', 'cpu'];

const pane = dockedPane('portable boids');
const meter = new FrameMeter(pane);
pane
  .addBinding(choice, 'path', { options: Object.fromEntries(paths.map((p) => [p, p])) })
  .on('change', (e) => void flock.setPath(e.value));
const rules = pane.addFolder({ title: 'rules' });
for (const key of Object.keys(settings) as Array<keyof typeof settings>)
  rules.addBinding(settings, key, {
    min: 0,
    max: key === 'separation' ? 0.0002 : key === 'maxSpeed' ? 1 : 0.3,
  });
rules.on('change', () => flock.setRules(settings));

let frames = 0;
async function frame(): Promise<void> {
  await device.beginFrame();
  fitCanvas(canvas);
  const encoder = device.createCommandEncoder({ label: 'frame' });
  flock.step(encoder);
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0.03, 0.04, 0.07, 1] },
    ],
  });
  flock.render(pass, surface.format);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick();
  frames++;
  info.textContent = `${device.caps.backend} · path ${flock.sim.path} (${flock.sim.reason}) · ${count} boids · ${meter.text()}`;
  Object.assign(window, {
    __frames: frames,
    __path: flock.sim.path,
    __setPath: (p: PathName) => flock.setPath(p),
  });
  if (frames < Number(params.get('frames') ?? Infinity)) requestAnimationFrame(() => void frame());
}
void frame();
