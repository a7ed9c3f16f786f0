// The effect editor: an effect file (effects/*.json, ?effect=name; a file you load; or the URL's
// #effect=… that the editor keeps up to date, so a link shares it) running on the canvas, and
// beside it every system and module with a control per parameter (panel.ts, from the schema).
// Each change is checked and loaded (loadEffect) before it replaces the running effect — a
// refused value is shown with its JSON pointer and nothing else changes — and goes on the undo
// history. Backend (?backend=webgpu|webgl2, a reload that keeps the effect), path and draw mode
// switch live; frame time and the living count are shown. ?frames=N stops after N frames of
// 1/60 s after each load (the tests' still pictures); window.__editor is the tests' handle.
import { TextureUsage } from '../../src/index.js';
import { orbitCamera } from '../../src/particles/index.js';
import {
  EffectError,
  loadEffect,
  stringifyEffect,
  type Effect,
  type EffectFile,
} from '../../src/effects/index.js';
import { FrameMeter, dockedPane, element, fitCanvas, openDemo } from '../shared/ui.js';
import { copy, docOfHash, download, hashOf, setAt } from './document.js';
import { buildSystems } from './panel.js';

const SHIPPED = import.meta.glob<string>('../../effects/*.json', {
  query: '?url',
  import: 'default',
  eager: true,
});
const shippedUrl = (name: string): string | undefined =>
  Object.entries(SHIPPED).find(([f]) => f.endsWith(`/${name}.json`))?.[1];
/** Textures of a file from a link or from disk are looked for beside the shipped effects. */
const TEXTURES_BASE = new URL('./', new URL(Object.values(SHIPPED)[0]!, location.href));

const { url, canvas, info, device } = await openDemo();
const problem = element('problem');
const surface = device.surface!;
const stopAfter = Number(url.get('frames') ?? Infinity);

const settings = {
  backend: device.caps.backend,
  path: (url.get('path') ?? 'auto') as 'auto' | 'compute' | 'pingpong' | 'cpu',
  drawMode: (url.get('draw') ?? 'auto') as 'auto' | 'instanced' | 'pulled' | 'splat',
  living: '…',
};

let doc: EffectFile;
let effect: Effect | null = null;
let framesSinceLoad = 0;
/** The frame loop stopped (?frames=N reached): a load starts it again. */
let frameWaiting = false;
const history: EffectFile[] = [];

/** Loads `next` as the running effect; the old one stays when it is refused (the problem shown). */
async function apply(next: unknown, why: string, remember = true): Promise<string | null> {
  let loaded: Effect;
  try {
    loaded = await loadEffect(device, next, {
      baseUrl: TEXTURES_BASE,
      path: settings.path,
      drawMode: settings.drawMode,
    });
  } catch (e) {
    const message =
      e instanceof EffectError ? e.message : `${(e as Error).name}: ${(e as Error).message}`;
    problem.textContent = `${why}: refused — ${message}`;
    rebuild();
    return message;
  }
  problem.textContent = '';
  if (effect && remember) history.push(doc);
  effect?.destroy();
  effect = loaded;
  doc = copy(loaded.toJSON());
  framesSinceLoad = 0;
  history.length = Math.min(history.length, 200);
  window.history.replaceState(null, '', `${location.pathname}${location.search}${hashOf(doc)}`);
  rebuild();
  if (frameWaiting) requestAnimationFrame(() => void frame());
  frameWaiting = false;
  return null;
}

const edit = (pointer: string, value: unknown, label: string): Promise<string | null> =>
  apply(setAt(doc, pointer, value), label);

async function undo(): Promise<void> {
  const previous = history.pop();
  if (previous) await apply(previous, 'undo', false);
}

// the panel: fixed controls, then the systems (rebuilt after every change)
const pane = dockedPane('effect');
const top = pane.addFolder({ title: 'effect' });
top
  .addBinding(settings, 'backend', { options: { WebGPU: 'webgpu', WebGL2: 'webgl2' } })
  .on('change', (ev) => {
    // a device is made once per page: the same effect on the other backend is a reload
    const search = new URLSearchParams(location.search);
    search.set('backend', ev.value);
    location.href = `${location.pathname}?${search}${hashOf(doc)}`;
  });
top
  .addBinding(settings, 'path', {
    options: { auto: 'auto', compute: 'compute', 'fragment ping-pong': 'pingpong', CPU: 'cpu' },
  })
  .on('change', () => void apply(doc, 'path', false));
top
  .addBinding(settings, 'drawMode', {
    options: { auto: 'auto', instanced: 'instanced', pulled: 'pulled', splat: 'splat' },
    label: 'draw',
  })
  .on('change', () => void apply(doc, 'draw mode', false));
top.addBinding(settings, 'living', { readonly: true, label: 'alive' });
const meter = new FrameMeter(pane);
const file = top.addFolder({ title: 'file', expanded: true });
file.addButton({ title: 'undo' }).on('click', () => void undo());
file.addButton({ title: 'save…' }).on('click', () => download(doc));
file.addButton({ title: 'load…' }).on('click', () => element<HTMLInputElement>('file').click());
file
  .addButton({ title: 'add texture…' })
  .on('click', () => element<HTMLInputElement>('image').click());
