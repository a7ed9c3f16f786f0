// The frames of bench/cpu-draws.mjs and their interleaved rounds, in a module that runs in Node and
// in a page alike (`--browser`): N draws a frame, each with its own 256-byte slice of one uniform
// buffer (written once per frame), the pipeline changing every 100 draws, through Ignis on a stub
// GPUDevice or a no-op WebGL2 context, and the same frame hand-written on the same stub.
import { stub, stubGpuDevice } from './stub-gpu.mjs';
import { stubGl } from './stub-gl.mjs';

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

/**
 * Times Ignis's frame against the hand-written one. `libs`: one build of Ignis or more, by name
 * (each exports createDevice, WebGL2Device, NullDevice, BufferUsage, TextureUsage), timed in the
 * same interleaved rounds (an A/B of two builds: the machine's drift cancels); `dom`: the text of
 * TypeScript's lib.dom.d.ts (for the WebGL2 stub); `now`: the clock in ms. Returns a row per count
 * and build: µs per draw (medians of the rounds) and the median of each round's ratio to the
 * hand-written frame.
 */
export async function timeDraws(libs, { backend, dom, counts, rounds, now, bundles = false }) {
  if (backend !== 'webgpu' && backend !== 'webgl2')
    throw new Error(`cpu-draws: --backend ${backend} is not webgpu or webgl2`);
  const first = Object.values(libs)[0];
  const gpu = stubGpuDevice(new first.NullDevice().caps.limits);
  const gl = stubGl(dom);
  const max = Math.max(...counts);
  const data = new Float32Array(64 * max);
  const frames = {};
  for (const [name, lib] of Object.entries(libs)) {
    frames[name] = await ignisFrames(lib, { backend, gpu, gl, max, data });
    // the same draws recorded once per N in a render bundle, executed by each frame's pass
    if (bundles)
      frames[`${name} (bundle)`] = await ignisFrames(lib, {
        backend,
        gpu,
        gl,
        max,
        data,
        bundle: true,
      });
  }
  frames['hand-written'] = backend === 'webgpu' ? rawFrames(gpu, max, data) : rawGlFrames(gl, data);

  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const rows = [];
  for (const n of counts) {
    const perFrame = Math.max(3, Math.round(200_000 / n));
    const us = Object.fromEntries(Object.keys(frames).map((k) => [k, []]));
    // the order alternates round by round: over a stub GPUDevice the build timed first in a
    // round measured ~8% faster than the same build timed second
    const order = Object.entries(frames);
    for (let r = 0; r < rounds + 2; r++)
      for (const [name, frame] of r % 2 === 0 ? order : [...order].reverse()) {
        const t0 = now();
        for (let f = 0; f < perFrame; f++) frame(n);
        if (r >= 2) us[name].push(((now() - t0) / (perFrame * n)) * 1000);
      }
    const raw = us['hand-written'];
    for (const name of Object.keys(frames).filter((k) => k !== 'hand-written'))
      rows.push({
        draws: n,
        build: name,
        ignis: median(us[name]),
        raw: median(raw),
        ratio: median(us[name].map((x, r) => x / raw[r])),
      });
  }
  return rows;
}

