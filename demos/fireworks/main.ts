// A firework show (show.ts): rockets, their bursts of stars and the stars' crackle — three particle
// systems, each spawned by the events of the one before. ?backend=webgl2 forces the fallback,
// ?path=cpu the CPU path, ?show=rain rain with splashes (events on the floor), ?frames=N stops
// after N frames, ?panel=closed folds the controls.
import { orbitCamera, type ParticlePath } from '../../src/particles/index.js';
import { FrameMeter, dockedPane, fitCanvas, openDemo } from '../shared/ui.js';
import { VIEWS, fireworkShow, rainShow } from './show.js';

const { url, canvas, info, device } = await openDemo();
const surface = device.surface!;
const path = (url.get('path') ?? 'auto') as 'auto' | ParticlePath;
const show = url.get('show') === 'rain' ? 'rain' : 'fireworks';
const systems = await (show === 'rain' ? rainShow : fireworkShow)(
  device,
  path === 'auto' ? {} : { path },
);
// 1.6 s before the first frame: the first rocket has burst (parents first in every step)
for (let step = 0; step < 96; step += 12) {
  const encoder = device.createCommandEncoder({ label: 'preroll' });
  for (let k = 0; k < 12; k++) for (const ps of systems) ps.update(encoder, 1 / 60);
  device.queue.submit([encoder.finish()]);
}
const settings = { orbit: true, speed: 1 };
const pane = dockedPane('fireworks');
const meter = new FrameMeter(pane);
pane.addBinding(settings, 'orbit');
pane.addBinding(settings, 'speed', { min: 0.1, max: 2, label: 'time scale' });

const frames = Number(url.get('frames') ?? Infinity);
let frame = 0;
let last = performance.now();
let yaw = 0;
(window as unknown as { __frames: number }).__frames = 0;
function tick(now: number): void {
  const dt = Math.min(0.05, Math.max(0, now - last) / 1000) * settings.speed;
  last = now;
  fitCanvas(canvas);
  if (settings.orbit) yaw += dt * 0.15;
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, ...VIEWS[show], yaw });
  const encoder = device.createCommandEncoder({ label: 'fireworks frame' });
  // parents first: each sub-emitter reads the events its parent's step just recorded
  for (const ps of systems) ps.update(encoder, dt);
  const target = surface.getCurrentTexture();
  for (const ps of systems) ps.prepareDraw(encoder, camera, target);
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0.01, 0.01, 0.03, 1] }],
  });
  for (const ps of systems) ps.draw(pass, camera);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick(now);
  frame++;
  (window as unknown as { __frames: number }).__frames = frame;
  if (frame % 30 === 0)
    void Promise.all(systems.map((ps) => ps.stats())).then((stats) => {
      const names = show === 'rain' ? ['drops', 'splashes'] : ['rockets', 'stars', 'crackle'];
      info.textContent = `${device.caps.backend} · ${systems[0]!.path} · ${stats.map((s, i) => `${names[i]} ${s.alive}`).join(' · ')}`;
    });
  if (frame < frames) requestAnimationFrame(tick);
}
info.textContent = `${device.caps.backend} · ${systems[0]!.path}`;
requestAnimationFrame(tick);
