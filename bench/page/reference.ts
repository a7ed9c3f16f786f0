// The `reference` suite: Ignis's particle draw against a hand-written draw of the same look on the
// same state, raw WebGPU (bench/deno/raw-reference.ts, shared with the Deno benchmark) or raw
// WebGL2 (raw-webgl2.ts) on the same device, interleaved frame by frame: e2e (record, submit,
// wait for the GPU) of a draw-only frame into an offscreen target of the canvas size, and CPU time
// (record and submit) per frame from bursts of frames back to back on a small pair.
import {
  TextureUsage,
  createParticleSystem,
  orbitCamera,
  resolveOptions,
  WebGL2Device,
  type Device,
  type PassTimestampWrites,
  type WebGPUDevice,
} from '../../src/all.js';
import {
  RawPassTimer,
  RawReference,
  compareImages,
  ignisSpriteTexture,
} from '../deno/raw-reference.js';
import { RawWebGL2Reference } from './raw-webgl2.js';
import type { Measured, Scenario } from './bench.js';

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)] as number);
};

/** A particle system and the hand-written draw of the same state, each a draw-only frame. */
interface Pair {
  ignisFrame(timestampWrites?: PassTimestampWrites): void;
  rawFrame(): void;
  /**
   * WebGPU with timestamps: the GPU time of each draw's pass, ms, one frame each (Ignis's then the
   * hand-written one, waited for apart). Null where the device has no timestamps.
   */
  gpuTimes: (() => Promise<{ ignis: number; raw: number }>) | null;
  /** One frame of each, read back: RGBA8, rows top first (as Ignis's texture reads give them). */
  images(): Promise<{ ignis: Uint8Array; raw: Uint8Array }>;
  destroy(): void;
}

async function makePair(device: Device, s: Scenario, count: number): Promise<Pair> {
  const mode = s.drawMode === 'pulled' ? 'pulled' : 'instanced';
  const look = s.look ?? 'disc';
  const sprite = look === 'sprite' ? ignisSpriteTexture(device, TextureUsage) : null;
  const ps = await createParticleSystem(device, {
    count,
    path: s.backend === 'webgpu' ? 'compute' : 'pingpong',
    drawMode: mode,
    texture: sprite,
  });
  for (let i = 0; i < s.preroll; i += 10) {
    const enc = device.createCommandEncoder();
    for (let k = i; k < Math.min(s.preroll, i + 10); k++) ps.update(enc, 0.1);
    device.queue.submit([enc.finish()]);
  }
  const state = await ps.read();
  const o = resolveOptions({ count });
  const colors = {
    colors: o.colors,
    stops: o.colorStops,
    sizes: [o.sizeOverLife[0], o.sizeOverLife[1], o.size] as [number, number, number],
  };
  const camera = orbitCamera({ aspect: s.width / s.height });
  const target = device.createTexture({
    label: 'reference target',
    size: { width: s.width, height: s.height },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT | TextureUsage.COPY_SRC,
  });
  let raw: { frame(): void; read(): Promise<Uint8Array>; destroy(): void };
  let gpuTimes: Pair['gpuTimes'] = null;
  if (device instanceof WebGL2Device) {
    const r = new RawWebGL2Reference(device.gl, state, { width: s.width, height: s.height }, look);
    raw = {
      frame: () => {
        r.frame(mode, camera, colors);
        device.resetState(); // the raw calls changed GL state under Ignis's cache
      },
      // GL's rows are bottom first; Ignis draws into textures upside down in GL so that its rows
      // read top first, as WebGPU's: the hand-written image's rows reversed are the same picture
      read: async () => {
        const gl = r.read();
        device.resetState();
        const row = s.width * 4;
        const out = new Uint8Array(gl.length);
        for (let y = 0; y < s.height; y++)
          out.set(gl.subarray(y * row, (y + 1) * row), (s.height - 1 - y) * row);
        return out;
      },
      destroy: () => r.destroy(),
    };
  } else {
    const gpu = (device as WebGPUDevice).gpu;
    const r = new RawReference(
      gpu,
      'rgba8unorm',
      {
        position: new Float32Array(state.position),
        velocity: new Float32Array(state.velocity),
      },
      look,
    );
    const view = (target as unknown as { gpu: GPUTexture }).gpu.createView();
    const timed = device.caps.features.timestampQuery;
    const timer = timed ? new RawPassTimer(gpu) : null;
    const queries = timed
      ? device.createQuerySet({ label: 'reference: Ignis pass', type: 'timestamp', count: 2 })
      : null;
    raw = {
      frame: () => r.frame(mode, view, camera, colors),
      // it drew into Ignis's target: read as Ignis's own image is
      read: async () => new Uint8Array(await target.read()),
      destroy: () => {
        r.destroy();
        timer?.destroy();
        queries?.destroy();
      },
    };
    if (timer && queries)
      gpuTimes = async () => {
        ignisFrame({ querySet: queries, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 });
        const t = await queries.readTimestamps();
        const ignis = ((t[1] as number) - (t[0] as number)) / 1e6;
        r.frame(mode, view, camera, colors, timer.writes);
        return { ignis, raw: await timer.read() };
      };
  }
  const ignisFrame = (timestampWrites?: PassTimestampWrites): void => {
    const enc = device.createCommandEncoder({ label: 'reference: Ignis draw' });
    ps.prepareDraw(enc, camera, target);
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
      timestampWrites,
    });
    ps.draw(pass, camera);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  return {
    ignisFrame,
    rawFrame: () => raw.frame(),
    gpuTimes,
    async images() {
      ignisFrame();
      const ignis = new Uint8Array(await target.read());
      raw.frame();
      return { ignis, raw: await raw.read() };
    },
    destroy: () => {
      raw.destroy();
      target.destroy();
      sprite?.destroy();
      ps.destroy();
    },
  };
}

