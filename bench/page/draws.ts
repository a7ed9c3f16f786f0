// The `draws` suite (issue 33): what an RHI costs per draw when a frame has many. A frame is N
// draws of a small triangle, each with its own 32 bytes of uniforms in a 256-byte slice of one
// buffer written once per frame, the pipeline changing every 100 draws, into an offscreen target.
// Three frames do that on the same device, interleaved:
//   ignis — Ignis's pass: setPipeline, setUniformBuffer(slot, buffer, offset, 32), draw;
//   raw   — what a careful hand-written program does: WebGPU, one bind group with a dynamic offset
//           per draw; WebGL2, bindBufferRange of the uniform block per draw;
//   three — three.js drawing N meshes of one material (its own renderer: WebGPURenderer or
//           WebGLRenderer, its own canvas), each mesh with its own position.
// CPU time only: recording and submitting a burst of frames back to back, the GPU waited for after
// the burst, outside the clock. µs per draw = burst time ÷ (frames × N).
import * as THREE from 'three';
import { WebGPURenderer } from 'three/webgpu';
import {
  BufferUsage,
  TextureUsage,
  WebGL2Device,
  type Device,
  type RenderPipeline,
  type WebGPUDevice,
} from '../../src/all.js';
import type { Measured, Scenario } from './bench.js';

const SLOT = 256;
const SIZE = 256;
/** Draws per burst: about this many, whatever N (at least one frame). */
const DRAWS_PER_BURST = 20_000;
const WARMUP_ROUNDS = 3;

const WGSL = (tint: string) => `struct Draw { offset: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> d: Draw;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(d.offset.xy + vec2f(f32(i & 1u), f32(i >> 1u)) * 0.02, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return d.color * ${tint}; }`;
const GLSL_VS = `#version 300 es
layout(std140) uniform Draw { vec4 offset; vec4 color; };
void main() {
  gl_Position = vec4(offset.xy + vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 0.02, 0.0, 1.0);
}`;
const GLSL_FS = (tint: string) => `#version 300 es
precision highp float;
layout(std140) uniform Draw { vec4 offset; vec4 color; };
out vec4 outColor;
void main() { outColor = color * ${tint}; }`;
const TINTS = ['0.5', '1.0'];

interface Frames {
  /** Records and submits one frame of `n` draws. */
  frame(n: number): void;
  /** Resolves when the GPU has done what was submitted. */
  idle(): Promise<void>;
  /** Pixels the last frame lit (Ignis and the hand-written frame must agree: the same draws). */
  lit?(): Promise<number>;
  destroy(): void;
}

/** Per-draw uniforms for the largest N: a position in [-1, 1)² and a colour, 64 floats a slot. */
function drawData(max: number): Float32Array<ArrayBuffer> {
  const data = new Float32Array((SLOT / 4) * max);
  for (let i = 0; i < max; i++) {
    const o = (SLOT / 4) * i;
    data[o] = ((i * 37) % 97) / 48.5 - 1;
    data[o + 1] = ((i * 53) % 89) / 44.5 - 1;
    data.set([1, (i % 7) / 7, (i % 5) / 5, 1], o + 4);
  }
  return data;
}

