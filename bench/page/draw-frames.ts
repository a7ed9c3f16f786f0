// The frames of the `draws` suite that need no browser (docs/benchmarks.md, "The RHI's cost per
// draw"): Ignis's and a hand-written WebGPU frame of N draws, each with its own uniform slice, and
// the interleaved burst measurement. The page (draws.ts) adds the hand-written WebGL2 frame and
// three.js; the Deno benchmark (bench/deno/draws.ts) runs these on a GPU server. Nothing here is
// imported as a value from src/ (Deno loads the built library), so Ignis's usage flags come in.
import type {
  CommandBuffer,
  Device,
  RenderBundle,
  RenderPass,
  RenderPipeline,
} from '../../src/all.js';

export const SLOT = 256;
export const SIZE = 256;
/** Draws per burst: about this many, whatever N (at least one frame). */
export const DRAWS_PER_BURST = 20_000;
export const WARMUP_ROUNDS = 3;

export const WGSL = (tint: string) => `struct Draw { offset: vec4f, color: vec4f };
@group(0) @binding(0) var<uniform> d: Draw;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vec4f(d.offset.xy + vec2f(f32(i & 1u), f32(i >> 1u)) * 0.02, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return d.color * ${tint}; }`;
export const GLSL_VS = `#version 300 es
layout(std140) uniform Draw { vec4 offset; vec4 color; };
void main() {
  gl_Position = vec4(offset.xy + vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 0.02, 0.0, 1.0);
}`;
export const GLSL_FS = (tint: string) => `#version 300 es
precision highp float;
layout(std140) uniform Draw { vec4 offset; vec4 color; };
out vec4 outColor;
void main() { outColor = color * ${tint}; }`;
export const TINTS = ['0.5', '1.0'];

export interface Frames {
  /** Records and submits one frame of `n` draws. */
  frame(n: number): void;
  /** Resolves when the GPU has done what was submitted. */
  idle(): Promise<void>;
  /** Pixels the last frame lit (Ignis and the hand-written frame must agree: the same draws). */
  lit?(): Promise<number>;
  destroy(): void;
}

/** Per-draw uniforms for the largest N: a position in [-1, 1)² and a colour, 64 floats a slot. */
export function drawData(max: number): Float32Array<ArrayBuffer> {
  const data = new Float32Array((SLOT / 4) * max);
  for (let i = 0; i < max; i++) {
    const o = (SLOT / 4) * i;
    data[o] = ((i * 37) % 97) / 48.5 - 1;
    data[o + 1] = ((i * 53) % 89) / 44.5 - 1;
    data.set([1, (i % 7) / 7, (i % 5) / 5, 1], o + 4);
  }
  return data;
}

/** `make(n)` once per N: a bundle per draw count, recorded at its first frame (a warm-up round's). */
function perCount<T>(make: (n: number) => T): (n: number) => T {
  const made = new Map<number, T>();
  return (n) => {
    if (!made.has(n)) made.set(n, make(n));
    return made.get(n) as T;
  };
}

