// The `draws` suite (issue 33): what an RHI costs per draw when a frame has many. A frame is N
// draws of a small triangle, each with its own 32 bytes of uniforms in a 256-byte slice of one
// buffer written once per frame, the pipeline changing every 100 draws, into an offscreen target.
// Five frames do that on the same device, interleaved (four on WebGL2, which has no bundles),
// beside a sixth that does not draw:
//   ignis — Ignis's pass: setPipeline, setUniformBuffer(slot, buffer, offset, 32), draw;
//   raw   — what a careful hand-written program does: WebGPU, one bind group with a dynamic offset
//           per draw; WebGL2, bindBufferRange of the uniform block per draw;
//   three — three.js drawing N meshes of one material (its own renderer: WebGPURenderer or
//           WebGLRenderer, its own canvas), each mesh with its own position;
//   bundle — Ignis's draws recorded once per N in a render bundle, executed by each frame's pass;
//   rawBundle — (WebGPU) the hand-written draws recorded once per N in a GPURenderBundle;
//   upload — the hand-written frame without its draws (the uniforms written, the target cleared):
//           what every frame above pays before its first draw, taken off both sides of the ratio
//           "beyond the upload" (in Firefox the upload is most of a frame's time).
// CPU time only: recording and submitting a burst of frames back to back, the GPU waited for after
// the burst, outside the clock. µs per draw = burst time ÷ (frames × N). The Ignis and WebGPU
// frames and the measurement are in draw-frames.ts (the Deno benchmark runs them too).
import * as THREE from 'three';
import { WebGPURenderer } from 'three/webgpu';
import {
  BufferUsage,
  TextureUsage,
  WebGL2Device,
  type Device,
  type WebGPUDevice,
} from '../../src/all.js';
import type { Measured, Scenario } from './bench.js';
import {
  GLSL_FS,
  GLSL_VS,
  SIZE,
  SLOT,
  TINTS,
  drawData,
  ignisFrames,
  litPixels,
  measureDraws,
  median,
  rawWebGPUFrames,
  type Frames,
} from './draw-frames.js';

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

/** A hand-written frame's start: `fbo` bound, the state a draw meets set, the target cleared. */
function clearTarget(gl: WebGL2RenderingContext, fbo: WebGLFramebuffer | null): void {
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.viewport(0, 0, SIZE, SIZE);
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.BLEND);
  gl.disable(gl.DEPTH_TEST);
  gl.colorMask(true, true, true, true);
  gl.clearColor(0, 0, 0, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
}

