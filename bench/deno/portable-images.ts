// Portable image kernels on a real GPU: storage textures (textureStore) and sampling
// (textureSampleLevel with a sampler) run as WebGPU compute (Deno's WebGPU) and on the CPU path
// (their JavaScript translation over host copies), on one device; this reports how far the
// texels are apart — unorm8 in 1/255, halfs in half ulp, floats in ulp — the question being
// whether a GPU's fixed-point filtering and conversions stay within what the browser tests allow
// (1/255, 1 half ulp, 2 ulp). The kernels are tests/gpu/page/portable-kernels.ts's. Usage:
//   deno run -A bench/deno/portable-images.ts <out-dir>
// Writes <out-dir>/portable-images.json and portable-images.md.
declare const Deno: {
  args: string[];
  version: { deno: string };
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
};
const { lib } = (await import(
  new URL('./lib.ts', import.meta.url).href
)) as typeof import('./lib.js');
const { createDevice, BufferUsage, TextureUsage, createPortableCompute, storageTextureUsage } = lib;
const kernels = (await import(
  new URL('../../tests/gpu/page/portable-kernels.ts', import.meta.url).href
)) as typeof import('../../tests/gpu/page/portable-kernels.js');

type Format = 'rgba8unorm' | 'rgba16float' | 'r32float';
const BYTES: Record<Format, number> = { rgba8unorm: 4, rgba16float: 8, r32float: 4 };
interface Image {
  width: number;
  height: number;
  format: Format;
  data: Uint8Array;
}
interface Kernel {
  name: string;
  wgsl: string;
  count: [number, number];
  uniform?: Float32Array;
  storage?: Record<string, Float32Array>;
  sampled: Record<string, Image>;
  samplers?: Record<string, Record<string, string>>;
  outputs: Record<string, Image>;
}

const [outDir = '.'] = Deno.args;
const device = await createDevice({ backend: 'webgpu', hostShadows: true });
const adapter =
  `${device.caps.adapter.vendor} ${device.caps.adapter.architecture} ${device.caps.adapter.description}`.trim();

const picture = (w: number, h: number, seed: number): Uint8Array =>
  Uint8Array.from({ length: 4 * w * h }, (_, i) => (i * seed + (i >> 3) * 7) % 256);
const N = 512;
const KERNELS: Kernel[] = [
  {
    name: `tone (own texel; rgba8unorm and a smaller rgba16float) ${N}²`,
    wgsl: kernels.IMAGE_TONE,
    count: [N, N],
    uniform: new Float32Array([1.5, 0.4, 0, 0]),
    storage: { weights: Float32Array.from({ length: 20 }, (_, i) => 0.5 + ((i * 7) % 5) / 8) },
    sampled: { src: { width: N, height: N, format: 'rgba8unorm', data: picture(N, N, 29) } },
    outputs: {
      bright: { width: N, height: N, format: 'rgba8unorm', data: new Uint8Array(4 * N * N) },
      glow: { width: N / 2, height: N / 2, format: 'rgba16float', data: new Uint8Array(2 * N * N) },
    },
  },
  {
    name: `Sobel into rgba8unorm, rgba16float and r32float ${N}²`,
    wgsl: kernels.IMAGE_EDGES,
    count: [N, N],
    sampled: { src: { width: N, height: N, format: 'rgba8unorm', data: picture(N, N, 53) } },
    outputs: {
      edges: { width: N, height: N, format: 'rgba8unorm', data: new Uint8Array(4 * N * N) },
      hdr: { width: N, height: N, format: 'rgba16float', data: new Uint8Array(8 * N * N) },
      shifted: { width: N, height: N, format: 'r32float', data: new Uint8Array(4 * N * N) },
    },
  },
  {
    name: `textureSampleLevel: bilinear repeat, nearest mirror (${N}² from 97×61 and 7×5)`,
    wgsl: kernels.SAMPLED,
    count: [N, N],
    uniform: new Float32Array([1.7, 1.3, -0.313, 0.237]),
    sampled: {
      photo: { width: 97, height: 61, format: 'rgba8unorm', data: picture(97, 61, 37) },
      tiles: { width: 7, height: 5, format: 'rgba8unorm', data: picture(7, 5, 71) },
    },
    samplers: {
      soft: {
        magFilter: 'linear',
        minFilter: 'linear',
        addressModeU: 'repeat',
        addressModeV: 'repeat',
      },
      blocky: { addressModeU: 'mirror-repeat', addressModeV: 'clamp-to-edge' },
    },
    outputs: {
      linear: { width: N, height: N, format: 'rgba8unorm', data: new Uint8Array(4 * N * N) },
      nearest: { width: N, height: N, format: 'rgba8unorm', data: new Uint8Array(4 * N * N) },
    },
  },
];