export function ignisFrames(
  device: Device,
  max: number,
  data: Float32Array<ArrayBuffer>,
  /** Ignis's BufferUsage and TextureUsage (from the page's src/ or Deno's built library). */
  flags: {
    BufferUsage: { UNIFORM: number; COPY_DST: number };
    TextureUsage: { RENDER_ATTACHMENT: number; COPY_SRC: number };
  },
  /**
   * `bundle`: record the draws once per N in a render bundle, which each frame's pass executes.
   * `part` (WebGL2; bench/cpu-probe-draws.mjs --split): the pass frame in two — `'record'`, its
   * recording alone (recorded and finished, never submitted: no GL call), or `'replay'`, the
   * uniforms written and one recording per N replayed by the queue (every GL call of the frame,
   * nothing recorded; a command buffer is submitted once, so this goes past `submit`).
   */
  options: { bundle?: boolean; part?: 'record' | 'replay' } = {},
): Frames {
  const { BufferUsage, TextureUsage } = flags;
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
  const record = (
    r: Pick<RenderPass, 'setPipeline' | 'setUniformBuffer' | 'draw'>,
    n: number,
  ): void => {
    for (let i = 0; i < n; i++) {
      if (i % 100 === 0) r.setPipeline(pipelines[(i / 100) & 1] as RenderPipeline);
      r.setUniformBuffer(0, uniforms, SLOT * i, 32);
      r.draw(3);
    }
  };
  const bundleOf = perCount((n): RenderBundle => {
    const encoder = device.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    record(encoder, n);
    return encoder.finish();
  });
  /** A pass that clears the target (its encoder: `enc`). */
  let enc: ReturnType<Device['createCommandEncoder']>;
  const passOf = (): RenderPass => {
    enc = device.createCommandEncoder();
    return enc.beginRenderPass({
      colorAttachments: [{ texture: target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
    });
  };
  /** A frame's start: the uniforms written, the pass begun. */
  const begin = (n: number): RenderPass => {
    device.queue.writeBuffer(uniforms, 0, data, 0, (SLOT / 4) * n);
    return passOf();
  };
  /** The pass's draws recorded, the command buffer not submitted. */
  const recording = (n: number): CommandBuffer => {
    const pass = passOf();
    record(pass, n);
    pass.end();
    return enc.finish();
  };
  const recordingOf = perCount(recording);
  // the queue's replay of a command buffer, which `submit` calls once it has checked the buffer
  const queue = device.queue as unknown as { submitImpl(buffers: CommandBuffer[]): void };
  // each kind of frame a function of its own name, so that a profile tells them apart
  // (bench/gecko-profile.mjs)
  function ignisPassFrame(n: number): void {
    device.queue.writeBuffer(uniforms, 0, data, 0, (SLOT / 4) * n);
    device.queue.submit([recording(n)]);
  }
  function ignisBundleFrame(n: number): void {
    const pass = begin(n);
    pass.executeBundles([bundleOf(n)]);
    pass.end();
    device.queue.submit([enc.finish()]);
  }
  function ignisRecordOnlyFrame(n: number): void {
    recording(n);
  }
  function ignisReplayOnlyFrame(n: number): void {
    device.queue.writeBuffer(uniforms, 0, data, 0, (SLOT / 4) * n);
    queue.submitImpl([recordingOf(n)]);
  }
  return {
    frame: options.bundle
      ? ignisBundleFrame
      : options.part === 'record'
        ? ignisRecordOnlyFrame
        : options.part === 'replay'
          ? ignisReplayOnlyFrame
          : ignisPassFrame,
    idle: () => device.queue.onSubmittedWorkDone(),
    lit: async () => litPixels((await target.read()) as Uint8Array),
    destroy() {
      uniforms.destroy();
      target.destroy();
    },
  };
}

export function rawWebGPUFrames(
  gpu: GPUDevice,
  max: number,
  data: Float32Array<ArrayBuffer>,
  /**
   * `bundle`: the draws recorded once per N in a GPURenderBundle, which each frame's pass executes;
   * `uploadOnly`: the frame without its draws (the uniforms written, the pass cleared, submitted) —
   * what every contender's frame pays before its first draw.
   */
  options: { bundle?: boolean; uploadOnly?: boolean } = {},
): Frames {
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
  const record = (r: GPURenderCommandsMixin & GPUBindingCommandsMixin, n: number): void => {
    for (let i = 0; i < n; i++) {
      if (i % 100 === 0) r.setPipeline(pipelines[(i / 100) & 1] as GPURenderPipeline);
      offsets[0] = SLOT * i;
      r.setBindGroup(0, group, offsets);
      r.draw(3);
    }
  };
  const bundleOf = perCount((n): GPURenderBundle => {
    const encoder = gpu.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    record(encoder, n);
    return encoder.finish();
  });
  /** A frame's start: the uniforms written, a pass that clears the target (its encoder: `enc`). */
  let enc: GPUCommandEncoder;
  const begin = (n: number): GPURenderPassEncoder => {
    gpu.queue.writeBuffer(buffer, 0, data, 0, (SLOT / 4) * n);
    enc = gpu.createCommandEncoder();
    return enc.beginRenderPass({
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    });
  };
  // each kind of frame a function of its own name (ignisFrames says why)
  function rawPassFrame(n: number): void {
    const pass = begin(n);
    record(pass, n);
    pass.end();
    gpu.queue.submit([enc.finish()]);
  }
  function rawBundleFrame(n: number): void {
    const pass = begin(n);
    pass.executeBundles([bundleOf(n)]);
    pass.end();
    gpu.queue.submit([enc.finish()]);
  }
  function uploadFrame(n: number): void {
    begin(n).end();
    gpu.queue.submit([enc.finish()]);
  }
  return {
    frame: options.bundle ? rawBundleFrame : options.uploadOnly ? uploadFrame : rawPassFrame,
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

/** Pixels of an RGBA8 image that are not the clear colour (black). */
export function litPixels(rgba: Uint8Array, rowBytes = SIZE * 4): number {
  let n = 0;
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const i = y * rowBytes + x * 4;
      if ((rgba[i] as number) + (rgba[i + 1] as number) + (rgba[i + 2] as number) > 0) n++;
    }
  return n;
}

export const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)] as number);
};

/**
 * The contenders' order in round `r`: shuffled, the same for the same `r` (Fisher–Yates on a small
 * LCG seeded by `r`), so that no contender always runs right after the same other one. A rotation
 * (each round starting one later) keeps every contender behind the same one: in the probe two
 * contenders of identical JavaScript read 40–45% apart at 10,000 draws for that alone, one behind
 * GL work and one behind none.
 */
export function roundOrder<K>(names: readonly K[], r: number): K[] {
  const order = names.slice();
  let seed = Math.imul(r + 1, 0x9e3779b1) >>> 0;
  for (let i = order.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j] as K, order[i] as K];
  }
  return order;
}

/**
 * Interleaved bursts: each round every contender (in `roundOrder`'s order) records and submits
 * `frames` frames of `n` draws back to back, timed on the CPU, the GPU waited for before and after,
 * outside the clock. µs per draw for each, after WARMUP_ROUNDS rounds; stops after `budgetMs` once
 * five rounds are counted.
 */
export async function measureDraws<K extends string>(
  contenders: Record<K, Frames>,
  n: number,
  rounds: number,
  budgetMs: number,
  drawsPerBurst = DRAWS_PER_BURST,
): Promise<{ frames: number; us: Record<K, number[]> }> {
  const names = Object.keys(contenders) as K[];
  const frames = Math.max(1, Math.round(drawsPerBurst / n));
  const us = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const start = performance.now();
  for (let r = 0; r < WARMUP_ROUNDS + rounds; r++) {
    if (r > WARMUP_ROUNDS + 4 && performance.now() - start > budgetMs) break;
    for (const who of roundOrder(names, r)) {
      const c = contenders[who];
      await c.idle();
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) c.frame(n);
      const took = performance.now() - t0;
      await c.idle();
      if (r >= WARMUP_ROUNDS) us[who].push((took * 1000) / (frames * n));
    }
  }
  return { frames, us };
}
