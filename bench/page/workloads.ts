// What a benchmark scenario runs each frame, behind one interface so the measuring loops in
// bench.ts are shared: the post-process chain alone, the blur alone, a whole frame (particles
// drawn into the HDR target, then the chain), the CPU loops and the portable flock. (Particles
// alone run as a scene through the scene kit: check/scenes/particles.ts.)
import {
  BufferUsage,
  blur,
  bloom,
  createParticleSystem,
  createPostProcess,
  grade,
  orbitCamera,
  toHalfs,
  toneMap,
  TextureUsage,
  type Device,
  type ParticleSystem,
  type PostProcess,
  type QuerySet,
  type Texture,
} from '../../src/all.js';
import type { Scenario } from './bench.js';
import { resolveOptions } from '../../src/particles/index.js';
import { createState, stepState } from '../../src/testing.js';
import { stepStateFast } from '../../src/particles/cpu-step.js';
import { plainStep } from './plain-cpu.js';
import { PortableFlock } from '../../demos/boids-portable/flock.js';
import { createPortableCompute } from '../../src/compute/portable/index.js';
import { LIFE } from '../../tests/gpu/page/portable-kernels.js';

const DT = 1 / 60;

export interface Workload {
  /** Query pairs written per frame (pair i: queries 2i, 2i + 1). */
  readonly pairs: number;
  /** GPU spans reported, each the sum of some pairs. */
  readonly spans: Record<string, number[]>;
  /** Path and reason, for the record. */
  readonly describe: string;
  /** Records and submits one frame, writing the pairs into `querySet` when given. */
  frame(querySet: QuerySet | null): void;
  /** Update-only work before measuring (the fountain's steady state). */
  preroll(steps: number): Promise<void>;
  /** The draw mode particles are drawn with (what 'auto' chose), where there are particles. */
  readonly drawn?: string;
  /** Resolves once the workload draws as it will be measured (drawMode 'auto' has decided). */
  ready(): Promise<void>;
  /** Particles alive at the end, where there are particles. */
  alive(): Promise<number | null>;
  destroy(): void;
}

const EFFECTS = () => [
  bloom(),
  toneMap({ operator: 'agx' }),
  grade({ contrast: 1.05, saturation: 1.1, vignette: 0.2 }),
];

/** A fixed HDR test image for the chain alone: a dark gradient with bright spots (values up to 8). */
function hdrScene(device: Device, post: PostProcess): void {
  const { width, height } = post;
  const data = new Float32Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const spot = (x * 7919 + y * 104729) % 997 === 0 ? 8 : 0;
      data[i] = 0.2 * (x / width) + spot;
      data[i + 1] = 0.15 * (y / height) + spot * 0.6;
      data[i + 2] = 0.1 + spot * 0.3;
      data[i + 3] = 1;
    }
  device.queue.writeTexture(
    { texture: post.target },
    toHalfs(data),
    { bytesPerRow: width * 8 },
    { width, height },
  );
}

async function particles(
  device: Device,
  s: Scenario,
): Promise<{ ps: ParticleSystem; preroll: (steps: number) => Promise<void> }> {
  const ps = await createParticleSystem(device, {
    count: s.count,
    path:
      s.path === 'fragment'
        ? 'pingpong'
        : ((s.particlePath ?? s.path) as 'compute' | 'pingpong' | 'cpu'),
    drawMode: s.drawMode,
  });
  return {
    ps,
    async preroll(steps) {
      for (let i = 0; i < steps; i += 10) {
        const encoder = device.createCommandEncoder({ label: 'bench preroll' });
        for (let k = i; k < Math.min(steps, i + 10); k++) ps.update(encoder, 0.1);
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
      }
    },
  };
}

const ts = (q: QuerySet | null, pair: number) =>
  q
    ? { querySet: q, beginningOfPassWriteIndex: 2 * pair, endOfPassWriteIndex: 2 * pair + 1 }
    : undefined;

/**
 * The CPU update alone, no GPU: Ignis's CPU path loop, the readable reference it is checked
 * against, and a plain hand-written loop of the same rule (plain-cpu.ts). A frame is one step.
 */