file
  .addButton({ title: 'copy link' })
  .on('click', () => void navigator.clipboard?.writeText(location.href));
const shippedNames = Object.keys(SHIPPED).map((f) => f.replace(/^.*\/|\.json$/g, ''));
const choice = { open: url.get('effect') ?? 'fireworks' };
file
  .addBinding(choice, 'open', { options: Object.fromEntries(shippedNames.map((n) => [n, n])) })
  .on('change', (ev) => void openShipped(ev.value));
element<HTMLInputElement>('file').addEventListener('change', async (ev) => {
  const chosen = (ev.target as HTMLInputElement).files?.[0];
  if (chosen) await apply(await chosen.text(), `load ${chosen.name}`);
});
// a PNG from disk becomes one of the file's textures, inline (a data: URL), for sprites and ribbons
element<HTMLInputElement>('image').addEventListener('change', async (ev) => {
  const chosen = (ev.target as HTMLInputElement).files?.[0];
  if (chosen) await addTexture(chosen.name, new Uint8Array(await chosen.arrayBuffer()));
});

/** Adds a PNG to the file's textures under a name made from `fileName`. */
function addTexture(fileName: string, png: Uint8Array): Promise<string | null> {
  let text = '';
  for (const b of png) text += String.fromCharCode(b);
  const stem = fileName
    .replace(/\.png$/i, '')
    .replace(/[^\w-]+/g, '_')
    .replace(/^[^A-Za-z_]/, '_$&');
  let name = stem || 'texture';
  for (let n = 2; doc.textures?.[name]; n++) name = `${stem}${n}`;
  return edit(
    '/textures',
    { ...(doc.textures ?? {}), [name]: { url: `data:image/png;base64,${btoa(text)}` } },
    `add texture ${name}`,
  );
}

addEventListener('keydown', (ev) => {
  if ((ev.ctrlKey || ev.metaKey) && ev.key === 'z') void undo();
});

let systemFolders: { dispose(): void }[] = [];
function rebuild(): void {
  for (const f of systemFolders) f.dispose();
  systemFolders = buildSystems(pane, doc, { edit: (p, v, l) => void edit(p, v, l) });
}

async function openShipped(name: string): Promise<void> {
  const at = shippedUrl(name);
  if (!at) {
    problem.textContent = `no effect ${name} (${shippedNames.join(', ')})`;
    return;
  }
  await apply(await (await fetch(at)).text(), `open ${name}`);
}

// the first effect: the URL's, else ?effect=, else the fireworks
const fromHash = (() => {
  try {
    return docOfHash(location.hash);
  } catch {
    return null;
  }
})();
doc = { version: 1, systems: [] } as unknown as EffectFile;
if (fromHash) await apply(fromHash, 'the link');
else await openShipped(choice.open);

let frames = 0;
async function frame(): Promise<void> {
  if (!effect) return;
  fitCanvas(canvas);
  const camera = orbitCamera({ aspect: canvas.width / canvas.height, ...effect.camera });
  const encoder = device.createCommandEncoder();
  effect.update(encoder, 1 / 60);
  const target = surface.getCurrentTexture();
  effect.prepareDraw(encoder, camera, target);
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  effect.draw(pass, camera);
  pass.end();
  device.queue.submit([encoder.finish()]);
  meter.tick();
  frames++;
  framesSinceLoad++;
  if (frames % 30 === 1) {
    const shown = effect;
    void Promise.all(shown.systems.map((s) => s.livingCount())).then((n) => {
      if (shown === effect) settings.living = n.map((x) => x.toLocaleString()).join(' + ');
      pane.refresh();
    });
  }
  info.textContent = `${effect.name} · ${device.caps.backend} · ${effect.systems
    .map((s) => `${s.path} ${s.drawMode}`)
    .join(', ')} · ${meter.text()}`;
  Object.assign(window, { __frames: frames });
  if (framesSinceLoad < stopAfter) requestAnimationFrame(() => void frame());
  else frameWaiting = true;
}
requestAnimationFrame(() => void frame());

/** The running effect drawn (no step) into a 128² image from its camera: its texels (tests compare them). */
async function pixels(): Promise<number[]> {
  const e = effect!;
  const size = 128;
  const target = device.createTexture({
    label: 'editor picture',
    size: { width: size, height: size },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const camera = orbitCamera({ aspect: 1, ...e.camera });
  const encoder = device.createCommandEncoder();
  e.prepareDraw(encoder, camera, target);
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  e.draw(pass, camera);
  pass.end();
  device.queue.submit([encoder.finish()]);
  const data = Array.from((await target.read()) as Uint8Array);
  target.destroy();
  return data;
}

Object.assign(window, {
  __editor: {
    /** Frames run since the last load (a still picture with ?frames=N once it reaches N). */
    framesSinceLoad: () => framesSinceLoad,
    doc: () => copy(doc),
    edit,
    undo,
    save: () => stringifyEffect(doc),
    load: (text: string) => apply(text, 'load'),
    addTexture: (fileName: string, png: number[]) => addTexture(fileName, Uint8Array.from(png)),
    link: () => location.href,
    problem: () => problem.textContent,
    pixels,
  },
});