function ignisFrames(device: Device, max: number, data: Float32Array<ArrayBuffer>): Frames {
  const uniforms = device.createBuffer({
    label: 'draws: uniforms',
    size: SLOT * max,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  const target = device.createTexture({
    label: 'draws: target',
    size: { width: SIZE, height: SIZE },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  const pipelines: RenderPipeline[] = TINTS.map((tint) => {
    if (device.caps.shaderLanguage === 'glsl') {
      const vs = device.createShaderModule({ code: GLSL_VS, stage: 'vertex' });
      const fs = device.createShaderModule({ code: GLSL_FS(tint), stage: 'fragment' });
      return device.createRenderPipeline({
        vertex: { module: vs },
        fragment: { module: fs, targets: [{ format: 'rgba8unorm' }] },
        bindings: [{ binding: 0, type: 'uniform', name: 'Draw' }],
      });
    }
    const module = device.createShaderModule({ code: WGSL(tint) });
    return device.createRenderPipeline({
      vertex: { module },
      fragment: { module, targets: [{ format: 'rgba8unorm' }] },
    });
  });
  return {
    frame(n) {
      device.queue.writeBuffer(uniforms, 0, data, 0, (SLOT / 4) * n);
      const enc = device.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      });
      for (let i = 0; i < n; i++) {
        if (i % 100 === 0) pass.setPipeline(pipelines[(i / 100) & 1] as RenderPipeline);
        pass.setUniformBuffer(0, uniforms, SLOT * i, 32);
        pass.draw(3);
      }
      pass.end();
      device.queue.submit([enc.finish()]);
    },
    idle: () => device.queue.onSubmittedWorkDone(),
    lit: async () => litPixels((await target.read()) as Uint8Array),
    destroy() {
      uniforms.destroy();
      target.destroy();
    },
  };
}

function rawWebGPUFrames(gpu: GPUDevice, max: number, data: Float32Array<ArrayBuffer>): Frames {
  const buffer = gpu.createBuffer({
    size: SLOT * max,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const target = gpu.createTexture({
    size: [SIZE, SIZE],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const view = target.createView();
  const groupLayout = gpu.createBindGroupLayout({
    entries: [
      {
        binding: 0,
        visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT,
        buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 32 },
      },
    ],
  });
  const layout = gpu.createPipelineLayout({ bindGroupLayouts: [groupLayout] });
  const pipelines = TINTS.map((tint) => {
    const module = gpu.createShaderModule({ code: WGSL(tint) });
    return gpu.createRenderPipeline({
      layout,
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    });
  });
  const group = gpu.createBindGroup({
    layout: groupLayout,
    entries: [{ binding: 0, resource: { buffer, size: 32 } }],
  });
  const offsets = [0];
  return {
    frame(n) {
      gpu.queue.writeBuffer(buffer, 0, data, 0, (SLOT / 4) * n);
      const enc = gpu.createCommandEncoder();
      const pass = enc.beginRenderPass({
        colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
      });
      for (let i = 0; i < n; i++) {
        if (i % 100 === 0) pass.setPipeline(pipelines[(i / 100) & 1] as GPURenderPipeline);
        offsets[0] = SLOT * i;
        pass.setBindGroup(0, group, offsets);
        pass.draw(3);
      }
      pass.end();
      gpu.queue.submit([enc.finish()]);
    },
    idle: () => gpu.queue.onSubmittedWorkDone(),
    async lit() {
      const out = gpu.createBuffer({
        size: SIZE * SIZE * 4,
        usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
      });
      const enc = gpu.createCommandEncoder();
      enc.copyTextureToBuffer({ texture: target }, { buffer: out, bytesPerRow: SIZE * 4 }, [
        SIZE,
        SIZE,
      ]);
      gpu.queue.submit([enc.finish()]);
      await out.mapAsync(GPUMapMode.READ);
      const n = litPixels(new Uint8Array(out.getMappedRange()));
      out.destroy();
      return n;
    },
    destroy() {
      buffer.destroy();
      target.destroy();
    },
  };
}

// the hand-written WebGL2 frame draws upside down, as Ignis draws into textures (top row first in
// memory, like WebGPU), so the two images can be compared pixel for pixel
const RAW_GLSL_VS = GLSL_VS.replace(/}$/, '  gl_Position.y = -gl_Position.y;\n}');

function program(gl: WebGL2RenderingContext, fs: string): WebGLProgram {
  const p = gl.createProgram() as WebGLProgram;
  for (const [type, source] of [
    [gl.VERTEX_SHADER, RAW_GLSL_VS],
    [gl.FRAGMENT_SHADER, fs],
  ] as const) {
    const s = gl.createShader(type) as WebGLShader;
    gl.shaderSource(s, source);
    gl.compileShader(s);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS))
    throw new Error(`draws: the raw WebGL2 program did not link: ${gl.getProgramInfoLog(p)}`);
  gl.uniformBlockBinding(p, gl.getUniformBlockIndex(p, 'Draw'), 0);
  return p;
}

/** On the Ignis device's own context; its cached GL state is reset after each frame. */
function rawWebGL2Frames(
  device: WebGL2Device,
  max: number,
  data: Float32Array<ArrayBuffer>,
): Frames {
  const gl = device.gl;
  const ubo = gl.createBuffer();
  gl.bindBuffer(gl.UNIFORM_BUFFER, ubo);
  gl.bufferData(gl.UNIFORM_BUFFER, SLOT * max, gl.DYNAMIC_DRAW);
  const texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, SIZE, SIZE);
  const fbo = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  const programs = TINTS.map((tint) => program(gl, GLSL_FS(tint)));
  const vao = gl.createVertexArray();
  device.resetState();
  return {
    frame(n) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
      gl.viewport(0, 0, SIZE, SIZE);
      gl.disable(gl.SCISSOR_TEST);
      gl.disable(gl.BLEND);
      gl.disable(gl.DEPTH_TEST);
      gl.colorMask(true, true, true, true);
      gl.clearColor(0, 0, 0, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.bindVertexArray(vao);
      gl.bindBuffer(gl.UNIFORM_BUFFER, ubo);
      gl.bufferSubData(gl.UNIFORM_BUFFER, 0, data, 0, (SLOT / 4) * n);
      for (let i = 0; i < n; i++) {
        if (i % 100 === 0) gl.useProgram(programs[(i / 100) & 1] as WebGLProgram);
        gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, ubo, SLOT * i, 32);
        gl.drawArrays(gl.TRIANGLES, 0, 3);
      }
      gl.flush();
      device.resetState();
    },
    idle: () => device.queue.onSubmittedWorkDone(),
    async lit() {
      await device.queue.onSubmittedWorkDone();
      const pixels = new Uint8Array(SIZE * SIZE * 4);
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
      gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      device.resetState();
      return litPixels(pixels);
    },
    destroy() {
      gl.deleteBuffer(ubo);
      gl.deleteTexture(texture);
      gl.deleteFramebuffer(fbo);
      gl.deleteVertexArray(vao);
      for (const p of programs) gl.deleteProgram(p);
      device.resetState();
    },
  };
}

/** three.js: N meshes of one material, each placed where Ignis's draw i is; its own canvas. */
async function threeFrames(backend: 'webgpu' | 'webgl2', data: Float32Array<ArrayBuffer>) {
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const renderer =
    backend === 'webgpu'
      ? new WebGPURenderer({ canvas, antialias: false })
      : new THREE.WebGLRenderer({ canvas, antialias: false });
  if (renderer instanceof WebGPURenderer) await renderer.init();
  renderer.setSize(SIZE, SIZE, false);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -1, 1);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute(
    'position',
    new THREE.BufferAttribute(new Float32Array([0, 0, 0, 0.02, 0, 0, 0, 0.02, 0]), 3),
  );
  const material = new THREE.MeshBasicMaterial({ color: 0xff8040 });
  const scenes = new Map<number, THREE.Scene>();
  const sceneOf = (n: number): THREE.Scene => {
    let scene = scenes.get(n);
    if (scene) return scene;
    scene = new THREE.Scene();
    for (let i = 0; i < n; i++) {
      const mesh = new THREE.Mesh(geometry, material);
      mesh.position.set(data[(SLOT / 4) * i] as number, data[(SLOT / 4) * i + 1] as number, 0);
      mesh.frustumCulled = false;
      scene.add(mesh);
    }
    scenes.set(n, scene);
    return scene;
  };
  const gl = renderer instanceof THREE.WebGLRenderer ? renderer.getContext() : null;
  const pixel = new Uint8Array(4);
  return {
    frame(n: number) {
      renderer.render(sceneOf(n), camera);
    },
    async idle() {
      if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      else {
        const backendGpu = (renderer as unknown as { backend: { device: GPUDevice } }).backend
          .device;
        await backendGpu.queue.onSubmittedWorkDone();
      }
    },
    destroy() {
      geometry.dispose();
      material.dispose();
      void renderer.dispose(); // a promise on WebGPURenderer, nothing to wait for here
    },
  } satisfies Frames;
}

