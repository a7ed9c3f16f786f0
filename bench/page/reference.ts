// The `reference` suite: Ignis's particle draw against a hand-written draw of the same look on the
// same state, raw WebGPU (bench/deno/raw-reference.ts, shared with the Deno benchmark) or raw
// WebGL2 (raw-webgl2.ts) on the same device, interleaved frame by frame: e2e (record, submit,
// wait for the GPU) and CPU time (record and submit) of a draw-only frame into an offscreen
// target of the canvas size.
import {
  TextureUsage,
  createParticleSystem,
  orbitCamera,
  resolveOptions,
  WebGL2Device,
  type Device,
  type WebGPUDevice,
} from '../../src/index.js';
import { RawReference } from '../deno/raw-reference.js';
import { RawWebGL2Reference } from './raw-webgl2.js';
import type { Measured, Scenario } from './bench.js';

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)] as number);
};

export async function runReference(
  device: Device,
  s: Scenario,
  adapter: string,
): Promise<Measured> {
  const mode = s.drawMode === 'pulled' ? 'pulled' : 'instanced';
  const ps = await createParticleSystem(device, {
    count: s.count,
    path: s.backend === 'webgpu' ? 'compute' : 'pingpong',
    drawMode: mode,
  });
  for (let i = 0; i < s.preroll; i += 10) {
    const enc = device.createCommandEncoder();
    for (let k = i; k < Math.min(s.preroll, i + 10); k++) ps.update(enc, 0.1);
    device.queue.submit([enc.finish()]);
  }
  const state = await ps.read();
  const o = resolveOptions({ count: s.count });
  const look = {
    colors: o.colors,
    stops: o.colorStops,
    sizes: [o.sizeOverLife[0], o.sizeOverLife[1], o.size] as [number, number, number],
  };
  const camera = orbitCamera({ aspect: s.width / s.height });
  const target = device.createTexture({
    label: 'reference target',
    size: { width: s.width, height: s.height },
    format: 'rgba8unorm',
    usage: TextureUsage.RENDER_ATTACHMENT,
  });
  let raw: { frame(): void; destroy(): void };
  if (device instanceof WebGL2Device) {
    const r = new RawWebGL2Reference(device.gl, state, { width: s.width, height: s.height });
    raw = {
      frame: () => {
        r.frame(mode, camera, look);
        device.resetState(); // the raw calls changed GL state under Ignis's cache
      },
      destroy: () => r.destroy(),
    };
  } else {
    const gpu = (device as WebGPUDevice).gpu;
    const r = new RawReference(gpu, 'rgba8unorm', {
      position: new Float32Array(state.position),
      velocity: new Float32Array(state.velocity),
    });
    const view = (target as unknown as { gpu: GPUTexture }).gpu.createView();
    raw = { frame: () => r.frame(mode, view, camera, look), destroy: () => r.destroy() };
  }
  const ignisFrame = (): void => {
    const enc = device.createCommandEncoder({ label: 'reference: Ignis draw' });
    ps.prepareDraw(enc, camera, target);
    const pass = enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
    ps.draw(pass, camera);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  const e2e = { ignis: [] as number[], raw: [] as number[] };
  const cpu = { ignis: [] as number[], raw: [] as number[] };
  const start = performance.now();
  for (let i = 0; i < s.warmup + s.frames; i++) {
    if (i > s.warmup + 4 && performance.now() - start > s.budgetMs) break;
    // alternate which goes first, so neither always follows the other
    const order = i % 2 === 0 ? (['ignis', 'raw'] as const) : (['raw', 'ignis'] as const);
    for (const who of order) {
      const t0 = performance.now();
      if (who === 'ignis') ignisFrame();
      else raw.frame();
      const t1 = performance.now();
      // one wait for both: the same queue (WebGPU) or the same GL context (WebGL2)
      await device.queue.onSubmittedWorkDone();
      if (i < s.warmup) continue;
      cpu[who].push(t1 - t0);
      e2e[who].push(performance.now() - t0);
    }
  }
  const result: Measured = {
    backend: device.caps.backend,
    adapter,
    e2eMs: e2e.ignis,
    rafMs: [],
    cpuMs: cpu.ignis,
    gpuUpdateMs: null,
    gpuDrawMs: null,
    gpuSpansMs: null,
    describe: `Ignis ${ps.path} ${mode} draw vs a hand-written ${device.caps.backend} draw; median e2e ${median(e2e.ignis).toFixed(2)} vs ${median(e2e.raw).toFixed(2)} ms`,
    drawn: mode,
    reference: { e2eMs: e2e.raw, cpuMs: cpu.raw },
    gpuBytes: device.stats().total.bytes,
    heapBytes: null,
    alive: s.count,
    caps: null,
  };
  (window as unknown as { __cleanup: () => void }).__cleanup = () => {
    raw.destroy();
    target.destroy();
    ps.destroy();
    device.destroy();
  };
  return result;
}
