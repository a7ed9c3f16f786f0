/* global GPUBufferUsage, performance -- page code runs in page.evaluate */
// Where a draw-only particle frame's CPU time goes in Chrome (issue 12): a CPU profile (Chrome's
// sampling profiler over CDP) of 10,000 Ignis frames and of 10,000 hand-written frames of the same
// calls, self time per function in µs per frame; with HEAP=1, a heap-allocation profile instead
// (bytes allocated per frame, per function). Run with nothing else on the machine:
//   node bench/cpu-profile-browser.mjs [ignis,raw] [frames]
//   HEAP=1 node bench/cpu-profile-browser.mjs ignis
import { launchBrowser, startServer, openPage } from '../scripts/browser.mjs';
const { browser } = await launchBrowser();
const { server, url } = await startServer();
const page = await openPage(browser, `${url}/bench/page/index.html?noop=1`);
const N = +(process.argv[3] ?? 10000);
await page.evaluate(async () => {
  const lib = await import('/src/all.ts');
  const device = await lib.createDevice({ backend: 'webgpu' });
  const ps = await lib.createParticleSystem(device, {
    count: 1024,
    path: 'compute',
    drawMode: 'pulled',
  });
  const camera = lib.orbitCamera({ aspect: 1 });
  const target = device.createTexture({
    size: { width: 256, height: 256 },
    format: 'rgba8unorm',
    usage: lib.TextureUsage.RENDER_ATTACHMENT,
  });
  const gpu = device.gpu;
  const view = target.gpu.createView();
  const module = gpu.createShaderModule({
    code: `struct U { c: vec4f, m: mat4x4f }; @group(0) @binding(0) var<uniform> u: U; @vertex fn vs(@builtin(vertex_index) i: u32, @location(0) p: vec4f) -> @builtin(position) vec4f { return u.m * p + u.c * f32(i); } @fragment fn fs() -> @location(0) vec4f { return u.c; }`,
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
  window.raw = () => {
    const slot = k++ % 16;
    gpu.queue.writeBuffer(ring, slot * 256, data);
    const enc = gpu.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, groups[slot]);
    pass.setVertexBuffer(0, vb);
    pass.draw(4, 1);
    pass.end();
    gpu.queue.submit([enc.finish()]);
  };
  window.ignis = () => {
    const enc = device.createCommandEncoder();
    ps.prepareDraw(enc, camera, target);
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    ps.draw(pass, camera);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  window.run = async (n, f) => {
    let t = 0;
    for (let r = 0; r < n / 50; r++) {
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) f();
      t += performance.now() - t0;
      await device.queue.onSubmittedWorkDone();
    }
    return (t / n) * 1000;
  };
  await window.run(2000, window.ignis);
  await window.run(2000, window.raw);
});
const cdp = await page.target().createCDPSession();
await cdp.send('Profiler.enable');
if (process.env.HEAP) {
  await cdp.send('HeapProfiler.enable');
  for (const variant of (process.argv[2] ?? 'ignis,raw').split(',')) {
    await cdp.send('HeapProfiler.startSampling', {
      samplingInterval: 64,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await page.evaluate((v, n) => window.run(n, window[v]), variant, N);
    const { profile } = await cdp.send('HeapProfiler.stopSampling');
    const self = new Map();
    let total = 0;
    const walk = (n) => {
      const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
      self.set(k, (self.get(k) ?? 0) + n.selfSize);
      total += n.selfSize;
      n.children.forEach(walk);
    };
    walk(profile.head);
    console.log('==', variant, 'sampled bytes/frame', (total / N).toFixed(0));
    for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
      console.log((t / N).toFixed(0).padStart(7), k);
  }
  process.exit(0);
}
await cdp.send('Profiler.setSamplingInterval', { interval: 20 });
for (const variant of (process.argv[2] ?? 'ignis,raw').split(',')) {
  await cdp.send('Profiler.start');
  const us = await page.evaluate((v, n) => window.run(n, window[v]), variant, N);
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  const counts = new Map();
  profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
  let busy = 0;
  for (const [id, t] of counts) {
    const n = byId.get(id);
    const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + t);
    if (k.startsWith('(idle)') || k.startsWith('(program)')) continue;
    busy += t;
  }
  console.log(
    '==',
    variant,
    'loop µs/frame',
    us.toFixed(1),
    'JS+binding µs/frame (no idle/program)',
    (busy / N).toFixed(1),
  );
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, +(process.env.TOP ?? 30)))
    console.log((t / N).toFixed(2).padStart(7), k);
}
await browser.close();
await server.close();