/** The kernel's outputs after one dispatch on `path`, as bytes, and the ms the dispatch took. */
async function run(k: Kernel, path: 'compute' | 'cpu') {
  const textures: Record<string, ReturnType<typeof device.createTexture>> = {};
  const make = (name: string, t: Image, usage: number) => {
    const texture = device.createTexture({
      label: name,
      size: { width: t.width, height: t.height },
      format: t.format,
      usage,
    });
    device.queue.writeTexture({ texture }, t.data, { bytesPerRow: t.width * BYTES[t.format] }, t);
    textures[name] = texture;
  };
  for (const [name, t] of Object.entries(k.sampled))
    make(name, t, TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST);
  for (const [name, t] of Object.entries(k.outputs))
    make(name, t, storageTextureUsage(device) | TextureUsage.COPY_SRC);
  const buffers: Record<string, ReturnType<typeof device.createBuffer>> = {};
  if (k.uniform) {
    buffers.params = device.createBuffer({
      size: 16,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(buffers.params, 0, k.uniform);
  }
  for (const [name, data] of Object.entries(k.storage ?? {})) {
    buffers[name] = device.createBuffer({
      size: Math.ceil(data.byteLength / 16) * 16,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(buffers[name], 0, data);
  }
  const samplers = Object.fromEntries(
    Object.entries(k.samplers ?? {}).map(([n, s]) => [n, device.createSampler(s as never)]),
  );
  const sim = createPortableCompute(device, {
    code: k.wgsl,
    count: k.count,
    buffers,
    textures,
    samplers,
    path,
  });
  const t0 = performance.now();
  const encoder = device.createCommandEncoder();
  sim.dispatch(encoder);
  device.queue.submit([encoder.finish()]);
  const out: Record<string, Uint8Array> = {};
  for (const name of Object.keys(k.outputs)) {
    const texels = await textures[name]!.read();
    out[name] = new Uint8Array(texels.buffer, texels.byteOffset, texels.byteLength).slice();
  }
  const ms = performance.now() - t0;
  sim.destroy();
  for (const t of Object.values(textures)) t.destroy();
  for (const b of Object.values(buffers)) b.destroy();
  return { out, ms };
}

const ordered16 = (h: number) => (h & 0x8000 ? 0x8000 - (h & 0x7fff) : h + 0x8000);
const ordered32 = (x: number) => (x & 0x80000000 ? 0x80000000 - (x & 0x7fffffff) : x + 0x80000000);
function compare(format: Format, a: Uint8Array, b: Uint8Array) {
  const [x, y, d] =
    format === 'rgba8unorm'
      ? [a, b, (p: number, q: number) => Math.abs(p - q)]
      : format === 'rgba16float'
        ? [
            new Uint16Array(a.buffer),
            new Uint16Array(b.buffer),
            (p: number, q: number) => Math.abs(ordered16(p) - ordered16(q)),
          ]
        : [
            new Uint32Array(a.buffer),
            new Uint32Array(b.buffer),
            (p: number, q: number) => Math.abs(ordered32(p >>> 0) - ordered32(q >>> 0)),
          ];
  let worst = 0;
  let differ = 0;
  for (let i = 0; i < x.length; i++) {
    const e = d(x[i] as number, y[i] as number);
    if (e) differ++;
    worst = Math.max(worst, e);
  }
  return {
    components: x.length,
    differ,
    worst,
    unit: format === 'rgba8unorm' ? '/255' : format === 'rgba16float' ? 'half ulp' : 'ulp',
  };
}

const rows = [];
for (const k of KERNELS) {
  const gpu = await run(k, 'compute');
  const cpu = await run(k, 'cpu');
  for (const [name, image] of Object.entries(k.outputs))
    rows.push({
      kernel: k.name,
      output: `${name} (${image.format})`,
      ...compare(image.format, gpu.out[name]!, cpu.out[name]!),
      computeMs: +gpu.ms.toFixed(2),
      cpuMs: +cpu.ms.toFixed(1),
    });
}
await Deno.mkdir(outDir, { recursive: true });
const result = { adapter, deno: Deno.version.deno, rows };
await Deno.writeTextFile(`${outDir}/portable-images.json`, JSON.stringify(result, null, 2));
const md = [
  `# Portable image kernels: compute against the CPU path`,
  '',
  `${adapter}, Deno ${Deno.version.deno}. One dispatch each; differences per component.`,
  '',
  '| kernel | output | components | differ | worst | compute ms | CPU ms |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.kernel} | ${r.output} | ${r.components} | ${r.differ} | ${r.worst} ${r.unit} | ${r.computeMs} | ${r.cpuMs} |`,
  ),
  '',
].join('\n');
await Deno.writeTextFile(`${outDir}/portable-images.md`, md);
console.log(md);