/** Ignis's device on one build, with the suite's buffer, target, pipelines and draws. */
async function ignisScene(lib, { backend, gpu, gl, max }) {
  const device =
    backend === 'webgpu'
      ? await lib.createDevice({ backend: 'webgpu', gpuDevice: gpu })
      : new lib.WebGL2Device(gl, null, {});
  const uniforms = device.createBuffer({
    label: 'per-draw uniforms',
    size: 256 * max,
    usage: lib.BufferUsage.UNIFORM | lib.BufferUsage.COPY_DST,
  });
  const target = device.createTexture({
    size: { width: 256, height: 256 },
    format: 'rgba8unorm',
    usage: lib.TextureUsage.RENDER_ATTACHMENT,
  });
  const pipelines = [0.5, 1].map((tint) => {
    if (backend === 'webgl2')
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
  const record = (r, n) => {
    for (let i = 0; i < n; i++) {
      if (i % 100 === 0) r.setPipeline(pipelines[(i / 100) & 1]);
      r.setUniformBuffer(0, uniforms, 256 * i, 32);
      r.draw(3);
    }
  };
  /** One frame: the uniforms written, a pass that records `n` draws or executes `bundle`. */
  const frame = (n, data, bundle) => {
    device.queue.writeBuffer(uniforms, 0, data, 0, 64 * n);
    const enc = device.createCommandEncoder();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    if (bundle) pass.executeBundles([bundle]);
    else record(pass, n);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  const recordBundle = (n) => {
    const encoder = device.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    record(encoder, n);
    return encoder;
  };
  return { frame, recordBundle };
}

/** Ignis's frame of `n` draws on one build. */
async function ignisFrames(lib, { backend, gpu, gl, max, data, bundle = false }) {
  const { frame, recordBundle } = await ignisScene(lib, { backend, gpu, gl, max });
  const recorded = new Map();
  const bundleOf = (n) => {
    if (!recorded.has(n)) recorded.set(n, recordBundle(n).finish());
    return recorded.get(n);
  };
  return function ignisFrame(n) {
    frame(n, data, bundle ? bundleOf(n) : null);
  };
}

/**
 * What a render bundle costs before its frames are all alike: per round, a bundle of `n` draws is
 * recorded, then `finish()`, the first frame that executes it and the second are timed apart (ms,
 * medians of the rounds), on each build of `libs`.
 */
export async function timeFirstFrames(libs, { backend, dom, counts, rounds, now }) {
  const first = Object.values(libs)[0];
  const gpu = stubGpuDevice(new first.NullDevice().caps.limits);
  const gl = stubGl(dom);
  const max = Math.max(...counts);
  const data = new Float32Array(64 * max);
  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const scenes = {};
  for (const [name, lib] of Object.entries(libs))
    scenes[name] = await ignisScene(lib, { backend, gpu, gl, max });
  const rows = [];
  for (const n of counts) {
    const ms = Object.fromEntries(
      Object.keys(scenes).map((k) => [k, { finish: [], first: [], second: [] }]),
    );
    for (let r = 0; r < rounds + 2; r++)
      for (const [name, { frame, recordBundle }] of Object.entries(scenes)) {
        const encoder = recordBundle(n);
        const t0 = now();
        const bundle = encoder.finish();
        const t1 = now();
        frame(n, data, bundle);
        const t2 = now();
        frame(n, data, bundle);
        const t3 = now();
        if (r < 2) continue;
        ms[name].finish.push(t1 - t0);
        ms[name].first.push(t2 - t1);
        ms[name].second.push(t3 - t2);
      }
    for (const [name, m] of Object.entries(ms))
      rows.push({
        draws: n,
        build: name,
        finish: median(m.finish),
        first: median(m.first),
        second: median(m.second),
      });
  }
  return rows;
}

/** The hand-written WebGPU frame: one bind group, a dynamic offset per draw. */
function rawFrames(gpu, max, data) {
  const rawBuffer = gpu.createBuffer({ size: 256 * max });
  const rawPipelines = [gpu.createRenderPipeline({}), gpu.createRenderPipeline({})];
  const group = gpu.createBindGroup({});
  const view = stub();
  const offsets = [0];
  return function rawFrame(n) {
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
  };
}

/** The hand-written WebGL2 frame: bindBufferRange of the uniform block and drawArrays per draw. */
function rawGlFrames(gl, data) {
  const glBuffer = gl.createBuffer();
  const glPrograms = [gl.createProgram(), gl.createProgram()];
  return function rawGlFrame(n) {
    gl.bindBuffer(gl.UNIFORM_BUFFER, glBuffer);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, data, 0, 64 * n);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.clear(gl.COLOR_BUFFER_BIT);
    for (let i = 0; i < n; i++) {
      if (i % 100 === 0) gl.useProgram(glPrograms[(i / 100) & 1]);
      gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, glBuffer, 256 * i, 32);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
  };
}