/** Particles in the CPU-time pair: the frame's recording and submit do not depend on the count. */
const CPU_PAIR_COUNT = 1024;
/** Frames recorded back to back per CPU sample (the bench's pages are cross-origin isolated: 5 µs clock steps). */
const CPU_BURST = 20;
/** Frames of each drawn before the CPU samples. */
const CPU_WARMUP_FRAMES = 400;
/**
 * The control: the hand-written frame after this much plain JavaScript (timed alone, with the GPU
 * idle) — about Ignis's own JavaScript per frame on a quiet CPU (bench/cpu-overhead.mjs). On a
 * machine whose cores the software GPU shares, JavaScript in a burst of frames costs more than its
 * time alone; the control shows how much, whoever's JavaScript it is.
 */
const CONTROL_JS_US = 5;

let spinSink = 0;
/** `n` iterations of arithmetic the JIT cannot drop: plain JavaScript of a known length. */
function spin(n: number): void {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i + spinSink);
  spinSink = s % 1;
}

/** Iterations of `spin` that take `us` microseconds alone (median of bursts, nothing else running). */
function calibrateSpin(us: number): number {
  const n = 4000;
  const perIteration: number[] = [];
  for (let r = 0; r < 40; r++) {
    const t0 = performance.now();
    for (let k = 0; k < 20; k++) spin(n);
    perIteration.push((performance.now() - t0) / (20 * n));
  }
  return Math.max(1, Math.round(us / 1000 / median(perIteration)));
}

