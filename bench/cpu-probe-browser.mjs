/* global GPUBufferUsage, performance, crossOriginIsolated -- this code runs in the page (page.evaluate) */
// Where Ignis's CPU time per frame goes in Chrome (issue 12): a draw-only particle frame through
// Ignis, a hand-written WebGPU frame of the same calls with one bind group (raw) and with a 16-slot
// uniform ring like Ignis's (rawRing), and an exact replay of the binding calls one Ignis frame
// made (replayOfIgnis: the cost of Ignis's call pattern without its JavaScript). Controls: Ignis's
// frame without `ps.draw` (ignisNoDraw), the raw frame's draw as a render bundle (rawBundle: a
// draw validated once costs Chrome more per frame than the calls it replaces), and ~6 µs of plain
// JavaScript alone (spinOnly) and before the raw frame (rawSpin): on 2 cores shared with
// SwiftShader's threads, JavaScript between a burst's binding calls costs 2-3.5× its time alone,
// so a frame's CPU time here grows with any JavaScript in it, not only Ignis's. The page is
// cross-origin isolated (5 µs clock steps). Bursts of 50 frames back to back, 50 rounds after 10
// warm-up rounds, medians in µs per frame:
//   node bench/cpu-probe-browser.mjs
import { launchBrowser, startServer, openPage } from '../scripts/browser.mjs';
const { browser } = await launchBrowser();
const { server, url } = await startServer({ crossOriginIsolated: true });
const page = await openPage(browser, `${url}/bench/page/index.html?noop=1`);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const profiling = process.argv.includes('--profile') || process.argv.includes('--heap');
const out = await page.evaluate(async (profiling) => {
  const lib = await import('/src/all.ts');
  const device = await lib.createDevice({ backend: 'webgpu' });
  const gpu = device.gpu;
  const ps = await lib.createParticleSystem(device, {
    count: 1024,
    path: 'compute',
    drawMode: 'instanced',
  });
  const camera = lib.orbitCamera({ aspect: 1 });
  const target = device.createTexture({
    size: { width: 256, height: 256 },
    format: 'rgba8unorm',
    usage: lib.TextureUsage.RENDER_ATTACHMENT,
  });
  const view = target.gpu.createView();
  const module = gpu.createShaderModule({
    code: `
    struct U { c: vec4f, m: mat4x4f };
    @group(0) @binding(0) var<uniform> u: U;
    @vertex fn vs(@builtin(vertex_index) i: u32, @location(0) p: vec4f) -> @builtin(position) vec4f { return u.m * p + u.c * f32(i); }
    @fragment fn fs() -> @location(0) vec4f { return u.c; }`,
  });
  const pipeline = gpu.createRenderPipeline({
    layout: 'auto',
    vertex: {
      module,
      entryPoint: 'vs',
      buffers: [
        {
          arrayStride: 16,
          stepMode: 'instance',
          attributes: [{ format: 'float32x4', offset: 0, shaderLocation: 0 }],
        },
      ],
    },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    primitive: { topology: 'triangle-strip' },
  });
  const vb = gpu.createBuffer({ size: 16 * 1024, usage: GPUBufferUsage.VERTEX });
  const ring = gpu.createBuffer({
    size: 16 * 256,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const groups = Array.from({ length: 16 }, (_, i) =>
    gpu.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: ring, offset: i * 256, size: 80 } }],
    }),
  );
  const data = new Float32Array(20);
  let k = 0;
  const rawFrame = (cycle) => {
    const slot = cycle ? k++ % 16 : 0;
    gpu.queue.writeBuffer(ring, slot * 256, data);
    const enc = gpu.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, groups[slot]);
    pass.setVertexBuffer(0, vb);
    pass.draw(4, 1024);
    pass.end();
    gpu.queue.submit([enc.finish()]);
  };
  const ignisFrame = () => {
    const enc = device.createCommandEncoder();
    ps.prepareDraw(enc, camera, target);
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    ps.draw(pass, camera);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  const ignisNoDraw = () => {
    const enc = device.createCommandEncoder();
    ps.prepareDraw(enc, camera, target);
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  const be = gpu.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
  be.setPipeline(pipeline);
  be.setBindGroup(0, groups[0]);
  be.setVertexBuffer(0, vb);
  be.draw(4, 1024);
  const bundles = [be.finish()];
  const rawBundle = () => {
    gpu.queue.writeBuffer(ring, 0, data);
    const enc = gpu.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    });
    pass.executeBundles(bundles);
    pass.end();
    gpu.queue.submit([enc.finish()]);
  };
  let sink = 0;
  const spin = (k) => {
    let s = 0;
    for (let i = 0; i < k; i++) s += Math.sqrt(i + sink);
    sink = s % 1;
  };
  for (let i = 0; i < 40; i++) ignisFrame();
  // capture one Ignis frame's binding calls, then replay exactly them
  const log = [];
  const saved = [];
  for (const cls of ['GPUDevice', 'GPUQueue', 'GPUCommandEncoder', 'GPURenderPassEncoder']) {
    const proto = window[cls].prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (!d || typeof d.value !== 'function' || name === 'constructor') continue;
      const f = d.value;
      saved.push([proto, name, f]);
      proto[name] = function (...a) {
        const r = f.apply(this, a);
        log.push({ self: this, name, args: a, result: r });
        return r;
      };
    }
  }
  ignisFrame();
  for (const [proto, name, f] of saved) proto[name] = f;
  const replay = () => {
    const map = new Map();
    for (const c of log) {
      const self = map.get(c.self) ?? c.self;
      const args = c.args.map((x) =>
        Array.isArray(x) ? x.map((y) => map.get(y) ?? y) : (map.get(x) ?? x),
      );
      const r = self[c.name](...args);
      if (r && typeof r === 'object') map.set(c.result, r);
    }
  };
  const variants = {
    raw: () => rawFrame(false),
    rawRing: () => rawFrame(true),
    ignis: ignisFrame,
    replayOfIgnis: replay,
    ignisNoDraw,
    rawBundle,
    spinOnly: () => spin(2000),
    rawSpin: () => {
      spin(2000);
      rawFrame(false);
    },
  };
  if (profiling) {
    // the profile is taken from Node around window.run(variant, frames)
    window.run = async (name, n) => {
      for (let r = 0; r < n / 50; r++) {
        for (let i = 0; i < 50; i++) variants[name]();
        await gpu.queue.onSubmittedWorkDone();
      }
    };
    for (const name of Object.keys(variants)) await window.run(name, 1000); // JIT warm-up
    return null;
  }
  const res = {
    raw: [],
    rawRing: [],
    ignis: [],
    replayOfIgnis: [],
    ignisNoDraw: [],
    rawBundle: [],
    spinOnly: [],
    rawSpin: [],
  };
  for (let r = 0; r < 60; r++) {
    for (const [name, f] of Object.entries(variants)) {
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) f();
      const ms = (performance.now() - t0) / 50;
      await gpu.queue.onSubmittedWorkDone();
      if (r >= 10) res[name].push(ms * 1000);
    }
  }
  const med = (v) => v.sort((a, b) => a - b)[v.length >> 1].toFixed(1);
  return {
    crossOriginIsolated,
    calls: log.map((c) => c.name).join(','),
    ...Object.fromEntries(Object.entries(res).map(([k, v]) => [k, med(v)])),
  };
}, profiling);
if (profiling) await profile(page);
else console.log(out);
await browser.close();
await server.close();