function cpuLoop(s: Scenario): Workload {
  const o = resolveOptions({ count: s.count });
  const state = createState(o);
  let n = 0;
  const step =
    s.path === 'plain'
      ? () => plainStep(n, DT, state.position, state.velocity)
      : s.path === 'reference'
        ? () => stepState(o, n, DT, state)
        : () => stepStateFast(o, n, DT, state);
  return {
    pairs: 0,
    spans: {},
    describe: `${s.path} loop, ${s.count} particles`,
    ready: async () => {},
    frame() {
      n++;
      step();
    },
    preroll: async (steps) => {
      for (let i = 0; i < steps; i++) {
        n++;
        step();
      }
    },
    alive: async () => null,
    destroy: () => {},
  };
}

/** The portable flock (demos/boids-portable): one WGSL gather kernel on the scenario's path, plus its draw. */
function portable(device: Device, s: Scenario): Workload {
  const flock = new PortableFlock(device, s.count, s.path as 'compute' | 'pingpong' | 'cpu');
  const surface = device.surface!;
  const frame = (): void => {
    const encoder = device.createCommandEncoder({ label: 'bench flock' });
    flock.step(encoder);
    const pass = encoder.beginRenderPass({
      label: 'bench flock draw',
      colorAttachments: [
        { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
      ],
    });
    flock.render(pass, surface.format);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
  return {
    pairs: 0,
    spans: {},
    describe: `${flock.sim.path} (${flock.sim.reason}), ${s.count} boids`,
    ready: async () => {},
    frame,
    preroll: async () => {},
    alive: async () => null,
    destroy: () => flock.destroy(),
  };
}

/**
 * Life on an n×n grid (tests/gpu/page/portable-kernels.ts, written as public WebGPU samples write
 * it: a 2-D grid, an override workgroup size, writes through a wrapping index): one step per frame
 * on the scenario's path, then the canvas cleared (the step is the work measured).
 */
function portableLife(device: Device, s: Scenario): Workload {
  const n = Math.round(Math.sqrt(s.count));
  const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  const size = device.createBuffer({ label: 'life size', size: 16, usage });
  device.queue.writeBuffer(size, 0, new Uint32Array([n, n, 0, 0]));
  const cells = Uint32Array.from({ length: n * n }, (_, i) =>
    Number((Math.imul(i, 2654435761) >>> 0) % 7 < 3),
  );
  const a = device.createBuffer({ label: 'life a', size: 4 * n * n, usage });
  const b = device.createBuffer({ label: 'life b', size: 4 * n * n, usage });
  device.queue.writeBuffer(a, 0, cells);
  const sim = createPortableCompute(device, {
    code: LIFE,
    count: [n, n],
    path: s.path as 'compute' | 'pingpong' | 'cpu',
    label: 'life',
  });
  const surface = device.surface!;
  let flip = false;
  const frame = (): void => {
    const encoder = device.createCommandEncoder({ label: 'bench life' });
    sim.dispatch(encoder, { size, current: flip ? b : a, next: flip ? a : b });
    flip = !flip;
    encoder
      .beginRenderPass({
        label: 'bench life present',
        colorAttachments: [
          { texture: surface.getCurrentTexture(), loadOp: 'clear', clearValue: [0, 0, 0, 1] },
        ],
      })
      .end();
    device.queue.submit([encoder.finish()]);
  };
  return {
    pairs: 0,
    spans: {},
    describe: `${sim.path} (${sim.reason}), life ${n}×${n}`,
    ready: async () => {},
    frame,
    preroll: async () => {},
    alive: async () => null,
    destroy: () => {
      sim.destroy();
      for (const x of [size, a, b]) x.destroy();
    },
  };
}

export async function createWorkload(device: Device, s: Scenario): Promise<Workload> {
  if (s.kind === 'cpu') return cpuLoop(s);
  if (s.kind === 'portable')
    return s.program === 'life' ? portableLife(device, s) : portable(device, s);
  const surface = device.surface!;
  const camera = orbitCamera({ aspect: s.width / s.height });
  if (s.kind === 'post' || s.kind === 'frame') {
    const post = createPostProcess(device, {
      width: s.width,
      height: s.height,
      path: s.postPath,
      effects: EFFECTS(),
    });
    const names = post.passes;
    const bloomPairs = names.map((n, i) => (n.startsWith('bloom') ? i : -1)).filter((i) => i >= 0);
    const tonePair = names.length - 1;
    if (s.kind === 'post') {
      hdrScene(device, post);
      return {
        pairs: names.length,
        spans: { bloom: bloomPairs, 'tone map + grade': [tonePair] },
        describe: `${post.path} (${post.reason})`,
        frame(q) {
          const encoder = device.createCommandEncoder({ label: 'bench post' });
          post.apply(
            encoder,
            surface.getCurrentTexture(),
            q ? { timestamps: { querySet: q, first: 0 } } : {},
          );
          device.queue.submit([encoder.finish()]);
        },
        preroll: async () => {},
        ready: async () => {},
        alive: async () => null,
        destroy: () => post.destroy(),
      };
    }
    const { ps, preroll } = await particles(device, s);
    const hasUpdatePass = ps.path !== 'cpu';
    const offset = 3; // pairs 0, 1, 2: update, draw, the splat's compute pass
    return {
      pairs: offset + names.length,
      get spans() {
        return {
          ...(hasUpdatePass ? { update: [0] } : {}),
          draw: ps.drawMode === 'splat' ? [1, 2] : [1],
          bloom: bloomPairs.map((i) => i + offset),
          'tone map + grade': [tonePair + offset],
        };
      },
      get describe() {
        return `particles ${ps.path} drawn ${ps.drawMode}, post ${post.path} (${post.reason})`;
      },
      ready: async () => void (await ps.drawModeDecided),
      frame(q) {
        const encoder = device.createCommandEncoder({ label: 'bench frame + post' });
        ps.update(encoder, DT, hasUpdatePass && q ? { timestampWrites: ts(q, 0) } : {});
        ps.prepareDraw(encoder, camera, post.target, q ? { timestampWrites: ts(q, 2) } : {});
        const pass = encoder.beginRenderPass({
          label: 'bench draw',
          colorAttachments: [{ texture: post.target, loadOp: 'clear', clearValue: [0, 0, 0, 1] }],
          timestampWrites: ts(q, 1),
        });
        ps.draw(pass, camera);
        pass.end();
        post.apply(
          encoder,
          surface.getCurrentTexture(),
          q ? { timestamps: { querySet: q, first: 2 * offset } } : {},
        );
        device.queue.submit([encoder.finish()]);
      },
      preroll,
      alive: async () => (await ps.stats()).alive,
      destroy: () => {
        ps.destroy();
        post.destroy();
      },
    };
  }
  // blur alone: an HDR image blurred into an HDR texture, then shown (untimed) through a copy-free tone map
  const b = blur(device, { radius: s.radius ?? 8, path: s.postPath });
  const show = createPostProcess(device, {
    width: s.width,
    height: s.height,
    path: s.postPath,
    effects: [toneMap({ operator: 'agx' })],
  });
  hdrScene(device, show);
  // the blur reads a copy of the test image and its output is what the canvas shows
  const dst: Texture = device.createTexture({
    label: 'bench blur out',
    size: { width: s.width, height: s.height },
    format: 'rgba16float',
    usage: b.dstUsage | TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_SRC,
  });
  const src: Texture = device.createTexture({
    label: 'bench blur in',
    size: { width: s.width, height: s.height },
    format: 'rgba16float',
    usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
  });
  const copy = { width: s.width, height: s.height };
  return {
    pairs: 2,
    spans: { 'blur horizontal': [0], 'blur vertical': [1] },
    describe: `${b.path} blur, radius ${b.radius}`,
    frame(q) {
      const encoder = device.createCommandEncoder({ label: 'bench blur' });
      b.apply(encoder, src, dst, 'render', q ? { timestamps: { querySet: q, first: 0 } } : {});
      encoder.copyTextureToTexture({ texture: dst }, { texture: show.target }, copy);
      show.apply(encoder, surface.getCurrentTexture());
      device.queue.submit([encoder.finish()]);
    },
    ready: async () => {},
    preroll: async () => {
      // the source: the test image, copied once out of the chain's target
      const encoder = device.createCommandEncoder({ label: 'bench blur source' });
      encoder.copyTextureToTexture({ texture: show.target }, { texture: src }, copy);
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
    },
    alive: async () => null,
    destroy: () => {
      src.destroy();
      b.destroy();
      show.destroy();
      dst.destroy();
    },
  };
}
