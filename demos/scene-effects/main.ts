// Effects that meet the scene, together (demos/scene-effects/scene.ts): a torus turning above
// rolling terrain sheds sparks and lit mesh shards, born on its moving surface, carried by a
// curl-noise wind (a vector field) and landing on the terrain (a heightfield collider) — on every
// path. ?backend=webgl2 the fallback, ?path=cpu the CPU path, ?frames=N stops after N frames,
// ?panel=closed folds the controls.
import { TextureUsage, type Texture } from '../../src/index.js';
import type { ParticlePath } from '../../src/particles/index.js';
import { FrameMeter, dockedPane, fitCanvas, openDemo } from '../shared/ui.js';
import { createSceneEffects } from './scene.js';

const { url, canvas, info, device } = await openDemo();
const surface = device.surface!;
const scene = await createSceneEffects(device, {
  format: surface.format,
  path: (url.get('path') ?? 'auto') as 'auto' | ParticlePath,
});
const settings = { speed: 1 };
const pane = dockedPane('scene effects');
const meter = new FrameMeter(pane);
pane.addBinding(settings, 'speed', { min: 0, max: 2, label: 'time scale' });

/** The depth the terrain and the shards write and the sparks test (made again when the canvas resizes). */
let depth: Texture | null = null;
function depthFor(target: { width: number; height: number }): Texture {
  if (depth?.width !== target.width || depth.height !== target.height) {
    depth?.destroy();
    depth = device.createTexture({
      label: 'scene effects depth',
      size: { width: target.width, height: target.height },
      format: 'depth24plus',
      usage: TextureUsage.RENDER_ATTACHMENT,
    });
  }
  return depth;
}

const frames = Number(url.get('frames') ?? Infinity);
let frame = 0;
let last = performance.now();
(window as unknown as { __frames: number }).__frames = 0;
function tick(now: number): void {
  const dt = Math.min(0.05, Math.max(0, now - last) / 1000) * settings.speed;
  last = now;
  fitCanvas(canvas);
  const camera = scene.camera(canvas.width / canvas.height);
  const encoder = device.createCommandEncoder({ label: 'scene effects frame' });
  scene.update(encoder, dt);
  const target = surface.getCurrentTexture();
  scene.prepare(encoder, camera, target);
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0.02, 0.02, 0.03, 1] }],
    depthStencilAttachment: {
      texture: depthFor(target),
      depthLoadOp: 'clear',
      depthClearValue: 1,
      depthStoreOp: 'discard',
    },
  });
  scene.draw(pass, camera);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick(now);
  frame++;
  (window as unknown as { __frames: number }).__frames = frame;
  if (frame % 30 === 0)
    void Promise.all([scene.sparks.stats(), scene.shards.stats()]).then(([a, b]) => {
      info.textContent = `${device.caps.backend} · ${scene.sparks.path} · ${a.alive} sparks · ${b.alive} shards (${scene.shards.drawMode})`;
    });
  if (frame < frames) requestAnimationFrame(tick);
}
info.textContent = `${device.caps.backend} · ${scene.sparks.path}`;
requestAnimationFrame(tick);
