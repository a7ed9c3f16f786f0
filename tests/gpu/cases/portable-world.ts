// Portable compute meets WGSL written elsewhere: 2-D and 3-D grids, override constants, structs
// around arrays, writes at computed indices, and a corpus of public compute shaders (Babylon.js's,
// read from the installed package, unchanged). Each runs on WebGPU compute, the WebGL2 ping-pong
// and the CPU, against the same WGSL dispatched with raw WebGPU calls on the same GPUDevice:
// integer outputs bit for bit, float outputs within 2 ulp, after 1 and 10 steps.
import { defineCases, type Case, type CaseContext } from '../page/case.js';
import { assert } from '../page/assert.js';
import {
  BufferUsage,
  TextureUsage,
  type Buffer,
  type Device,
  type Texture,
} from '../../../src/all.js';
import type { PathName } from '../../../src/compute/index.js';
import {
  PortableKernelError,
  createPortableCompute,
  storageTextureUsage,
} from '../../../src/compute/portable/index.js';
import { reflectBufferBindings } from '../../../src/compute/portable/portability.js';
import { reflectWorkgroupSize } from '../../../src/rhi/core/compute-pipeline.js';
import { CORPUS, type CorpusBuffer } from '../../corpus/babylon.js';
import { babylonSort, stableOrder } from '../../corpus/babylon-sort.js';
import {
  APPEND,
  LET_POINTERS,
  ATOMICS,
  BARRIER_PRIVATES,
  BLUR,
  BUILTINS,
  IMAGE_EDGES,
  IMAGE_TONE,
  SAMPLED,
  SUM_ATOMIC,
  TILE_TRANSPOSE,
  TREE_SUM,
  UNIFORM_LOAD,
  INDICES,
  LIFE,
  BITS,
  bitsItems,
  MATRICES,
  PARTICLES_HEADER,
  POINTERS,
  POINTER_PLACES,
  PRIVATE_RNG,
  SCOPES,
  matricesBuffers,
  privateRngParticles,
} from '../page/portable-kernels.js';

type Count = number | [number, number] | [number, number, number];

/** A kernel to run everywhere: its WGSL, grid, buffers and which of them it writes. */
interface Workload {
  code: string;
  count: Count;
  constants?: Record<string, number>;
  buffers: Record<string, CorpusBuffer>;
  /** Sampled textures by binding name: size, format and texels (tight rows). */
  textures?: Record<
    string,
    { width: number; height: number; format: 'rgba8unorm' | 'rgba32float'; data: Uint8Array }
  >;
  /**
   * Storage textures (`texture_storage_2d<format, write>`) by binding name, with their texels before
   * the first dispatch; an output named here is compared texel by texel (unorm8 within 1, halfs
   * within 1 ulp of a half, floats within `ulps`: a GPU may round a conversion the other way).
   */
  images?: Record<string, { width: number; height: number; format: ImageFormat; data: Uint8Array }>;
  /** Samplers by binding name: filters and address modes. */
  samplers?: Record<string, SamplerSpec>;
  outputs: readonly string[];
  /** Outputs of integers among float ones: compared bit for bit. */
  exact?: readonly string[];
  /** After each step, binding names whose buffers swap (a ping-pong), else the same buffers. */
  swap?: [string, string];
  floats: boolean;
  /** Ulps float outputs may differ by (default 2). */
  ulps?: number;
  /**
   * Workgroup memory, barriers or atomics: the ping-pong path must refuse it at this construct, and
   * `auto` on WebGL2 with host copies takes the CPU path.
   */
  cpuOnly?: string;
}

type ImageFormat = 'rgba8unorm' | 'rgba16float' | 'r32float';
type SamplerSpec = {
  magFilter: 'nearest' | 'linear';
  minFilter: 'nearest' | 'linear';
  addressModeU: 'clamp-to-edge' | 'repeat' | 'mirror-repeat';
  addressModeV: 'clamp-to-edge' | 'repeat' | 'mirror-repeat';
};
const TEXEL_BYTES: Record<ImageFormat, number> = { rgba8unorm: 4, rgba16float: 8, r32float: 4 };

const STEPS = [1, 10];
const grid3 = (c: Count): [number, number, number] => {
  const l = Array.isArray(c) ? c : [c];
  return [l[0] as number, l[1] ?? 1, l[2] ?? 1];
};

