/* global performance -- Node has it as a global */
// The RHI's own JavaScript per draw (issue 33), without a GPU: the WebGPU backend over a stub
// GPUDevice whose every call returns at once (bench/cpu-overhead.mjs has the stub), so what is
// timed is Ignis's recording, validation, hazard tracking and bind-group lookups per draw and
// nothing of a browser's or a driver's. A frame: N draws, each with its own 256-byte slice of one
// uniform buffer (written once per frame), the pipeline changing every 100 draws. The hand-written
// frame makes the calls a careful WebGPU program makes: one bind group with a dynamic offset per
// draw. `--backend webgl2`: the WebGL2 backend over a no-op WebGL2 context (bench/stub-gl.mjs),
// Ignis's recording and its replay at submit against a hand-written frame of `bindBufferRange` and
// `drawArrays` per draw. Needs `npm run build` (it imports dist/):
//   node bench/cpu-draws.mjs [--backend webgpu|webgl2] [--draws 100,1000,10000] [--rounds 9]
import { ROOT } from '../scripts/setup.mjs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { stub, stubGpuDevice } from './stub-gpu.mjs';
import { stubGl } from './stub-gl.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const COUNTS = arg('draws', '100,1000,10000').split(',').map(Number);
const ROUNDS = Number(arg('rounds', '9'));
const BACKEND = arg('backend', 'webgpu');
if (BACKEND !== 'webgpu' && BACKEND !== 'webgl2')
  throw new Error(`cpu-draws: --backend ${BACKEND} is not webgpu or webgl2`);

const lib = Object.assign(
  {},
  ...(await Promise.all(
    ['index', 'testing'].map((e) => import(pathToFileURL(join(ROOT, `dist/${e}.js`)).href)),
  )),
);
const limits = new lib.NullDevice().caps.limits;
const gpuDevice = stubGpuDevice(limits);

const gl = stubGl();
const device =
  BACKEND === 'webgpu'
    ? await lib.createDevice({ backend: 'webgpu', gpuDevice })
    : new lib.WebGL2Device(gl, null, {});
const MAX = Math.max(...COUNTS);
const uniforms = device.createBuffer({
  label: 'per-draw uniforms',
  size: 256 * MAX,
  usage: lib.BufferUsage.UNIFORM | lib.BufferUsage.COPY_DST,
});
const data = new Float32Array(64 * MAX);
const target = device.createTexture({
  size: { width: 256, height: 256 },
  format: 'rgba8unorm',
  usage: lib.TextureUsage.RENDER_ATTACHMENT,
});
const WGSL = (tint) => `struct Draw { offset: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> d: Draw;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(d.offset.xy + vec2f(f32(i & 1u), f32(i >> 1u)) * 0.01, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return d.color * ${tint}; }`;
const GLSL_VS = `#version 300 es
layout(std140) uniform Draw { vec4 offset; vec4 color; };
void main() { gl_Position = vec4(offset.xy, 0.0, 1.0); }`;
const GLSL_FS = (tint) => `#version 300 es
precision highp float;
layout(std140) uniform Draw { vec4 offset; vec4 color; };
out vec4 outColor;
void main() { outColor = color * ${tint}; }`;
const pipelines = [0.5, 1].map((tint) => {
  if (BACKEND === 'webgl2')
    return device.createRenderPipeline({
      vertex: { module: device.createShaderModule({ code: GLSL_VS, stage: 'vertex' }) },
      fragment: {
        module: device.createShaderModule({ code: GLSL_FS(tint.toFixed(1)), stage: 'fragment' }),
        targets: [{ format: 'rgba8unorm' }],
      },
      bindings: [{ binding: 0, type: 'uniform', name: 'Draw' }],
    });
  const module = device.createShaderModule({ code: WGSL(tint.toFixed(1)) });
  return device.createRenderPipeline({
    vertex: { module },
    fragment: { module, targets: [{ format: 'rgba8unorm' }] },
  });
});

function ignisFrame(n) {
  device.queue.writeBuffer(uniforms, 0, data, 0, 64 * n);
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
  });
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) pass.setPipeline(pipelines[(i / 100) & 1]);
    pass.setUniformBuffer(0, uniforms, 256 * i, 32);
    pass.draw(3);
  }
  pass.end();
  device.queue.submit([enc.finish()]);
}

// hand-written: one bind group, a dynamic offset per draw
const gpu = gpuDevice;
const rawBuffer = gpu.createBuffer({ size: 256 * MAX });
const rawPipelines = [gpu.createRenderPipeline({}), gpu.createRenderPipeline({})];
const group = gpu.createBindGroup({});
const view = stub();
const offsets = [0];
function rawFrame(n) {
  gpu.queue.writeBuffer(rawBuffer, 0, data, 0, 64 * n);
  const enc = gpu.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
  });
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) pass.setPipeline(rawPipelines[(i / 100) & 1]);
    offsets[0] = 256 * i;
    pass.setBindGroup(0, group, offsets);
    pass.draw(3);
  }
  pass.end();
  gpu.queue.submit([enc.finish()]);
}

// hand-written WebGL2: bindBufferRange of the uniform block and drawArrays per draw
const glBuffer = gl.createBuffer();
const glPrograms = [gl.createProgram(), gl.createProgram()];
function rawGlFrame(n) {
  gl.bindBuffer(gl.UNIFORM_BUFFER, glBuffer);
  gl.bufferSubData(gl.UNIFORM_BUFFER, 0, data, 0, 64 * n);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.clear(gl.COLOR_BUFFER_BIT);
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) gl.useProgram(glPrograms[(i / 100) & 1]);
    gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, glBuffer, 256 * i, 32);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(
  `draws on a stub ${BACKEND === 'webgpu' ? 'GPUDevice' : 'WebGL2 context'}: µs per draw, medians of ${ROUNDS} interleaved rounds (${new Date().toISOString().slice(0, 10)}, node ${process.version})`,
);
console.log('| draws a frame | Ignis | hand-written | Ignis ÷ hand-written |');
console.log('| ---: | ---: | ---: | ---: |');
for (const n of COUNTS) {
  const frames = Math.max(3, Math.round(200_000 / n));
  const res = { ignis: [], raw: [] };
  for (let r = 0; r < ROUNDS + 2; r++)
    for (const [name, frame] of [
      ['ignis', ignisFrame],
      ['raw', BACKEND === 'webgpu' ? rawFrame : rawGlFrame],
    ]) {
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) frame(n);
      const us = ((performance.now() - t0) / (frames * n)) * 1000;
      if (r >= 2) res[name].push(us);
    }
  const ratio = median(res.ignis.map((us, r) => us / res.raw[r]));
  console.log(
    `| ${n} | ${median(res.ignis).toFixed(3)} | ${median(res.raw).toFixed(3)} | ${ratio.toFixed(2)}× |`,
  );
}
