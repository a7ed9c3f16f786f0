// Portable kernels written elsewhere, on a real GPU: each runs as WebGPU compute (Deno's WebGPU)
// and through its JavaScript translation (the CPU path, over host copies), and this reports how far
// the two are apart after 1, 10 and 100 steps — float kernels in ulp, integer kernels in words
// that differ — plus GPU and CPU ms per step. The kernels: Life on a 2-D grid, particles in a
// struct with members before its array, a 3×3 blur of an rgba32float texture, the other kernels of
// tests/gpu/cases/portable-world.ts (var<private>, matrices, bits and packing, pointers, indices
// past the end, workgroup memory, barriers and atomics), and the corpus's
// runnable Babylon.js shaders (their WGSL and buffers in a JSON file written from
// tests/corpus/babylon.ts, since the package is not carried to the GPU machine). Usage:
//   deno run -A bench/deno/portable-corpus.ts <corpus.json> <out-dir>
// Writes <out-dir>/portable-corpus.json and portable-corpus.md.
declare const Deno: {
  args: string[];
  version: { deno: string };
  readTextFile(path: string | URL): Promise<string>;
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { createDevice, BufferUsage, TextureUsage, createPortableCompute } = lib;
const kernels = (await import(
  new URL('../../tests/gpu/page/portable-kernels.ts', import.meta.url).href
)) as typeof import('../../tests/gpu/page/portable-kernels.js');

type Count = number | [number, number] | [number, number, number];
interface Kernel {
  name: string;
  wgsl: string;
  count: Count;
  buffers: Record<string, { uniform?: boolean; words: number[] | Uint32Array }>;
  texture?: { name: string; width: number; height: number; texels: Float32Array };
  outputs: string[];
  floats: boolean;
  /** Outputs of integers among float ones: compared word for word. */
  exact?: string[];
  /** Ping-pong: these two bindings swap after each step. */
  swap?: [string, string];
}

const [corpusPath = '.gpu-tools/corpus.json', outDir = '.'] = Deno.args;
const device = await createDevice({ backend: 'webgpu', hostShadows: true });
const adapter =
  `${device.caps.adapter.vendor} ${device.caps.adapter.architecture} ${device.caps.adapter.description}`.trim();
const CHECKPOINTS = [1, 10, 100];

const words = (a: number[]) => new Uint32Array(a);
const f32words = (a: Float32Array) => new Uint32Array(a.buffer);
const life = (n: number): Kernel => ({
  name: `Life ${n}×${n} (2-D grid, scatter)`,
  wgsl: kernels.LIFE,
  count: [n, n],
  buffers: {
    size: { words: [n, n, 0, 0] },
    current: {
      words: Uint32Array.from({ length: n * n }, (_, i) =>
        Number((Math.imul(i, 2654435761) >>> 0) % 7 < 3),
      ),
    },
    next: { words: new Uint32Array(n * n) },
  },
  outputs: ['next'],
  floats: false,
  swap: ['current', 'next'],
});
const particles = (n: number): Kernel => {
  const w = new Uint32Array(4 + 4 * n);
  const f = new Float32Array(w.buffer);
  w.set([n - 7, 0, 0xdeadbeef, 7]);
  f[1] = 9.8;
  for (let i = 0; i < 4 * n; i++) f[4 + i] = Math.sin(i * 0.37) * 2;
  return {
    name: `particles in a struct with members (${n})`,
    wgsl: kernels.PARTICLES_HEADER,
    count: n,
    buffers: {
      params: { words: f32words(new Float32Array([1 / 60, 0.99, 0, 0])) },
      ps: { words: w },
    },
    outputs: ['ps'],
    floats: true,
  };
};
const blur = (w: number, h: number): Kernel => ({
  name: `3×3 blur of an rgba32float texture ${w}×${h}`,
  wgsl: kernels.BLUR,
  count: [w, h],
  buffers: { dst: { words: new Uint32Array(4 * w * h) } },
  texture: {
    name: 'src',
    width: w,
    height: h,
    texels: Float32Array.from({ length: 4 * w * h }, (_, i) => Math.sin(i * 0.31) * 8),
  },
  outputs: ['dst'],
  floats: true,
});

const places = (globalThis.navigator as Navigator | undefined)?.gpu?.wgslLanguageFeatures?.has(
  'unrestricted_pointer_parameters',
);
console.log(`unrestricted_pointer_parameters: ${places ? 'yes' : 'no'}`);

/** The portable-world kernels (tests/gpu/cases/portable-world.ts) with their buffers. */
const world = (): Kernel[] => {
  const { params, items } = kernels.matricesBuffers(150);
  const indices = new Float32Array(16);
  indices.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  new Int32Array(indices.buffer)[12] = -3;
  const swirl = Float32Array.from({ length: 4 * 4096 }, (_, k) => Math.sin(k) * 1.5);
  const tallies = () => Uint32Array.from({ length: 4 * 4096 }, (_, k) => k * 77);
  return [
    {
      name: 'random numbers from var<private> state (4096)',
      wgsl: kernels.PRIVATE_RNG,
      count: 4096,
      buffers: {
        particles: { words: kernels.privateRngParticles(4096) },
        draws_made: { words: new Uint32Array(4096) },
      },
      outputs: ['particles', 'draws_made'],
      exact: ['draws_made'],
      floats: true,
    },
    {
      name: 'matrices (150)',
      wgsl: kernels.MATRICES,
      count: 150,
      buffers: {
        params: { uniform: true, words: f32words(params) },
        items: { words: f32words(items) },
        out: { words: new Uint32Array(12 * 150) },
        dets: { words: new Uint32Array(150) },
      },
      outputs: ['out', 'dets'],
      floats: true,
    },
    {
      name: 'integer bits and packing (4096)',
      wgsl: kernels.BITS,
      count: 4096,
      buffers: {
        items: { words: kernels.bitsItems(4096) },
        ints: { words: new Uint32Array(36 * 4096) },
        floats: { words: new Uint32Array(28 * 4096) },
      },
      outputs: ['items', 'ints', 'floats'],
      exact: ['items', 'ints'],
      floats: true,
    },
    ...[
      ['pointer parameters (4096)', kernels.POINTERS],
      // WGSL's unrestricted_pointer_parameters: only where this WebGPU has it
      ...(places ? [['pointers to members and elements (4096)', kernels.POINTER_PLACES]] : []),
    ].map(([name, wgsl]) => ({
      name: name as string,
      wgsl: wgsl as string,
      count: 4096,
      buffers: { particles: { words: f32words(swirl) }, tallies: { words: tallies() } },
      outputs: ['particles', 'tallies'],
      exact: ['tallies'],
      floats: true,
    })),
    // cooperative kernels: workgroup memory, barriers, atomics (the CPU path runs them in turns)
    {
      name: 'tree sum in workgroup memory (16384)',
      wgsl: kernels.TREE_SUM,
      count: 16384,
      buffers: {
        a: {
          words: Uint32Array.from({ length: 16384 }, (_, i) => Math.imul(i, 2654435761) >>> 16),
        },
        sums: { words: new Uint32Array(256) },
      },
      outputs: ['sums'],
      floats: false,
    },
    {
      name: 'atomicAdd into storage and a single value (16384)',
      wgsl: kernels.SUM_ATOMIC,
      count: 16384,
      buffers: {
        a: {
          words: Uint32Array.from({ length: 16384 }, (_, i) => Math.imul(i, 2246822519) >>> 16),
        },
        total: { words: new Uint32Array(4) },
        counter: { words: new Uint32Array(4) },
      },
      outputs: ['total', 'counter'],
      floats: false,
    },
    {
      name: 'every atomic built-in (64)',
      wgsl: kernels.ATOMICS,
      count: 64,
      buffers: {
        a: {
          words: Uint32Array.from(
            { length: 64 },
            (_, i) => (Math.imul(i ^ 3, 2654435761) >>> 7) & 0xff,
          ),
        },
        u: { words: new Uint32Array(12) },
        s: { words: new Uint32Array(4) },
      },
      outputs: ['u', 's'],
      floats: false,
    },
    {
      name: 'var<private> across barriers (4096)',
      wgsl: kernels.BARRIER_PRIVATES,
      count: 4096,
      buffers: { out: { words: new Uint32Array(4096) } },
      outputs: ['out'],
      floats: false,
    },
    {
      name: 'workgroupUniformLoad (4096)',
      wgsl: kernels.UNIFORM_LOAD,
      count: 4096,
      buffers: { out: { words: new Uint32Array(4096) } },
      outputs: ['out'],
      floats: false,
    },
    {
      name: 'indices past the end (4096)',
      wgsl: kernels.INDICES,
      count: 4096,
      buffers: {
        params: { uniform: true, words: f32words(indices) },
        out: { words: new Uint32Array(4 * 4096) },
      },
      outputs: ['out'],
      floats: true,
    },
  ];
};

const corpus = JSON.parse(await Deno.readTextFile(corpusPath)) as Array<{
  name: string;
  wgsl: string;
  count: Count;
  buffers: Record<string, { uniform: boolean; words: number[] }>;
  outputs: string[];
  floats: boolean;
  exact?: string[];
}>;
const all: Kernel[] = [
  life(256),
  life(1024),
  particles(4096),
  blur(256, 256),
  ...world(),
  ...corpus.map((c) => ({ ...c, name: `Babylon.js ${c.name}` })),
];

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2 : NaN;
};
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const f = new Float32Array(new Uint32Array([a, b]).buffer);
  if (Number.isNaN(f[0]) && Number.isNaN(f[1])) return 0;
  const o = (x: number): number =>
    x & 0x80000000 ? 0x80000000 - (x & 0x7fffffff) : x + 0x80000000;
  return Math.abs(o(a >>> 0) - o(b >>> 0));
}