/** Pixels of an RGBA8 image that are not the clear colour (black). */
function litPixels(rgba: Uint8Array, rowBytes = SIZE * 4): number {
  let n = 0;
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const i = y * rowBytes + x * 4;
      if ((rgba[i] as number) + (rgba[i + 1] as number) + (rgba[i + 2] as number) > 0) n++;
    }
  return n;
}

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)] as number);
};

export async function runDraws(device: Device, s: Scenario, adapter: string): Promise<Measured> {
  const n = s.count;
  const data = drawData(n);
  const contenders: Record<'ignis' | 'raw' | 'three', Frames> = {
    ignis: ignisFrames(device, n, data),
    raw:
      device instanceof WebGL2Device
        ? rawWebGL2Frames(device, n, data)
        : rawWebGPUFrames((device as WebGPUDevice).gpu, n, data),
    three: await threeFrames(s.backend, data),
  };
  const names = Object.keys(contenders) as Array<keyof typeof contenders>;
  const frames = Math.max(1, Math.round(DRAWS_PER_BURST / n));
  const us = { ignis: [] as number[], raw: [] as number[], three: [] as number[] };
  const start = performance.now();
  for (let r = 0; r < WARMUP_ROUNDS + s.frames; r++) {
    if (r > WARMUP_ROUNDS + 4 && performance.now() - start > s.budgetMs) break;
    // a different order each round, so none always follows another
    const order = names.map((_, k) => names[(k + r) % names.length] as keyof typeof contenders);
    for (const who of order) {
      const c = contenders[who];
      await c.idle();
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) c.frame(n);
      const took = performance.now() - t0;
      await c.idle();
      if (r >= WARMUP_ROUNDS) us[who].push((took * 1000) / (frames * n));
    }
  }
  // the same draws: Ignis's frame and the hand-written one light the same pixels
  const lit = {
    ignis: (await contenders.ignis.lit?.()) ?? -1,
    raw: (await contenders.raw.lit?.()) ?? -1,
  };
  (window as unknown as { __cleanup: () => void }).__cleanup = () => {
    for (const c of Object.values(contenders)) c.destroy();
    device.destroy();
  };
  return {
    backend: device.caps.backend,
    adapter,
    e2eMs: [],
    rafMs: [],
    cpuMs: us.ignis.map((x) => (x * n) / 1000),
    gpuUpdateMs: null,
    gpuDrawMs: null,
    gpuSpansMs: null,
    describe: `${n} draws a frame, ${frames} frame(s) a burst: Ignis ${median(us.ignis).toFixed(3)} µs/draw, hand-written ${median(us.raw).toFixed(3)}, three.js ${median(us.three).toFixed(3)}`,
    draws: { ...us, lit },
    gpuBytes: device.stats().total.bytes,
    heapBytes: null,
    alive: n,
    caps: null,
  };
}