/** How long the device takes to say an empty queue is done (median of 5): the wait's own latency. */
async function waitLatency(device: Device): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    device.queue.submit([]);
    await device.queue.onSubmittedWorkDone();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function runReference(
  device: Device,
  s: Scenario,
  adapter: string,
): Promise<Measured> {
  const mode = s.drawMode === 'pulled' ? 'pulled' : 'instanced';
  const pair = await makePair(device, s, s.count);
  const ignisFrame = pair.ignisFrame;
  const raw = { frame: pair.rawFrame };
  const e2e = { ignis: [] as number[], raw: [] as number[] };
  // e2e = frames of one kind back to back, then one wait, ÷ frames: where the wait itself is slow
  // to answer (Firefox polls its WebGPU device about every 100 ms here: an empty queue's
  // onSubmittedWorkDone takes 100 ms), a frame per wait would measure the poll, not the frame
  const latency = await waitLatency(device);
  ignisFrame(); // compiled and warm before it is timed
  await device.queue.onSubmittedWorkDone();
  const first = performance.now();
  for (let k = 0; k < 4; k++) ignisFrame();
  await device.queue.onSubmittedWorkDone();
  const frameMs = Math.max((performance.now() - first - latency) / 4, 0.1);
  const burst = latency > 10 ? Math.min(64, Math.max(1, Math.ceil((10 * latency) / frameMs))) : 1;
  const start = performance.now();
  for (let i = 0; i < s.warmup + s.frames; i++) {
    if (i > s.warmup + 4 && performance.now() - start > s.budgetMs) break;
    // alternate which goes first, so neither always follows the other
    const order = i % 2 === 0 ? (['ignis', 'raw'] as const) : (['raw', 'ignis'] as const);
    for (const who of order) {
      const t0 = performance.now();
      for (let k = 0; k < burst; k++) {
        if (who === 'ignis') ignisFrame();
        else raw.frame();
      }
      // one wait for both: the same queue (WebGPU) or the same GL context (WebGL2)
      await device.queue.onSubmittedWorkDone();
      if (i >= s.warmup) e2e[who].push((performance.now() - t0) / burst);
    }
  }
  // GPU time of each draw's pass (WebGPU with timestamps): the GPU's own clock, which neither the
  // wait's latency nor the CPU's load reaches; one frame of each at a time, Ignis's first (a control
  // with the hand-written draw in both places read 1.00×: the order does not favour either)
  const gpu = { ignis: [] as number[], raw: [] as number[] };
  if (pair.gpuTimes)
    for (let i = 0; i < 1 + s.frames; i++) {
      const t = await pair.gpuTimes();
      if (i === 0) continue; // the first pair is warm-up
      gpu.ignis.push(t.ignis);
      gpu.raw.push(t.raw);
    }
  // CPU time of a frame (record + submit): bursts of frames back to back on a small pair, so the
  // clock's steps and the software rasteriser's work on the same cores do not swamp it
  const cpu = { ignis: [] as number[], raw: [] as number[], control: [] as number[] };
  const small = await makePair(device, s, CPU_PAIR_COUNT);
  await device.queue.onSubmittedWorkDone();
  const spins = calibrateSpin(CONTROL_JS_US);
  const control = (): void => {
    spin(spins);
    small.rawFrame();
  };
  // steady state first: both frames compiled by the JIT, Ignis's ring of uniform slots and their
  // cached bind groups all made
  for (let i = 0; i < CPU_WARMUP_FRAMES; i += CPU_BURST) {
    for (let k = 0; k < CPU_BURST; k++) small.ignisFrame();
    for (let k = 0; k < CPU_BURST; k++) small.rawFrame();
    await device.queue.onSubmittedWorkDone();
  }
  for (let i = 0; i < s.warmup + s.frames; i++) {
    const order =
      i % 2 === 0 ? (['ignis', 'raw', 'control'] as const) : (['control', 'raw', 'ignis'] as const);
    for (const who of order) {
      const frame = who === 'ignis' ? small.ignisFrame : who === 'raw' ? small.rawFrame : control;
      const t0 = performance.now();
      for (let k = 0; k < CPU_BURST; k++) frame();
      const ms = (performance.now() - t0) / CPU_BURST;
      await device.queue.onSubmittedWorkDone();
      if (i >= s.warmup) cpu[who].push(ms);
    }
  }
  small.destroy();
  const images = await pair.images();
  const image = compareImages(images.ignis, images.raw);
  const result: Measured = {
    backend: device.caps.backend,
    adapter,
    e2eMs: e2e.ignis,
    rafMs: [],
    cpuMs: cpu.ignis,
    gpuUpdateMs: null,
    gpuDrawMs: pair.gpuTimes ? gpu.ignis : null,
    gpuSpansMs: null,
    describe: `Ignis ${s.backend === 'webgpu' ? 'compute' : 'pingpong'} ${mode} draw (${s.look ?? 'disc'}) vs a hand-written ${device.caps.backend} draw; median e2e ${median(e2e.ignis).toFixed(2)} vs ${median(e2e.raw).toFixed(2)} ms${burst > 1 ? ` (${burst} frames a wait: the wait alone takes ${latency.toFixed(0)} ms)` : ''}`,
    drawn: mode,
    reference: {
      e2eMs: e2e.raw,
      cpuMs: cpu.raw,
      gpuDrawMs: pair.gpuTimes ? gpu.raw : null,
      control: { cpuMs: cpu.control, jsUs: CONTROL_JS_US },
      image,
    },
    gpuBytes: device.stats().total.bytes,
    heapBytes: null,
    alive: s.count,
    caps: null,
  };
  (window as unknown as { __cleanup: () => void }).__cleanup = () => {
    pair.destroy();
    device.destroy();
  };
  return result;
}