/** On the Ignis device's own context; its cached GL state is reset after each frame. */
export function rawWebGL2Frames(
  device: WebGL2Device,
  max: number,
  data: Float32Array<ArrayBuffer>,
  /**
   * `uploadOnly`: the frame without its draws (the uniforms uploaded, the target cleared);
   * `recorded`: the draws recorded first and called after, as a replay at the submit does — each
   * offset checked and logged, each run of equal draws counted, then the same GL calls: what
   * record-then-replay costs with no layers of an RHI around it (cpu-probe-draws.mjs --floor).
   */
  options: { uploadOnly?: boolean; recorded?: boolean } = {},
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
  /** A frame's start: the target cleared, the uniforms written. */
  const start = (n: number): void => {
    clearTarget(gl, fbo);
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.UNIFORM_BUFFER, ubo);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, data, 0, (SLOT / 4) * n);
  };
  /** A frame: the uniforms written, the target cleared, `draws` of them drawn. */
  const frameOf = (n: number, draws: number): void => {
    start(n);
    for (let i = 0; i < draws; i++) {
      if (i % 100 === 0) gl.useProgram(programs[(i / 100) & 1] as WebGLProgram);
      gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, ubo, SLOT * i, 32);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
    gl.flush();
    device.resetState();
  };
  /** The recorded frame: programs and runs of draws in one list, each draw's offset in a log. */
  const recordedFrame = (n: number): void => {
    start(n);
    const list: (WebGLProgram | { count: number })[] = [];
    const offsets: number[] = [];
    let run: { count: number } | null = null;
    const size = SLOT * max;
    for (let i = 0; i < n; i++) {
      if (i % 100 === 0) {
        list.push(programs[(i / 100) & 1] as WebGLProgram);
        run = null;
      }
      const offset = SLOT * i;
      if (!Number.isInteger(offset) || offset < 0 || offset + 32 > size || (offset & 255) !== 0)
        throw new RangeError(`draws: offset ${offset}`);
      offsets.push(offset);
      if (run !== null) run.count++;
      else list.push((run = { count: 1 }));
    }
    let k = 0;
    for (const entry of list) {
      if (!('count' in entry)) {
        gl.useProgram(entry);
        continue;
      }
      for (let j = 0; j < entry.count; j++) {
        gl.bindBufferRange(gl.UNIFORM_BUFFER, 0, ubo, offsets[k++] as number, 32);
        gl.drawArrays(gl.TRIANGLES, 0, 3);
      }
    }
    gl.flush();
    device.resetState();
  };
  // each kind of frame a function of its own name, so that a profile tells them apart
  function rawGLPassFrame(n: number): void {
    frameOf(n, n);
  }
  function rawGLRecordedFrame(n: number): void {
    recordedFrame(n);
  }
  function rawGLUploadFrame(n: number): void {
    frameOf(n, 0);
  }
  return {
    frame: options.uploadOnly
      ? rawGLUploadFrame
      : options.recorded
        ? rawGLRecordedFrame
        : rawGLPassFrame,
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

/**
 * Calls `spy(name, args)` before each call of the context's methods named in `names` (all of them
 * when left out), wrappers set on the instance; the returned function deletes them.
 */
export function spyOnGL(
  gl: WebGL2RenderingContext,
  spy: (name: string, args: unknown[]) => void,
  names?: readonly string[],
): () => void {
  const proto = Object.getPrototypeOf(gl) as Record<string, unknown>;
  const own = gl as unknown as Record<string, unknown>;
  const wrapped: string[] = [];
  for (const name of names ?? Object.getOwnPropertyNames(proto)) {
    const f = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
    if (typeof f !== 'function' || name === 'constructor') continue;
    own[name] = (...args: unknown[]) => {
      spy(name, args);
      return (f as (...a: unknown[]) => unknown).apply(gl, args);
    };
    wrapped.push(name);
  }
  return () => {
    for (const name of wrapped) delete own[name];
  };
}

/**
 * The hand-written WebGL2 frame drawing with another frame's GL objects — the programs it uses,
 * the vertex array it binds with each, its framebuffer, uniform buffer and block binding point —
 * spied on while `other` draws one frame (`bench/cpu-probe-draws.mjs --objects`). Against the
 * plain hand-written frame it tells what those objects cost from everything else the other frame
 * does. `other` must use two programs in turn, as the suite's frames do.
 */
export async function rawWebGL2FramesOn(
  device: WebGL2Device,
  data: Float32Array<ArrayBuffer>,
  other: Frames,
  n: number,
): Promise<Frames> {
  const gl = device.gl;
  const seen = {
    programs: [] as WebGLProgram[],
    vaos: [] as (WebGLVertexArrayObject | null)[],
    fbo: null as WebGLFramebuffer | null,
    ubo: null as WebGLBuffer | null,
    point: -1,
  };
  let vao: WebGLVertexArrayObject | null = null;
  const restore = spyOnGL(
    gl,
    (name, a) => {
      if (name === 'useProgram') {
        const p = a[0] as WebGLProgram | null;
        if (p && !seen.programs.includes(p)) {
          seen.programs.push(p);
          seen.vaos.push(vao);
        }
      } else if (name === 'bindVertexArray') {
        vao = a[0] as WebGLVertexArrayObject | null;
        // a program's vertex array: the one bound after it, where one is
        if (seen.programs.length > 0) seen.vaos[seen.programs.length - 1] = vao;
      } else if (name === 'bindFramebuffer') {
        if (a[1]) seen.fbo = a[1] as WebGLFramebuffer;
      } else {
        seen.ubo = a[2] as WebGLBuffer | null;
        seen.point = a[1] as number;
      }
    },
    ['useProgram', 'bindVertexArray', 'bindFramebuffer', 'bindBufferRange'],
  );
  try {
    device.resetState(); // so the other frame binds everything it uses
    other.frame(n);
    await other.idle();
  } finally {
    restore();
  }
  const { fbo, ubo, point, programs, vaos } = seen;
  if (programs.length !== 2 || !fbo || !ubo || point < 0)
    throw new Error(
      `draws: the other frame bound ${programs.length} programs, ${fbo ? 'a' : 'no'} framebuffer and ${ubo ? 'a' : 'no'} uniform buffer; two programs, a framebuffer and a uniform buffer were expected`,
    );
  function rawGLOnObjectsFrame(n: number): void {
    clearTarget(gl, fbo);
    gl.bindBuffer(gl.UNIFORM_BUFFER, ubo);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, data, 0, (SLOT / 4) * n);
    for (let i = 0; i < n; i++) {
      if (i % 100 === 0) {
        const k = (i / 100) & 1;
        gl.useProgram(programs[k] as WebGLProgram);
        gl.bindVertexArray(vaos[k] ?? null);
      }
      gl.bindBufferRange(gl.UNIFORM_BUFFER, point, ubo, SLOT * i, 32);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
    gl.flush();
    device.resetState();
  }
  return {
    frame: rawGLOnObjectsFrame,
    idle: () => device.queue.onSubmittedWorkDone(),
    destroy() {}, // the objects are the other frame's
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

export async function runDraws(device: Device, s: Scenario, adapter: string): Promise<Measured> {
  const n = s.count;
  const data = drawData(n);
  const flags = { BufferUsage, TextureUsage };
  const gpu = device instanceof WebGL2Device ? null : (device as WebGPUDevice).gpu;
  const contenders: Partial<
    Record<'ignis' | 'raw' | 'three' | 'bundle' | 'rawBundle' | 'upload', Frames>
  > & {
    ignis: Frames;
    raw: Frames;
    bundle: Frames;
    upload: Frames;
  } = {
    ignis: ignisFrames(device, n, data, flags),
    raw: gpu ? rawWebGPUFrames(gpu, n, data) : rawWebGL2Frames(device as WebGL2Device, n, data),
    three: await threeFrames(s.backend, data),
    bundle: ignisFrames(device, n, data, flags, { bundle: true }),
    // WebGL2 has no bundles: its hand-written frame is the one above
    ...(gpu ? { rawBundle: rawWebGPUFrames(gpu, n, data, { bundle: true }) } : {}),
    // the hand-written frame without its draws: what every frame pays before its first draw
    upload: gpu
      ? rawWebGPUFrames(gpu, n, data, { uploadOnly: true })
      : rawWebGL2Frames(device as WebGL2Device, n, data, { uploadOnly: true }),
  };
  const { frames, us } = await measureDraws(
    contenders as Record<keyof typeof contenders, Frames>,
    n,
    s.frames,
    s.budgetMs,
  );
  // the same draws: Ignis's frames and the hand-written ones light the same pixels
  const lit = {
    ignis: (await contenders.ignis.lit?.()) ?? -1,
    raw: (await contenders.raw.lit?.()) ?? -1,
    bundle: (await contenders.bundle.lit?.()) ?? -1,
    ...(contenders.rawBundle ? { rawBundle: (await contenders.rawBundle.lit?.()) ?? -1 } : {}),
    // and the frame without draws lights none
    upload: (await contenders.upload.lit?.()) ?? -1,
  };
  (window as unknown as { __cleanup: () => void }).__cleanup = () => {
    for (const c of Object.values(contenders)) c?.destroy();
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
    describe: `${n} draws a frame, ${frames} frame(s) a burst: Ignis ${median(us.ignis).toFixed(3)} µs/draw, hand-written ${median(us.raw).toFixed(3)}, three.js ${median(us.three ?? []).toFixed(3)}, Ignis's bundle ${median(us.bundle).toFixed(3)}${us.rawBundle ? `, hand-written bundle ${median(us.rawBundle).toFixed(3)}` : ''}`,
    draws: { ...us, lit },
    gpuBytes: device.stats().total.bytes,
    heapBytes: null,
    alive: n,
    caps: null,
  };
}