/** Self time (or, with --heap, bytes allocated) per function, per frame, for each variant asked for. */
async function profile(page) {
  const frames = Number(arg('frames', '10000'));
  const top = Number(arg('top', '30'));
  const heap = process.argv.includes('--heap');
  const which = process.argv[process.argv.indexOf(heap ? '--heap' : '--profile') + 1];
  const names = (which && !which.startsWith('--') ? which : 'ignis,raw').split(',');
  const cdp = await page.target().createCDPSession();
  const where = (f) =>
    `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`;
  const table = (totals, unit) => {
    for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${(v / frames).toFixed(unit === 'B' ? 0 : 2).padStart(8)} ${unit}  ${k}`);
  };
  for (const name of names) {
    const totals = new Map();
    const add = (k, v) => totals.set(k, (totals.get(k) ?? 0) + v);
    if (heap) {
      await cdp.send('HeapProfiler.enable');
      await cdp.send('HeapProfiler.startSampling', {
        samplingInterval: 64,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      await page.evaluate((v, n) => window.run(v, n), name, frames);
      const { profile: p } = await cdp.send('HeapProfiler.stopSampling');
      const walk = (n) => {
        add(where(n.callFrame), n.selfSize);
        n.children.forEach(walk);
      };
      walk(p.head);
      const bytes = [...totals.values()].reduce((a, b) => a + b, 0);
      console.log(`== ${name}: ${(bytes / frames).toFixed(0)} bytes allocated per frame`);
      table(totals, 'B');
    } else {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 20 });
      await cdp.send('Profiler.start');
      await page.evaluate((v, n) => window.run(v, n), name, frames);
      const { profile: p } = await cdp.send('Profiler.stop');
      const nodes = new Map(p.nodes.map((n) => [n.id, n]));
      p.samples.forEach((id, i) => add(where(nodes.get(id).callFrame), p.timeDeltas[i] ?? 0));
      let busy = 0;
      for (const [k, v] of totals) if (!/^\((idle|program)\)/.test(k)) busy += v;
      console.log(
        `== ${name}: ${(busy / frames).toFixed(1)} µs of JavaScript and binding calls per frame`,
      );
      table(totals, 'µs');
    }
  }
}
