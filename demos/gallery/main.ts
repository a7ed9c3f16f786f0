// The effect gallery: every shipped effect file (effects/*.json) with its picture
// (effects/thumbnails/<name>.png, made by `npm run thumbnails`), name and description, each a
// link that opens it in the effect editor. The picture under the pointer comes alive: the effect
// loaded (loadEffect) and run on one canvas laid over it, on one device for the page
// (?backend=webgpu|webgl2).
import { createDevice, type BackendRequest, type Device } from '../../src/index.js';
import { orbitCamera } from '../../src/particles/index.js';
import { loadEffect, type Effect, type EffectFile } from '../../src/effects/index.js';

const files = import.meta.glob<EffectFile>('../../effects/*.json', {
  eager: true,
  import: 'default',
});
const pictures = import.meta.glob<string>('../../effects/thumbnails/*.png', {
  eager: true,
  query: '?url',
  import: 'default',
});
const urls = import.meta.glob<string>('../../effects/*.json', {
  eager: true,
  query: '?url',
  import: 'default',
});
const list = document.getElementById('list') as HTMLElement;
for (const [file, effect] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
  const name = file.replace(/^.*\/|\.json$/g, '');
  const item = document.createElement('a');
  item.className = 'effect';
  item.href = `../editor/?effect=${name}`;
  item.dataset['effect'] = name;
  const img = document.createElement('img');
  img.src = pictures[`../../effects/thumbnails/${name}.png`] ?? '';
  img.alt = `${effect.name ?? name}: a frame of the effect`;
  const title = document.createElement('strong');
  title.textContent = effect.name ?? name;
  const line = document.createElement('span');
  line.textContent = `${effect.description ?? ''} (${effect.systems.length} system${effect.systems.length > 1 ? 's' : ''})`;
  item.append(img, title, line);
  list.append(item);
  item.addEventListener('mouseenter', () => void play(name, img, urls[file]!));
  item.addEventListener('mouseleave', stop);
}
Object.assign(window, { __gallery: Object.keys(files).length });

// the live picture: one canvas and one device, moved to the picture under the pointer
const canvas = document.createElement('canvas');
canvas.className = 'live';
canvas.hidden = true;
document.body.append(canvas);
let device: Promise<Device> | null = null;
let running: Effect | null = null;
let wanted = '';
const live = { effect: '', frames: 0, error: '' };
Object.assign(window, { __live: live });

async function play(name: string, img: HTMLImageElement, url: string): Promise<void> {
  wanted = name;
  const box = img.getBoundingClientRect();
  Object.assign(canvas.style, {
    left: `${box.left + scrollX}px`,
    top: `${box.top + scrollY}px`,
    width: `${box.width}px`,
    height: `${box.height}px`,
  });
  canvas.width = Math.round(box.width * devicePixelRatio);
  canvas.height = Math.round(box.height * devicePixelRatio);
  const backend = (new URLSearchParams(location.search).get('backend') ?? 'auto') as BackendRequest;
  device ??= createDevice({ backend, canvas });
  const d = await device;
  let effect: Effect;
  try {
    effect = await loadEffect(d, url);
  } catch (e) {
    live.error = (e as Error).message;
    return;
  }
  if (wanted !== name) {
    effect.destroy();
    return;
  }
  running?.destroy();
  running = effect;
  Object.assign(live, { effect: name, frames: 0 });
  canvas.hidden = false;
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, ...effect.camera });
  const frame = (): void => {
    if (running !== effect) return;
    const encoder = d.createCommandEncoder();
    effect.update(encoder, 1 / 60);
    const target = d.surface!.getCurrentTexture();
    effect.prepareDraw(encoder, camera, target);
    const pass = encoder.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    effect.draw(pass, camera);
    pass.end();
    d.queue.submit([encoder.finish()]);
    live.frames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

function stop(): void {
  wanted = '';
  running?.destroy();
  running = null;
  live.effect = '';
  canvas.hidden = true;
}
