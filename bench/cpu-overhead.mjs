/* global performance -- Node has it as a global */
// Ignis's own JavaScript per frame, without a GPU (issue 12): the WebGPU backend over a stub
// GPUDevice whose every call returns at once, so what is timed is Ignis's recording, validation,
// hazard tracking, bind-group lookup and submit, and nothing of a browser's or a driver's. The same
// frame written by hand against the same stub is the floor (what any caller pays to make the
// calls). Deterministic where browser timings are not: on 2 cores a software GPU's threads share
// the CPU with the page. Needs `npm run build` (it imports dist/):
//   node bench/cpu-overhead.mjs [--frames 20000] [--rounds 15] [--mode pulled|instanced]
import { ROOT } from '../scripts/setup.mjs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { stub, stubGpuDevice } from './stub-gpu.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const FRAMES = Number(arg('frames', '20000'));
const ROUNDS = Number(arg('rounds', '15'));
const MODE = arg('mode', 'pulled');

const entries = ['index', 'particles', 'testing'];
const lib = Object.assign(
  {},
  ...(await Promise.all(
    entries.map((e) => import(pathToFileURL(join(ROOT, `dist/${e}.js`)).href)),
  )),
);
// WebGPU's default-tier limits, as the null backend has them
const limits = new lib.NullDevice().caps.limits;
const gpuDevice = stubGpuDevice(limits);

const device = await lib.createDevice({ backend: 'webgpu', gpuDevice });
const ps = await lib.createParticleSystem(device, { count: 1024, path: 'compute', drawMode: MODE });
const camera = lib.orbitCamera({ aspect: 1 });
const target = device.createTexture({
  size: { width: 256, height: 256 },
  format: 'rgba8unorm',
  usage: lib.TextureUsage.RENDER_ATTACHMENT,
});

function ignisFrame() {
  const enc = device.createCommandEncoder();
  ps.prepareDraw(enc, camera, target);
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  ps.draw(pass, camera);
  pass.end();
  device.queue.submit([enc.finish()]);
}

// the hand-written frame: the calls Ignis's frame makes, with the uniform data packed the same way
const gpu = gpuDevice;
const ring = gpu.createBuffer({ size: 16 * 256 });
const groups = Array.from({ length: 16 }, () => gpu.createBindGroup({}));
const pipeline = gpu.createRenderPipeline({});
const vb = gpu.createBuffer({ size: 16 * 1024 });
const view = stub();
const data = new Float32Array(64);
let k = 0;
function rawFrame() {
  const slot = k++ % 16;
  const v = camera.view;
  const p = camera.projection;
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let sum = 0;
      for (let i = 0; i < 4; i++) sum += p[4 * i + r] * v[4 * c + i];
      data[4 * c + r] = sum;
    }
  gpu.queue.writeBuffer(ring, slot * 256, data);
  const enc = gpu.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, groups[slot]);
  pass.setVertexBuffer(0, vb);
  pass.draw(6, 1024);
  pass.end();
  gpu.queue.submit([enc.finish()]);
}

const variants = { ignis: ignisFrame, raw: rawFrame };
const res = { ignis: [], raw: [] };
for (let r = 0; r < ROUNDS + 3; r++)
  for (const [name, frame] of Object.entries(variants)) {
    const t0 = performance.now();
    for (let i = 0; i < FRAMES; i++) frame();
    const us = ((performance.now() - t0) / FRAMES) * 1000;
    if (r >= 3) res[name].push(us);
  }
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const ignis = median(res.ignis);
const raw = median(res.raw);
// each round times both back to back, so the machine's drift between rounds cancels in its ratio
const ratio = median(res.ignis.map((us, r) => us / res.raw[r]));
console.log(
  `${MODE} draw-only frame on a stub GPU (µs per frame, median of ${ROUNDS} rounds of ${FRAMES}): ` +
    `Ignis ${ignis.toFixed(2)}, hand-written ${raw.toFixed(2)}; Ignis's own JavaScript ${(ignis - raw).toFixed(2)} µs per frame; ` +
    `Ignis ÷ hand-written ${ratio.toFixed(2)}× (median of the rounds' ratios)`,
);