/** The outputs at each checkpoint, and ms per step, on `path`. */
async function run(k: Kernel, path: 'compute' | 'cpu') {
  const buffers: Record<string, ReturnType<typeof device.createBuffer>> = {};
  for (const [name, b] of Object.entries(k.buffers)) {
    const data = b.words instanceof Uint32Array ? b.words : words(b.words);
    buffers[name] = device.createBuffer({
      label: name,
      size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
      usage: b.uniform
        ? BufferUsage.UNIFORM | BufferUsage.COPY_DST
        : BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(buffers[name]!, 0, data);
  }
  const textures: Record<string, ReturnType<typeof device.createTexture>> = {};
  if (k.texture) {
    const t = device.createTexture({
      size: { width: k.texture.width, height: k.texture.height },
      format: 'rgba32float',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    });
    device.queue.writeTexture(
      { texture: t },
      k.texture.texels,
      { bytesPerRow: 16 * k.texture.width },
      { width: k.texture.width, height: k.texture.height },
    );
    textures[k.texture.name] = t;
  }
  const sim = createPortableCompute(device, { code: k.wgsl, count: k.count, path, textures });
  const out: Array<Record<string, Uint32Array>> = [];
  const ms: number[] = [];
  for (let step = 1; step <= 100; step++) {
    const t0 = performance.now();
    const enc = device.createCommandEncoder();
    sim.dispatch(enc, buffers);
    device.queue.submit([enc.finish()]);
    if (CHECKPOINTS.includes(step)) {
      const read: Record<string, Uint32Array> = {};
      for (const name of k.outputs) read[name] = new Uint32Array(await buffers[name]!.read());
      out.push(read);
    } else if (path === 'compute' && step % 10 === 5) {
      await buffers[k.outputs[0]!]!.read(); // a wait: the step's time includes the GPU's
      ms.push(performance.now() - t0);
    } else if (path === 'cpu') ms.push(performance.now() - t0);
    if (k.swap) {
      const [a, b] = k.swap;
      [buffers[a], buffers[b]] = [buffers[b]!, buffers[a]!];
    }
    // the CPU path is the slow one: 10 steps are enough to time it past 1M invocations
    if (path === 'cpu' && step >= 10 && ms.length >= 5 && median(ms) > 2000) break;
  }
  sim.destroy();
  for (const b of Object.values(buffers)) b.destroy();
  for (const t of Object.values(textures)) t.destroy();
  return { out, ms: median(ms), path: sim.path };
}

const rows: Array<Record<string, unknown>> = [];
for (const k of all) {
  const gpu = await run(k, 'compute');
  const cpu = await run(k, 'cpu');
  const checkpoints = CHECKPOINTS.map((step, i) => {
    if (!cpu.out[i]) return { step, compared: false };
    let worst = 0;
    let differ = 0;
    let total = 0;
    let abs = 0;
    let integers = 0;
    const firstIntegers: string[] = []; // output[word]: GPU / CPU, in hex
    for (const name of k.outputs) {
      const a = gpu.out[i]![name]!;
      const b = cpu.out[i]![name]!;
      const fa = new Float32Array(a.buffer);
      const fb = new Float32Array(b.buffer);
      const floats = k.floats && !k.exact?.includes(name);
      for (let j = 0; j < a.length; j++) {
        const d = floats ? ulps(a[j]!, b[j]!) : a[j] === b[j] ? 0 : 1;
        if (d) differ++;
        if (d && !floats && integers++ < 8)
          firstIntegers.push(`${name}[${j}]: ${a[j]!.toString(16)} / ${b[j]!.toString(16)}`);
        else worst = Math.max(worst, d);
        if (floats && d) abs = Math.max(abs, Math.abs(fa[j]! - fb[j]!));
        total++;
      }
    }
    return { step, compared: true, differ, total, worst, abs, integers, firstIntegers };
  });
  rows.push({
    kernel: k.name,
    floats: k.floats,
    gpuMsPerStep: gpu.ms,
    cpuMsPerStep: cpu.ms,
    checkpoints,
  });
  console.log(k.name, JSON.stringify(checkpoints), gpu.ms.toFixed(3), cpu.ms.toFixed(1));
}

const md = [
  `# Portable kernels written elsewhere: WebGPU compute against the CPU translation`,
  '',
  `${adapter} · Deno ${Deno.version.deno} · ${new Date().toISOString().slice(0, 10)}`,
  '',
  '| kernel | step 1 | step 10 | step 100 | compute ms/step (wall, with a wait) | CPU ms/step |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const c = r.checkpoints as Array<{
      compared: boolean;
      differ?: number;
      total?: number;
      worst?: number;
      abs?: number;
      integers?: number;
    }>;
    const cell = (x: (typeof c)[number]) =>
      !x.compared
        ? 'not run'
        : x.differ === 0
          ? 'same bits'
          : r.floats
            ? `${x.differ}/${x.total} words, ≤ ${x.worst} ulp, ≤ ${(x.abs ?? 0).toExponential(1)} apart${x.integers ? ` (${x.integers} integer words differ)` : ''}`
            : `${x.differ}/${x.total} words differ`;
    return `| ${r.kernel} | ${c.map(cell).join(' | ')} | ${(r.gpuMsPerStep as number).toFixed(3)} | ${(r.cpuMsPerStep as number).toFixed(1)} |`;
  }),
  '',
].join('\n');
await Deno.mkdir(outDir, { recursive: true });
await Deno.writeTextFile(
  `${outDir}/portable-corpus.json`,
  JSON.stringify({ adapter, rows }, null, 2),
);
await Deno.writeTextFile(`${outDir}/portable-corpus.md`, md);
console.log(md);
