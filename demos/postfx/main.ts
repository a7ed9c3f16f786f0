// The particle fountain rendered into an HDR target, then bloom, tone mapping and grading into the
// canvas; the left part of the split shows the same frame without them (tone curve 'none').
// ?backend=webgl2 forces the fallback, ?path=fragment the fragment path on WebGPU, ?count=… the
// particle count, ?frames=N stops after N frames, ?panel=closed folds the controls.
import { createParticleSystem, orbitCamera } from '../../src/particles/index.js';
import {
  bloom,
  createPostProcess,
  grade,
  toneMap,
  type Effect,
  type ToneOperator,
} from '../../src/postfx/index.js';
import { FrameMeter, dockedPane, fitCanvas, openDemo } from '../shared/ui.js';

const { url, canvas, info, device } = await openDemo();
const surface = device.surface!;
const settings = {
  split: Number(url.get('split') ?? 0.5),
  bloom: true,
  threshold: 1,
  knee: 0.5,
  intensity: 0.6,
  radius: 0.65,
  operator: 'agx' as ToneOperator,
  exposure: 1,
  contrast: 1.05,
  saturation: 1.1,
  vignette: 0.25,
  orbit: true,
};
const effects = (): Effect[] => [
  ...(settings.bloom
    ? [
        bloom({
          threshold: settings.threshold,
          knee: settings.knee,
          intensity: settings.intensity,
          radius: settings.radius,
        }),
      ]
    : []),
  toneMap({ operator: settings.operator, exposure: settings.exposure }),
  grade({
    contrast: settings.contrast,
    saturation: settings.saturation,
    vignette: settings.vignette,
  }),
];
const path = (url.get('path') ?? 'auto') as 'auto' | 'compute' | 'fragment';
const post = createPostProcess(device, {
  width: canvas.width,
  height: canvas.height,
  path,
  effects: effects(),
});
// "before": the same HDR frame through the identity (clipped, sRGB-encoded)
const before = createPostProcess(device, {
  width: canvas.width,
  height: canvas.height,
  path,
  effects: [toneMap({ operator: 'none' })],
});
let beforeImage = device.createTexture({
  label: 'before',
  size: { width: canvas.width, height: canvas.height },
  format: surface.format,
  usage: 0x10 | 0x01,
});

const ps = await createParticleSystem(device, { count: Number(url.get('count') ?? 60_000) });
for (let i = 0; i < 30; i += 10) {
  const encoder = device.createCommandEncoder({ label: 'preroll' });
  for (let k = 0; k < 10; k++) ps.update(encoder, 0.1);
  device.queue.submit([encoder.finish()]);
}

const pane = dockedPane('post-process');
const meter = new FrameMeter(pane);
pane.addBinding(settings, 'split', { min: 0, max: 1, label: 'before | after' });
const b = pane.addFolder({ title: 'bloom' });
b.addBinding(settings, 'bloom', { label: 'on' });
b.addBinding(settings, 'threshold', { min: 0, max: 4 });
b.addBinding(settings, 'knee', { min: 0, max: 1 });
b.addBinding(settings, 'intensity', { min: 0, max: 3 });
b.addBinding(settings, 'radius', { min: 0, max: 1 });
const t = pane.addFolder({ title: 'tone mapping' });
t.addBinding(settings, 'operator', {
  options: { AgX: 'agx', ACES: 'aces', Reinhard: 'reinhard', none: 'none' },
});
t.addBinding(settings, 'exposure', { min: 0, max: 4 });
const g = pane.addFolder({ title: 'grading' });
g.addBinding(settings, 'contrast', { min: 0.5, max: 1.5 });
g.addBinding(settings, 'saturation', { min: 0, max: 2 });
g.addBinding(settings, 'vignette', { min: 0, max: 1 });
pane.addBinding(settings, 'orbit');
pane.on('change', () => {
  try {
    post.setOptions({ effects: effects() });
  } catch (e) {
    info.textContent = `${(e as Error).name}: ${(e as Error).message}`;
  }
});

let last = performance.now();
let yaw = 0;
let frames = 0;
async function frame(): Promise<void> {
  await device.beginFrame();
  const now = performance.now();
  const dt = Math.min(0.05, (now - last) / 1000);
  last = now;
  meter.tick(now);
  if (settings.orbit) yaw += dt * 0.15;
  if (fitCanvas(canvas)) {
    post.resize(canvas.width, canvas.height);
    before.resize(canvas.width, canvas.height);
    beforeImage.destroy();
    beforeImage = device.createTexture({
      label: 'before',
      size: { width: canvas.width, height: canvas.height },
      format: surface.format,
      usage: 0x10 | 0x01,
    });
  }
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, yaw });
  const encoder = device.createCommandEncoder({ label: 'frame' });
  ps.update(encoder, dt);
  ps.prepareDraw(encoder, camera, post.target);
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: post.target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  ps.draw(pass, camera);
  pass.end();
  const out = surface.getCurrentTexture();
  const splitX = Math.round(settings.split * canvas.width);
  if (splitX > 0)
    encoder.copyTextureToTexture(
      { texture: post.target },
      { texture: before.target },
      { width: canvas.width, height: canvas.height },
    );
  post.apply(encoder, out);
  if (splitX > 0) {
    before.apply(encoder, beforeImage);
    encoder.copyTextureToTexture(
      { texture: beforeImage },
      { texture: out },
      { width: splitX, height: canvas.height },
    );
  }
  device.queue.submit([encoder.finish()]);
  frames++;
  info.textContent = `${device.caps.backend} · post ${post.path} (${post.reason}) · particles ${ps.path} · ${ps.count.toLocaleString()} · ${meter.text()}${splitX > 0 ? '\nleft: before (no bloom, no tone curve) | right: after' : ''}`;
  Object.assign(window, { __frames: frames, __post: { path: post.path, format: post.hdrFormat } });
  if (frames < Number(url.get('frames') ?? Infinity)) requestAnimationFrame(() => void frame());
}
void frame();
