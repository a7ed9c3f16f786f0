// Many objects, each with its own 32 bytes of uniforms in a 256-byte slice of one buffer, written
// once a frame. The draws are recorded in the pass every frame (`?mode=pass`), or once in a render
// bundle that each frame's pass executes (`?mode=bundle`, the default): the panel shows what
// recording and submitting a frame costs the CPU either way. `?count=N` objects (5,000 by default);
// `?frames=K` draws K frames at fixed steps and stops (the tests compare the two modes' images).
import { BufferUsage, type RenderBundle, type RenderPass } from '../../src/index.js';
import { dockedPane, FrameMeter, fitCanvas, openDemo } from '../shared/ui.js';
import wgsl from './objects.wgsl?raw';
import vertGlsl from './objects.vert.glsl?raw';
import fragGlsl from './objects.frag.glsl?raw';

const MAX = 20_000;
const SLICE = 256;
const { url, canvas, info, device } = await openDemo();
const surface = device.surface!;
const targets = [{ format: surface.format }];
const pipeline =
  device.caps.shaderLanguage === 'glsl'
    ? device.createRenderPipeline({
        label: 'objects',
        vertex: { module: device.createShaderModule({ code: vertGlsl, stage: 'vertex' }) },
        fragment: {
          module: device.createShaderModule({ code: fragGlsl, stage: 'fragment' }),
          targets,
        },
        bindings: [{ binding: 0, type: 'uniform', name: 'Object' }],
      })
    : (() => {
        const module = device.createShaderModule({ label: 'objects.wgsl', code: wgsl });
        return device.createRenderPipeline({
          label: 'objects',
          vertex: { module, entryPoint: 'vs' },
          fragment: { module, entryPoint: 'fs', targets },
        });
      })();
const objects = device.createBuffer({
  label: 'objects',
  size: SLICE * MAX,
  usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
});

const settings = {
  count: Math.min(MAX, Math.max(1, Number(url.get('count') ?? 5000))),
  mode: url.get('mode') === 'pass' ? 'pass' : 'bundle',
};
const limit = url.get('frames') === null ? Infinity : Number(url.get('frames'));

/** The draws, into a pass every frame or into a bundle once. */
function record(r: Pick<RenderPass, 'setPipeline' | 'setUniformBuffer' | 'draw'>, n: number) {
  r.setPipeline(pipeline);
  for (let i = 0; i < n; i++) {
    r.setUniformBuffer(0, objects, SLICE * i, 32);
    r.draw(6);
  }
}
let bundle: { count: number; bundle: RenderBundle } | null = null;
function bundleOf(n: number): RenderBundle {
  if (bundle?.count !== n) {
    const encoder = device.createRenderBundleEncoder({
      label: `${n} objects`,
      colorFormats: [surface.format],
    });
    record(encoder, n);
    bundle = { count: n, bundle: encoder.finish() };
  }
  return bundle.bundle;
}

/** Object i at time t: on a rosette around the centre, in a colour of its own. */
const data = new Float32Array((SLICE / 4) * MAX);
function place(n: number, t: number): void {
  const aspect = canvas.height / canvas.width;
  for (let i = 0; i < n; i++) {
    const o = (SLICE / 4) * i;
    const k = i / n;
    const a = 2 * Math.PI * k * 7 + t * (0.2 + 0.3 * k);
    const r = 0.15 + 0.8 * k * (0.75 + 0.25 * Math.sin(5 * a + t));
    data[o] = r * Math.cos(a) * aspect;
    data[o + 1] = r * Math.sin(a);
    data[o + 2] = 0.012 + 0.01 * Math.sin(i);
    data[o + 3] = aspect;
    data[o + 4] = 0.5 + 0.5 * Math.cos(6.28 * k);
    data[o + 5] = 0.5 + 0.5 * Math.cos(6.28 * (k + 0.33));
    data[o + 6] = 0.5 + 0.5 * Math.cos(6.28 * (k + 0.67));
    data[o + 7] = 1;
  }
}

const pane = dockedPane('many objects');
pane.addBinding(settings, 'count', { min: 100, max: MAX, step: 100 });
pane.addBinding(settings, 'mode', {
  options: { 'render bundle': 'bundle', 'pass, every frame': 'pass' },
});
/** Recording and submitting a frame, µs (smoothed), per mode. */
const cpu = { pass: 0, bundle: 0 };
const folder = pane.addFolder({ title: 'record + submit, CPU µs' });
folder.addBinding(cpu, 'pass', { readonly: true, format: (v: number) => v.toFixed(0) });
folder.addBinding(cpu, 'bundle', { readonly: true, format: (v: number) => v.toFixed(0) });
const meter = new FrameMeter(pane);

let frames = 0;
async function frame(): Promise<void> {
  fitCanvas(canvas);
  await device.beginFrame();
  const n = settings.count;
  place(n, limit === Infinity ? performance.now() / 1000 : frames / 60);
  device.queue.writeBuffer(objects, 0, data, 0, (SLICE / 4) * n);
  const mode = settings.mode as 'pass' | 'bundle';
  const drawn = mode === 'bundle' ? bundleOf(n) : null; // (recorded outside the clock)
  const t0 = performance.now();
  const encoder = device.createCommandEncoder({ label: 'frame' });
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0.03, 0.03, 0.05, 1] },
    ],
  });
  if (drawn) pass.executeBundles([drawn]);
  else record(pass, n);
  pass.end();
  device.queue.submit([encoder.finish()]);
  const us = (performance.now() - t0) * 1000;
  cpu[mode] = cpu[mode] === 0 ? us : cpu[mode] + 0.1 * (us - cpu[mode]);
  pane.refresh();
  meter.tick();
  info.textContent = `${device.caps.backend} · ${n.toLocaleString('en-US')} objects · ${mode === 'bundle' ? 'render bundle' : 'pass'}: ${cpu[mode].toFixed(0)} µs to record and submit · ${meter.text()}`;
  frames++;
  Object.assign(window, { __frames: frames, __cpu: cpu });
  if (frames < limit) requestAnimationFrame(() => void frame());
  else await device.queue.onSubmittedWorkDone();
}
await frame();