/** The outputs after each checkpoint step, dispatched with raw WebGPU calls. */
async function rawWebGPU(gpu: GPUDevice, w: Workload): Promise<Array<Record<string, Uint32Array>>> {
  const bindings = reflectBufferBindings('raw', w.code, 'main').bindings;
  const size = reflectWorkgroupSize(w.code, 'main', w.constants);
  const groups = grid3(w.count).map((n, i) => Math.ceil(n / (size[i] as number)));
  const module = gpu.createShaderModule({ code: w.code });
  // the reference must run: its compiler's errors, not "wrote nothing"
  const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  if (errors.length)
    throw new Error(
      `raw WebGPU refused the shader: ${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ')}`,
    );
  const pipeline = gpu.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main', ...(w.constants ? { constants: w.constants } : {}) },
  });
  const buffers: Record<string, GPUBuffer> = {};
  for (const [name, b] of Object.entries(w.buffers)) {
    buffers[name] = gpu.createBuffer({
      size: Math.max(16, Math.ceil(b.data.byteLength / 16) * 16),
      usage: b.uniform
        ? GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST
        : GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    gpu.queue.writeBuffer(buffers[name] as GPUBuffer, 0, b.data as Uint32Array<ArrayBuffer>);
  }
  const textures: Record<string, GPUTexture> = {};
  for (const [name, t] of Object.entries(w.textures ?? {})) {
    textures[name] = gpu.createTexture({
      size: [t.width, t.height],
      format: t.format,
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    gpu.queue.writeTexture(
      { texture: textures[name] as GPUTexture },
      t.data as Uint8Array<ArrayBuffer>,
      { bytesPerRow: t.width * (t.format === 'rgba8unorm' ? 4 : 16) },
      [t.width, t.height],
    );
  }
  for (const [name, t] of Object.entries(w.images ?? {})) {
    textures[name] = gpu.createTexture({
      size: [t.width, t.height],
      format: t.format,
      usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
    });
    gpu.queue.writeTexture(
      { texture: textures[name] as GPUTexture },
      t.data as Uint8Array<ArrayBuffer>,
      { bytesPerRow: t.width * TEXEL_BYTES[t.format] },
      [t.width, t.height],
    );
  }
  const out: Array<Record<string, Uint32Array>> = [];
  for (let step = 1; step <= Math.max(...STEPS); step++) {
    const group = gpu.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: bindings.map((b) => ({
        binding: b.binding,
        resource:
          b.space === 'sampler'
            ? gpu.createSampler(w.samplers?.[b.name])
            : b.space === 'texture' || b.space === 'storage-texture'
              ? (textures[b.name] as GPUTexture).createView()
              : { buffer: buffers[b.name] as GPUBuffer },
      })),
    });
    const enc = gpu.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(groups[0] as number, groups[1] as number, groups[2] as number);
    pass.end();
    gpu.queue.submit([enc.finish()]);
    if (STEPS.includes(step)) {
      const read: Record<string, Uint32Array> = {};
      for (const name of w.outputs) {
        const image = w.images?.[name];
        if (image) {
          read[name] = await readRawImage(gpu, textures[name] as GPUTexture, image);
          continue;
        }
        const src = buffers[name] as GPUBuffer;
        const staging = gpu.createBuffer({
          size: src.size,
          usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        });
        const e = gpu.createCommandEncoder();
        e.copyBufferToBuffer(src, 0, staging, 0, src.size);
        gpu.queue.submit([e.finish()]);
        await staging.mapAsync(GPUMapMode.READ);
        read[name] = new Uint32Array(staging.getMappedRange().slice(0));
        staging.destroy();
      }
      out.push(read);
    }
    if (w.swap) {
      const [a, b] = w.swap;
      [buffers[a], buffers[b]] = [buffers[b] as GPUBuffer, buffers[a] as GPUBuffer];
    }
  }
  for (const b of Object.values(buffers)) b.destroy();
  for (const t of Object.values(textures)) t.destroy();
  return out;
}

/** A storage texture's texels, tight rows, as words (copied out with 256-byte rows). */
async function readRawImage(
  gpu: GPUDevice,
  texture: GPUTexture,
  t: { width: number; height: number; format: ImageFormat },
): Promise<Uint32Array> {
  const tight = t.width * TEXEL_BYTES[t.format];
  const row = Math.ceil(tight / 256) * 256;
  const staging = gpu.createBuffer({
    size: row * t.height,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const e = gpu.createCommandEncoder();
  e.copyTextureToBuffer({ texture }, { buffer: staging, bytesPerRow: row }, [t.width, t.height]);
  gpu.queue.submit([e.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const padded = new Uint8Array(staging.getMappedRange());
  const bytes = new Uint8Array(tight * t.height);
  for (let y = 0; y < t.height; y++)
    bytes.set(padded.subarray(y * row, y * row + tight), y * tight);
  staging.destroy();
  return new Uint32Array(bytes.buffer);
}

/** The outputs after each checkpoint step, through createPortableCompute on `path`. */
async function portable(
  device: Device,
  path: PathName,
  w: Workload,
): Promise<Array<Record<string, Uint32Array>>> {
  const buffers: Record<string, Buffer> = {};
  for (const [name, b] of Object.entries(w.buffers)) {
    buffers[name] = device.createBuffer({
      label: name,
      size: Math.max(16, Math.ceil(b.data.byteLength / 16) * 16),
      usage: b.uniform
        ? BufferUsage.UNIFORM | BufferUsage.COPY_DST
        : BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(buffers[name] as Buffer, 0, b.data);
  }
  const textures: Record<string, Texture> = {};
  for (const [name, t] of Object.entries(w.textures ?? {})) {
    textures[name] = device.createTexture({
      label: name,
      size: { width: t.width, height: t.height },
      format: t.format,
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    });
    device.queue.writeTexture(
      { texture: textures[name] as Texture },
      t.data,
      { bytesPerRow: t.width * (t.format === 'rgba8unorm' ? 4 : 16) },
      { width: t.width, height: t.height },
    );
  }
  for (const [name, t] of Object.entries(w.images ?? {})) {
    textures[name] = device.createTexture({
      label: name,
      size: { width: t.width, height: t.height },
      format: t.format,
      // what each path needs (storageTextureUsage), and COPY_SRC to read it back
      usage: storageTextureUsage(device) | TextureUsage.COPY_SRC,
    });
    device.queue.writeTexture(
      { texture: textures[name] as Texture },
      t.data,
      { bytesPerRow: t.width * TEXEL_BYTES[t.format] },
      { width: t.width, height: t.height },
    );
  }
  const samplers = Object.fromEntries(
    Object.entries(w.samplers ?? {}).map(([name, s]) => [name, device.createSampler(s)]),
  );
  const sim = createPortableCompute(device, {
    code: w.code,
    count: w.count,
    textures,
    samplers,
    ...(w.constants ? { constants: w.constants } : {}),
    path,
  });
  assert(sim.path === path, `${path}: took ${sim.path} (${sim.reason})`);
  const out: Array<Record<string, Uint32Array>> = [];
  for (let step = 1; step <= Math.max(...STEPS); step++) {
    const enc = device.createCommandEncoder();
    sim.dispatch(enc, buffers);
    device.queue.submit([enc.finish()]);
    if (STEPS.includes(step)) {
      const read: Record<string, Uint32Array> = {};
      for (const name of w.outputs) {
        if (w.images?.[name]) {
          const texels = await (textures[name] as Texture).read();
          read[name] = new Uint32Array(
            texels.buffer.slice(texels.byteOffset, texels.byteOffset + texels.byteLength),
          );
        } else read[name] = new Uint32Array(await (buffers[name] as Buffer).read());
      }
      out.push(read);
    }
    if (w.swap) {
      const [a, b] = w.swap;
      [buffers[a], buffers[b]] = [buffers[b] as Buffer, buffers[a] as Buffer];
    }
  }
  sim.destroy();
  for (const t of Object.values(textures)) t.destroy();
  return out;
}

/** Units in the last place between two f32 bit patterns (0 for equal bits, NaN = NaN). */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const f = new Float32Array(new Uint32Array([a, b]).buffer);
  if (Number.isNaN(f[0]) && Number.isNaN(f[1])) return 0;
  const ordered = (x: number): number =>
    x & 0x80000000 ? 0x80000000 - (x & 0x7fffffff) : x + 0x80000000;
  return Math.abs(ordered(a >>> 0) - ordered(b >>> 0));
}

/**
 * Two readings of a storage texture, component by component: unorm8 within 1 (a conversion rounded
 * the other way), halfs within 1 ulp of a half, floats within `allowed` ulp. Says how they differ.
 */
function compareImage(
  a: Uint32Array,
  b: Uint32Array,
  format: ImageFormat,
  allowed: number,
  where: string,
  source: string,
): string {
  const [x, y, limit, unit] =
    format === 'rgba8unorm'
      ? [new Uint8Array(a.buffer), new Uint8Array(b.buffer), 1, 'of 255']
      : format === 'rgba16float'
        ? [new Uint16Array(a.buffer), new Uint16Array(b.buffer), 1, 'half ulp']
        : [a, b, allowed, 'ulp'];
  const half = (h: number): number => (h & 0x8000 ? 0x8000 - (h & 0x7fff) : h + 0x8000);
  let worst = 0;
  let differ = 0;
  let first = -1;
  for (let i = 0; i < x.length; i++) {
    const p = x[i] as number;
    const q = y[i] as number;
    const d =
      format === 'rgba8unorm'
        ? Math.abs(p - q)
        : format === 'rgba16float'
          ? Math.abs(half(p) - half(q))
          : ulps(p, q);
    if (d && first < 0) first = i;
    if (d) differ++;
    worst = Math.max(worst, d);
  }
  assert(
    worst <= limit,
    `${where}: ${differ} of ${x.length} components differ from ${source}, up to ${worst} ${unit} (allowed ${limit}; the first: component ${first}, ${x[first]} against ${y[first]})`,
  );
  assert(new Set(x).size > 2, `${where}: ${source} wrote one value`);
  return differ ? `≤ ${worst} ${unit} (${differ} of ${x.length})` : 'same bits';
}

/**
 * Runs `w` with raw WebGPU and on the three paths, comparing each checkpoint. With `reference`
 * 'cpu' (where this WebGPU cannot compile `w`), the ping-pong is compared with the CPU path instead.
 */
async function everywhere(
  ctx: CaseContext,
  w: Workload,
  what: string,
  reference: 'raw' | 'cpu' = 'raw',
  /** With reference 'cpu': the paths compared with it (the ping-pong on a fresh WebGL2 device). */
  against?: Array<[PathName, Device]>,
): Promise<string[]> {
  const source = reference === 'raw' ? 'raw WebGPU' : 'the CPU path';
  let raw: Array<Record<string, Uint32Array>>;
  let runs: Array<[PathName, Device]>;
  if (reference === 'raw') {
    const gpuDevice = await ctx.open('webgpu');
    raw = await rawWebGPU((gpuDevice as unknown as { gpu: GPUDevice }).gpu, w);
    const shadowed = await ctx.open('webgl2', { hostShadows: true });
    runs = w.cpuOnly
      ? [
          ['compute', gpuDevice],
          ['cpu', shadowed],
        ]
      : [
          ['compute', gpuDevice],
          ['pingpong', await ctx.open('webgl2')],
          ['cpu', shadowed],
        ];
    if (w.cpuOnly) {
      let refused: unknown;
      try {
        createPortableCompute(shadowed, { code: w.code, count: w.count, path: 'pingpong' });
      } catch (e) {
        refused = e;
      }
      assert(
        refused instanceof PortableKernelError && refused.construct === w.cpuOnly,
        `${what}: the ping-pong path did not refuse ${w.cpuOnly} (${String(refused)})`,
      );
      const auto = createPortableCompute(shadowed, { code: w.code, count: w.count });
      assert(auto.path === 'cpu', `${what}: auto on WebGL2 took ${auto.path} (${auto.reason})`);
      auto.destroy();
    }
  } else {
    raw = await portable(await ctx.open('webgl2', { hostShadows: true }), 'cpu', w);
    runs = against ?? [['pingpong', await ctx.open('webgl2')]];
  }
  const report: string[] = [];
  for (const [path, device] of runs) {
    const ours = await portable(device, path, w);
    STEPS.forEach((step, k) => {
      for (const name of w.outputs) {
        const a = (raw[k] as Record<string, Uint32Array>)[name] as Uint32Array;
        const b = (ours[k] as Record<string, Uint32Array>)[name] as Uint32Array;
        const floats = w.floats && !w.exact?.includes(name);
        const image = w.images?.[name];
        if (image) {
          report.push(
            `${path} step ${step}: ${compareImage(a, b, image.format, w.ulps ?? 2, `${what} ${path}, step ${step}, ${name}`, source)}`,
          );
          continue;
        }
        let worst = 0;
        let differ = 0;
        let first = -1;
        let worstAt = -1;
        for (let i = 0; i < a.length; i++) {
          const d = floats ? ulps(a[i] as number, b[i] as number) : a[i] === b[i] ? 0 : 1;
          if (d) differ++;
          if (d && first < 0) first = i;
          if (d > worst) worstAt = i;
          worst = Math.max(worst, d);
        }
        const hex = (x: number | undefined): string => `0x${(x ?? 0).toString(16)}`;
        const word = (i: number): string => `word ${i}, ${hex(a[i])} against ${hex(b[i])}`;
        const at =
          first < 0
            ? ''
            : ` (the first: ${word(first)}${floats && worstAt !== first ? `; the farthest: ${word(worstAt)}` : ''})`;
        const where = `${what} ${path}, step ${step}, ${name}`;
        if (floats)
          assert(
            worst <= (w.ulps ?? 2),
            `${where}: ${differ} words differ, up to ${worst} ulp (allowed ${w.ulps ?? 2})${at}`,
          );
        else
          assert(
            differ === 0,
            `${where}: ${differ} of ${a.length} words differ from ${source}${at}`,
          );
        assert(
          a.some((x) => x !== 0),
          `${where}: ${source} wrote nothing`,
        );
        report.push(`${path} step ${step}: ${differ ? `≤ ${worst} ulp` : 'same bits'}`);
      }
    });
  }
  return report;
}

const lifeWorkload = (): Workload => {
  const [w, h] = [64, 48];
  return {
    code: LIFE,
    count: [w, h],
    buffers: {
      size: { data: new Uint32Array([w, h]) },
      current: {
        data: Uint32Array.from({ length: w * h }, (_, i) =>
          Number((Math.imul(i, 2654435761) >>> 0) % 7 < 3),
        ),
      },
      next: { data: new Uint32Array(w * h) },
    },
    outputs: ['next'],
    swap: ['current', 'next'],
    floats: false,
  };
};

/**
 * The world kernels as workloads (fresh buffers each call): what the cases below run against raw
 * WebGPU, and what the engine-wide case runs on the device's own GPU path against the CPU.
 */
const WORLD = {
  life: lifeWorkload,
  sampling: (): Workload => {
    const [w, h] = [19, 13];
    const photo = Uint8Array.from({ length: 4 * w * h }, (_, i) => (i * 37 + (i >> 4) * 5) % 256);
    const tiles = Uint8Array.from({ length: 4 * 7 * 5 }, (_, i) => (i * 71) % 256);
    return {
      code: SAMPLED,
      count: [45, 29],
      buffers: {
        params: {
          data: new Uint32Array(new Float32Array([1.7, 1.3, -0.313, 0.237]).buffer),
          uniform: true,
        },
      },
      textures: {
        photo: { width: w, height: h, format: 'rgba8unorm', data: photo },
        tiles: { width: 7, height: 5, format: 'rgba8unorm', data: tiles },
      },
      samplers: {
        soft: {
          magFilter: 'linear',
          minFilter: 'linear',
          addressModeU: 'repeat',
          addressModeV: 'repeat',
        },
        blocky: {
          magFilter: 'nearest',
          minFilter: 'nearest',
          addressModeU: 'mirror-repeat',
          addressModeV: 'clamp-to-edge',
        },
      },
      images: {
        linear: { width: 41, height: 27, format: 'rgba8unorm', data: new Uint8Array(4 * 41 * 27) },
        nearest: { width: 41, height: 27, format: 'rgba8unorm', data: new Uint8Array(4 * 41 * 27) },
      },
      outputs: ['linear', 'nearest'],
      floats: true,
    };
  },
  'image tone': (): Workload => {
    const [w, h] = [37, 21];
    const source = Uint8Array.from({ length: 4 * w * h }, (_, i) => (i * 29 + (i >> 2) * 11) % 256);
    const glow = new Uint16Array(4 * 25 * 15).map((_, i) => 0x3c00 + (i % 97)); // 1.0 and up
    const weights = Float32Array.from({ length: 4 * 5 }, (_, i) => 0.5 + ((i * 7) % 5) / 8);
    return {
      code: IMAGE_TONE,
      count: [w + 3, h + 3],
      buffers: {
        params: { data: new Uint32Array(new Float32Array([1.5, 0.4, 0, 0]).buffer), uniform: true },
        weights: { data: new Uint32Array(weights.buffer) },
      },
      textures: { src: { width: w, height: h, format: 'rgba8unorm', data: source } },
      images: {
        bright: { width: w, height: h, format: 'rgba8unorm', data: new Uint8Array(4 * w * h) },
        glow: { width: 25, height: 15, format: 'rgba16float', data: new Uint8Array(glow.buffer) },
      },
      outputs: ['bright', 'glow'],
      floats: true,
    };
  },
  'built-ins': (): Workload => ({
    code: BUILTINS,
    count: [6, 3, 3],
    buffers: { out: { data: new Uint32Array(4 * 128) } },
    outputs: ['out'],
    floats: false,
  }),
  particles: (): Workload => {
    const n = 300;
    const words = new Uint32Array(4 + 4 * n);
    const f = new Float32Array(words.buffer);
    words.set([280, 0, 0xdeadbeef, 7]);
    f[1] = 9.8;
    for (let i = 0; i < 4 * n; i++) f[4 + i] = Math.sin(i * 0.37) * 2;
    return {
      code: PARTICLES_HEADER,
      count: n,
      buffers: {
        params: { data: new Uint32Array(new Float32Array([1 / 60, 0.99, 0, 0]).buffer) },
        ps: { data: words },
      },
      outputs: ['ps'],
      floats: true,
    };
  },
  scopes: (): Workload => ({
    code: SCOPES,
    count: 300,
    buffers: {
      a: {
        data: new Uint32Array(
          Float32Array.from({ length: 300 }, (_, i) => Math.cos(i * 0.7) * 4).buffer,
        ),
      },
      b: { data: new Uint32Array(300) },
    },
    outputs: ['b'],
    floats: true,
  }),
  'private rng': (): Workload => {
    const n = 300;
    return {
      code: PRIVATE_RNG,
      count: n,
      buffers: {
        particles: { data: privateRngParticles(n) },
        draws_made: { data: new Uint32Array(n).fill(0xdeadbeef) },
      },
      outputs: ['particles', 'draws_made'],
      exact: ['draws_made'],
      floats: true,
    };
  },
  matrices: (): Workload => {
    const n = 150;
    const { params, items } = matricesBuffers(n);
    return {
      code: MATRICES,
      count: n,
      buffers: {
        params: { data: new Uint32Array(params.buffer), uniform: true },
        items: { data: new Uint32Array(items.buffer) },
        out: { data: new Uint32Array(12 * n) },
        dets: { data: new Uint32Array(n) },
      },
      outputs: ['out', 'dets'],
      // as floats: ±0 are 0 ulp apart (WGSL lets a GPU drop a zero's sign: wgpu on lavapipe gives
      // -0 for 1 × 0 + 0 × -1 where Dawn and the CPU give +0); the values are exact, so every
      // other word must have the same bits
      floats: true,
    };
  },
  bits: (): Workload => {
    const n = 130;
    return {
      code: BITS,
      count: n,
      buffers: {
        items: { data: bitsItems(n) },
        ints: { data: new Uint32Array(36 * n) },
        floats: { data: new Uint32Array(28 * n) },
      },
      outputs: ['items', 'ints', 'floats'],
      exact: ['items', 'ints'],
      floats: true,
    };
  },
  pointers: (code = POINTERS): Workload => {
    const n = 200;
    const f = Float32Array.from({ length: 4 * n }, (_, k) => Math.sin(k) * 1.5);
    return {
      code,
      count: n,
      buffers: {
        particles: { data: new Uint32Array(f.buffer) },
        tallies: { data: Uint32Array.from({ length: 4 * n }, (_, k) => k * 77) },
      },
      outputs: ['particles', 'tallies'],
      exact: ['tallies'],
      floats: true,
    };
  },
  indices: (): Workload => {
    const n = 100;
    const params = new Float32Array(16);
    params.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    new Int32Array(params.buffer)[12] = -3;
    return {
      code: INDICES,
      count: n,
      buffers: {
        params: { data: new Uint32Array(params.buffer), uniform: true },
        out: { data: new Uint32Array(4 * n) },
      },
      outputs: ['out'],
      floats: true,
    };
  },
} satisfies Record<string, (code?: string) => Workload>;

const corpusCases: Record<string, Case> = {};
for (const shader of CORPUS) {
  if (shader.runs) {
    const runs = shader.runs;
    const name = shader.cpuOnly
      ? `corpus ${shader.file}: runs unchanged, the bits of raw WebGPU on compute and the CPU; the ping-pong refuses ${shader.cpuOnly.construct}`
      : `corpus ${shader.file}: runs unchanged, the bits of raw WebGPU on every path`;
    corpusCases[name] = {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(
          ctx,
          {
            code: shader.wgsl,
            count: runs.count,
            buffers: runs.buffers(),
            outputs: runs.outputs,
            floats: runs.floats,
            ...(runs.exact ? { exact: runs.exact } : {}),
            ...(runs.ulps ? { ulps: runs.ulps } : {}),
            ...(shader.cpuOnly ? { cpuOnly: shader.cpuOnly.construct } : {}),
          },
          shader.file,
        );
        if (shader.cpuOnly) {
          // what keeps it off the ping-pong path, where WebGPU reports it
          const sim = createPortableCompute(await ctx.open('webgpu'), {
            code: shader.wgsl,
            count: runs.count,
          });
          const limit = sim.portability.portable ? sim.portability.pingpong : undefined;
          const at = [shader.cpuOnly.construct, shader.cpuOnly.line, shader.cpuOnly.column];
          assert(
            limit !== undefined &&
              [limit.construct, limit.line, limit.column].join(' ') === at.join(' '),
            `compute report: ${limit ? [limit.construct, limit.line, limit.column].join(' ') : 'none'}, expected ${at.join(' ')}`,
          );
          sim.destroy();
        }
      },
    };
  } else if (shader.cpuOnly) {
    const limit = shader.cpuOnly;
    corpusCases[
      `corpus ${shader.file}: runs on compute; the CPU path takes it, the ping-pong refuses ${limit.construct} at its line and column`
    ] = {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const at = [limit.construct, limit.line, limit.column].join(' ');
        const webgl2 = await ctx.open('webgl2', { hostShadows: true });
        const cpu = createPortableCompute(webgl2, { code: shader.wgsl, count: 256 });
        assert(cpu.path === 'cpu', `auto on WebGL2 took ${cpu.path}`);
        cpu.destroy();
        let error: unknown;
        try {
          createPortableCompute(webgl2, { code: shader.wgsl, count: 256, path: 'pingpong' });
        } catch (x) {
          error = x;
        }
        assert(error instanceof PortableKernelError, 'pingpong: no PortableKernelError');
        const got = [error.construct, error.line, error.column].join(' ');
        assert(got === at, `pingpong: ${got}, expected ${at}`);
      },
    };
  } else if (shader.refused) {
    const refused = shader.refused;
    corpusCases[
      `corpus ${shader.file}: runs on compute; the fallbacks refuse ${refused.construct} at its line and column`
    ] = {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const at = [refused.construct, refused.line, refused.column].join(' ');
        // a kernel binding textures runs through the RHI, not createPortableCompute (buffers only)
        if (!/texture/.test(refused.construct)) {
          const gpu = await ctx.open('webgpu');
          const sim = createPortableCompute(gpu, { code: shader.wgsl, count: 256 });
          assert(sim.path === 'compute', `took ${sim.path}`);
          assert(!sim.portability.portable, 'reported portable');
          const e = (sim.portability as { error: PortableKernelError }).error;
          const report = [e.construct, e.line, e.column].join(' ');
          assert(report === at, `compute report: ${report}`);
          sim.destroy();
        }
        const webgl2 = await ctx.open('webgl2', { hostShadows: true });
        for (const path of ['pingpong', 'cpu'] as const) {
          let error: unknown;
          try {
            createPortableCompute(webgl2, { code: shader.wgsl, count: 256, path });
          } catch (x) {
            error = x;
          }
          assert(error instanceof PortableKernelError, `${path}: no PortableKernelError`);
          const got = [error.construct, error.line, error.column].join(' ');
          assert(got === at, `${path}: ${got}, expected ${at}`);
        }
      },
    };
  }
}

/** A cooperative kernel's workload: one output of integers, the grid as given. */
const cooperative = (
  code: string,
  count: Count,
  buffers: Record<string, Uint32Array>,
  outputs: string[],
  construct: string,
): Workload => ({
  code,
  count,
  buffers: Object.fromEntries(Object.entries(buffers).map(([k, data]) => [k, { data }])),
  outputs,
  floats: false,
  cpuOnly: construct,
});

export const cases = defineCases({
  "Babylon.js's radix sort (four public shaders, eight passes) sorts as a stable sort does: WebGPU compute, and the CPU path on WebGL2 (every engine)":
    {
      async run(ctx) {
        const keys = Uint32Array.from(
          { length: 2500 },
          (_, i) => Math.imul(i ^ 77, 2654435761) >>> 3,
        );
        const order = stableOrder(keys);
        // WebGL2 with host copies: 'auto' must take the CPU path (the ping-pong has no workgroups)
        const device =
          ctx.backend === 'webgl2' ? await ctx.open('webgl2', { hostShadows: true }) : ctx.device;
        const sorted = await babylonSort(device, keys);
        const want = ctx.backend === 'webgpu' ? 'compute' : 'cpu';
        assert(sorted.path === want, `took ${sorted.path}, expected ${want}`);
        const wrong = order.findIndex(
          (k, i) => sorted.values[i] !== k || sorted.keys[i] !== keys[k],
        );
        assert(
          wrong < 0,
          `position ${wrong} holds key ${sorted.keys[wrong]} (value ${sorted.values[wrong]}); a stable sort puts ${keys[order[wrong] as number]} (${order[wrong]}) there`,
        );
      },
    },
  'an append buffer (atomicAdd on a counter before the array picks the slot) keeps the same items as raw WebGPU on compute and the CPU, in the order its invocations ran':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const n = 500;
        const a = Uint32Array.from(
          { length: n },
          (_, i) => (Math.imul(i ^ 5, 2654435761) >>> 9) & 0xffff,
        );
        // room for ten steps' items: nothing is written past the end (WebGPU would clamp it)
        const w = cooperative(
          APPEND,
          n,
          { a, out: new Uint32Array(4 + 2 * 10 * n) },
          ['out'],
          'atomic',
        );
        const raw = await rawWebGPU(
          ((await ctx.open('webgpu')) as unknown as { gpu: GPUDevice }).gpu,
          w,
        );
        // the items as a sorted list of (value, source) pairs: the order is the invocations'
        const items = (o: Uint32Array): string[] => {
          const pairs: string[] = [];
          for (let k = 0; k < (o[0] as number); k++) pairs.push(`${o[2 + 2 * k]}:${o[3 + 2 * k]}`);
          return pairs.sort();
        };
        for (const [path, device] of [
          ['compute', await ctx.open('webgpu')],
          ['cpu', await ctx.open('webgl2', { hostShadows: true })],
        ] as Array<[PathName, Device]>) {
          const ours = await portable(device, path, w);
          STEPS.forEach((step, k) => {
            const want = (raw[k] as Record<string, Uint32Array>).out as Uint32Array;
            const got = (ours[k] as Record<string, Uint32Array>).out as Uint32Array;
            assert(want[0] !== 0, `raw WebGPU kept no item after step ${step}`);
            assert(
              got[0] === want[0] && got[1] === want[1],
              `${path}, step ${step}: count and total ${got[0]}, ${got[1]}; raw WebGPU ${want[0]}, ${want[1]}`,
            );
            assert(
              items(got).join() === items(want).join(),
              `${path}, step ${step}: other items than raw WebGPU's`,
            );
          });
        }
      },
    },
  'pointers held in lets (to storage elements, read-only and writable, a local array element, a var<private>) give raw WebGPU’s values on compute and the CPU; the ping-pong refuses them':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const forces = Float32Array.from({ length: 12 }, (_, k) => ((k % 3) - 1) * 0.75);
        const particles = Float32Array.from({ length: 4 * 70 }, (_, k) => Math.sin(k) * 2);
        await everywhere(
          ctx,
          {
            code: LET_POINTERS,
            count: 70,
            buffers: {
              forces: { data: new Uint32Array(forces.buffer) },
              particles: { data: new Uint32Array(particles.buffer) },
            },
            outputs: ['particles'],
            floats: true,
            cpuOnly: '&',
          },
          'let pointers',
        );
      },
    },
  'workgroup memory, barriers and atomics (a tree sum, a tile transpose on a 2-D grid, every atomic built-in, var<private> across barriers, workgroupUniformLoad) give the bits of raw WebGPU on compute and the CPU; the ping-pong refuses them':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const words = (n: number, seed: number, mask: number): Uint32Array =>
          Uint32Array.from({ length: n }, (_, i) => (Math.imul(i ^ seed, 2654435761) >>> 7) & mask);
        const workloads: Array<[string, Workload]> = [
          [
            'tree sum',
            cooperative(
              TREE_SUM,
              256,
              { a: words(256, 1, 0xffff), sums: new Uint32Array(4) },
              ['sums'],
              'var<workgroup>',
            ),
          ],
          [
            'atomic sum',
            cooperative(
              SUM_ATOMIC,
              300,
              { a: words(300, 2, 0xffff), total: new Uint32Array(4), counter: new Uint32Array(4) },
              ['total', 'counter'],
              'atomic',
            ),
          ],
          [
            'atomics',
            cooperative(
              ATOMICS,
              64,
              { a: words(64, 3, 0xff), u: new Uint32Array(12), s: new Uint32Array(4) },
              ['u', 's'],
              'atomic',
            ),
          ],
          [
            'privates across barriers',
            cooperative(
              BARRIER_PRIVATES,
              32,
              { out: new Uint32Array(32) },
              ['out'],
              'var<workgroup>',
            ),
          ],
          [
            'tile transpose',
            cooperative(
              TILE_TRANSPOSE,
              [20, 12],
              {
                size: new Uint32Array([20, 12, 0, 0]),
                src: words(240, 6, 0xffffff),
                dst: new Uint32Array(240),
              },
              ['dst'],
              'var<workgroup>',
            ),
          ],
          [
            'workgroupUniformLoad',
            cooperative(
              UNIFORM_LOAD,
              128,
              { out: new Uint32Array(128) },
              ['out'],
              'var<workgroup>',
            ),
          ],
        ];
        for (const [what, w] of workloads) await everywhere(ctx, w, what);
      },
    },
  'a cellular automaton on a 2-D grid (count: [64, 48], an override workgroup size, writes through a helper) gives the bits of raw WebGPU on every path after 1 and 10 steps':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, lifeWorkload(), 'life');
        await everywhere(
          ctx,
          { ...lifeWorkload(), constants: { blockSize: 4 } },
          'life, blockSize 4',
        );
      },
    },
  'the world kernels give the CPU path’s values on the device’s own GPU path: the ping-pong on WebGL2 (in WebKit too, which has no WebGPU to compare with), compute on WebGPU':
    {
      async run(ctx) {
        const path: PathName = ctx.backend === 'webgpu' ? 'compute' : 'pingpong';
        for (const [what, workload] of Object.entries(WORLD))
          await everywhere(ctx, workload(), what, 'cpu', [[path, ctx.device]]);
      },
    },
  'every compute built-in on a 3-D grid is what WebGPU gives, on every path': {
    cross: true,
    needs: ['compute'],
    async run(ctx) {
      await everywhere(ctx, WORLD['built-ins'](), 'built-ins');
    },
  },

  'a struct with members before its array, and a struct in read-only storage, step particles as raw WebGPU does on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.particles(), 'particles');
      },
    },

  'array(…) inferred, module-scope vector and array constants, a bare block and shadowing give raw WebGPU’s values on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.scopes(), 'scopes');
      },
    },

  'an image filter reads a sampled texture with textureLoad (rgba8unorm and rgba32float) as raw WebGPU does, on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const [w, h] = [37, 21];
        for (const format of ['rgba8unorm', 'rgba32float'] as const) {
          const data =
            format === 'rgba8unorm'
              ? Uint8Array.from({ length: 4 * w * h }, (_, i) => (i * 37) % 256)
              : new Uint8Array(
                  Float32Array.from({ length: 4 * w * h }, (_, i) => Math.sin(i * 0.31) * 8).buffer,
                );
          await everywhere(
            ctx,
            {
              code: BLUR,
              count: [w, h],
              buffers: { dst: { data: new Uint32Array(4 * w * h) } },
              textures: { src: { width: w, height: h, format, data } },
              outputs: ['dst'],
              floats: true,
            },
            `blur ${format}`,
          );
        }
      },
    },
  'an image filter writes storage textures with textureStore (rgba8unorm, rgba16float, r32float; texels unwritten and stores outside the texture) as raw WebGPU does, on compute and the CPU path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        const [w, h] = [37, 21];
        const source = Uint8Array.from(
          { length: 4 * w * h },
          (_, i) => (i * 53 + (i >> 3) * 7) % 256,
        );
        const before = Float32Array.from({ length: w * h }, (_, i) => -i);
        await everywhere(
          ctx,
          {
            code: IMAGE_EDGES,
            count: [w + 3, h + 5],
            buffers: {},
            textures: { src: { width: w, height: h, format: 'rgba8unorm', data: source } },
            images: {
              edges: {
                width: w,
                height: h,
                format: 'rgba8unorm',
                data: new Uint8Array(4 * w * h).fill(7),
              },
              hdr: { width: w, height: h, format: 'rgba16float', data: new Uint8Array(8 * w * h) },
              shifted: {
                width: w,
                height: h,
                format: 'r32float',
                data: new Uint8Array(before.buffer),
              },
            },
            outputs: ['edges', 'hdr', 'shifted'],
            floats: true,
            cpuOnly: 'textureStore',
          },
          'image edges',
        );
      },
    },
  'textureSampleLevel with a sampler (bilinear with repeat, nearest with mirror-repeat and clamp-to-edge, magnified past the edges) gives raw WebGPU’s texels on compute, the ping-pong and the CPU path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.sampling(), 'sampling');
      },
    },
  'an image filter storing only at its own texel (rgba8unorm, a smaller rgba16float, texels unwritten) gives raw WebGPU’s texels on compute, the ping-pong and the CPU path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD['image tone'](), 'image tone');
      },
    },
  'random numbers from var<private> state (seeded per invocation, advanced in helpers, a vector changed member by member) give raw WebGPU’s values on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD['private rng'](), 'private rng');
      },
    },

  'matrices (m * v, m * m, v * m, columns read and written, transpose, determinant; in uniforms and storage) give raw WebGPU’s values on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.matrices(), 'matrices');
      },
    },

  'integer bits, packing, ldexp, frexp, modf, refract and faceForward (u32 and i32, scalars and vectors, fields past the word’s end) give raw WebGPU’s values on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.bits(), 'bits');
      },
    },

  'pointer parameters (ptr<function, T> for a generator’s state and a particle updated in place, ptr<private, T> for a counter; passed on, read and written through *p, p.x and p[i]; to members and elements where WebGPU has unrestricted_pointer_parameters) give raw WebGPU’s values on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.pointers(), 'pointers');
        // pointers to members and elements need WGSL's unrestricted_pointer_parameters: Chromium
        // has it; where WebGPU lacks it (Firefox's on this machine, whose content process dies
        // compiling such a shader) the ping-pong is compared with the CPU path, which Chromium
        // compares with raw WebGPU
        const places = navigator.gpu.wgslLanguageFeatures.has('unrestricted_pointer_parameters');
        await everywhere(
          ctx,
          WORLD.pointers(POINTER_PLACES),
          'pointer places',
          places ? 'raw' : 'cpu',
        );
      },
    },

  'computed indices past the end of a local array, a vector and a matrix (negative ones too), read and written, land where WebGPU’s robust access puts them, on every path':
    {
      cross: true,
      needs: ['compute'],
      async run(ctx) {
        await everywhere(ctx, WORLD.indices(), 'indices');
      },
    },
  ...corpusCases,
});
