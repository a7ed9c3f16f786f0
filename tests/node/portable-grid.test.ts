// Portable compute on grids of one to three dimensions, with the storage declarations, override
// constants and computed write indices public WGSL uses: the CPU path against wgsl_reflect's WGSL
// interpreter (an independent oracle) and against plain JavaScript references.
import { describe, expect, it } from 'vitest';
import { KernelError, NullDevice, TextureUsage, ValidationError } from '../../src/all.js';
import {
  PortableKernelError,
  analyzeKernel,
  createPortableCompute,
} from '../../src/compute/portable/index.js';
import {
  BLUR,
  BUILTINS,
  LIFE,
  PARTICLES_HEADER,
  SCALE,
  SCOPES,
} from '../gpu/page/portable-kernels.js';
import { device, interpret, storage } from './portable-helpers.js';

/** One Life step on a torus, in plain JavaScript. */
function lifeStep(cells: Uint32Array, w: number, h: number): Uint32Array {
  const next = new Uint32Array(cells.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let n = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++)
          if (dx || dy) n += cells[((y + dy + h) % h) * w + ((x + dx + w) % w)] as number;
      const alive = cells[y * w + x] === 1;
      next[y * w + x] = alive ? Number(n === 2 || n === 3) : Number(n === 3);
    }
  return next;
}

describe('portable compute on 2-D and 3-D grids', () => {
  it('a cellular automaton over count: [w, h] with @workgroup_size(blockSize, blockSize) gives the bits of plain JavaScript and of the interpreter for 10 steps', () => {
    const [w, h] = [32, 16];
    const cells = Uint32Array.from({ length: w * h }, (_, i) => Number((i * 2654435761) % 7 < 3));
    for (const constants of [{}, { blockSize: 4 }] as Array<Record<string, number>>) {
      const d = device();
      const size = storage(d, new Uint32Array([w, h, 0, 0]), 'size');
      const a = storage(d, cells, 'a');
      const b = storage(d, new Uint32Array(w * h), 'b');
      const sim = createPortableCompute(d, {
        code: LIFE,
        count: [w, h],
        constants,
        path: 'cpu',
      });
      expect(sim.workgroupSize).toEqual('blockSize' in constants ? [4, 4, 1] : [8, 8, 1]);
      let js: Uint32Array = cells;
      let oracle: Uint32Array = cells;
      for (let step = 0; step < 10; step++) {
        const [from, to] = step % 2 ? [b, a] : [a, b];
        sim.dispatch(d.createCommandEncoder(), { size, current: from, next: to });
        js = lifeStep(js, w, h);
        if (step < 2)
          oracle = interpret(LIFE, [w / 8, h / 8, 1], {
            0: new Uint32Array([w, h]),
            1: oracle,
            2: new Uint32Array(w * h),
          })[2] as Uint32Array;
        const ours = new Uint32Array(to.hostShadow?.bytes.buffer as ArrayBuffer);
        expect(Array.from(ours)).toEqual(Array.from(js));
        if (step < 2) expect(Array.from(ours)).toEqual(Array.from(oracle));
      }
      expect(js.some((c) => c === 1)).toBe(true);
    }
  });

  it('global, local and workgroup ids, num_workgroups and local_invocation_index are what WebGPU gives on a 3-D grid', () => {
    const d = device();
    const count: [number, number, number] = [6, 3, 3];
    const wg = [4, 2, 2];
    const groups = count.map((n, i) => Math.ceil(n / (wg[i] as number)));
    const dims = groups.map((g, i) => g * (wg[i] as number));
    const total = dims.reduce((a, b) => a * b);
    const out = storage(d, new Uint32Array(4 * total), 'out');
    createPortableCompute(d, { code: BUILTINS, count, buffers: { out }, path: 'cpu' }).dispatch(
      d.createCommandEncoder(),
    );
    const ours = new Uint32Array(out.hostShadow?.bytes.buffer as ArrayBuffer);
    const oracle = interpret(BUILTINS, groups as [number, number, number], {
      0: new Uint32Array(4 * total),
    })[0] as Uint32Array;
    expect(Array.from(ours)).toEqual(Array.from(oracle));
    // and by hand: invocation (x, y, z)
    const [X, Y] = dims as [number, number, number];
    const at = (x: number, y: number, z: number): number[] =>
      Array.from(ours.slice(4 * (x + y * X + z * X * Y), 4 * (x + y * X + z * X * Y) + 4));
    expect(at(5, 2, 3)).toEqual([1 + 0 + 100, 1 + 10 + 100, 1 + 0 + 8, 2 + 20 + 200]);
  });

  it('a struct with members before its array, and a single struct in read-only storage, give the f32 values computed by hand; the members and the elements past count keep their bits', () => {
    const n = 40;
    const words = new Uint32Array(4 + 4 * n);
    const f = new Float32Array(words.buffer);
    words[0] = 33; // count
    f[1] = 9.8; // gravity
    words[2] = 0xdeadbeef;
    words[3] = 7;
    for (let i = 0; i < 4 * n; i++) f[4 + i] = Math.sin(i * 0.37) * 2;
    const params = new Float32Array([1 / 60, 0.99, 0, 0]);
    const d = device();
    const ps = storage(d, words, 'ps');
    const p = storage(d, params, 'params');
    const sim = createPortableCompute(d, {
      code: PARTICLES_HEADER,
      count: n,
      buffers: { ps, params: p },
      path: 'cpu',
    });
    expect(sim.module?.bindings.find((b) => b.name === 'ps')?.offset).toBe(16);
    sim.dispatch(d.createCommandEncoder());
    const ours = new Uint32Array(ps.hostShadow?.bytes.buffer as ArrayBuffer);
    // by hand (wgsl_reflect's interpreter gets struct variables wrong here), rounding as f32 does
    const r = Math.fround;
    const expected = new Float32Array(words.buffer.slice(0));
    for (let i = 0; i < 33; i++) {
      const [px, py, vx, vy] = Array.from(f.slice(4 + 4 * i, 8 + 4 * i)) as [
        number,
        number,
        number,
        number,
      ];
      const [dt, damping] = params as unknown as [number, number];
      const nvx = r(r(vx * damping) + r(0 * dt));
      const nvy = r(r(vy * damping) + r(r(-(f[1] as number)) * dt));
      expected.set([r(px + r(nvx * dt)), r(py + r(nvy * dt)), nvx, nvy], 4 + 4 * i);
    }
    const of = new Float32Array(ours.buffer);
    expect(Array.from(ours.slice(0, 4))).toEqual([33, words[1], 0xdeadbeef, 7]);
    expect(Array.from(of)).toEqual(Array.from(expected));
    expect(Array.from(ours.slice(4 + 4 * 33))).toEqual(Array.from(words.slice(4 + 4 * 33)));
    expect(ours[4 + 4 * 2 + 1]).not.toBe(words[4 + 4 * 2 + 1]);
  });
});

describe('override constants', () => {
  it('take their defaults, and the values given as constants (by name or @id), on the CPU path', () => {
    const input = Float32Array.from({ length: 16 }, (_, i) => i + 0.5);
    const run = (constants: Record<string, number>): number[] => {
      const d = device();
      const a = storage(d, input, 'a');
      const b = storage(d, new Float32Array(16), 'b');
      createPortableCompute(d, {
        code: SCALE,
        count: 16,
        constants,
        buffers: { a, b },
        path: 'cpu',
      }).dispatch(d.createCommandEncoder());
      return Array.from(new Float32Array(b.hostShadow?.bytes.buffer as ArrayBuffer));
    };
    expect(run({})).toEqual(Array.from(input, (x) => x * 2 + 1));
    expect(run({ scale: 3 })).toEqual(Array.from(input, (x) => x * 3 + 1));
    expect(run({ scale: 3, 7: 5 })).toEqual(Array.from(input, (x) => x * 3 + 5));
  });

  it('a constant the shader does not declare, or of the wrong type, is a KernelError naming it', () => {
    const d = device();
    expect(() =>
      createPortableCompute(d, { code: SCALE, count: 4, constants: { scal: 1 } }),
    ).toThrow(/constants scal: the shader has no such override \(overrides: scale, offset\)/);
    expect(() => analyzeKernel('k', SCALE, 'main', { constants: { 7: 1.5 } })).toThrow(
      /constants.offset is 1.5, not a value of override offset's type u32/,
    );
  });
});

describe('WebGPU never refuses valid WGSL', () => {
  // a pointer into storage as a parameter: valid WGSL (unrestricted_pointer_parameters), not
  // translated by the portable front end
  const STORAGE_POINTER = `@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<u32>;
fn bump(p: ptr<storage, u32, read_write>, v: u32) { *p += v; }
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&a)) { bump(&total[id.x], a[id.x]); }
}`;

  it('a kernel that is not portable runs on compute, with the construct that keeps it there in sim.portability and sim.reason', () => {
    const d = new NullDevice();
    const sim = createPortableCompute(d, { code: STORAGE_POINTER, count: 64 });
    expect(sim.path).toBe('compute');
    expect(sim.module).toBeNull();
    expect(sim.bindings.map((b) => [b.name, b.access])).toEqual([
      ['a', 'read'],
      ['total', 'read_write'],
    ]);
    if (sim.portability.portable) throw new Error('expected a portability report');
    expect(sim.portability.error.construct).toBe('ptr<storage>');
    expect([sim.portability.error.line, sim.portability.error.column]).toEqual([3, 12]);
    expect(sim.reason).toMatch(
      /not portable to WebGL2 or the CPU: p: a pointer into storage memory is not portable/,
    );
  });

  it('only an explicit fallback path turns it into a KernelError (construct, line, column)', () => {
    const d = new NullDevice({ hostShadows: true });
    let error: unknown;
    try {
      createPortableCompute(d, { code: STORAGE_POINTER, count: 64, path: 'cpu' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PortableKernelError);
    expect(error).toBeInstanceOf(KernelError);
    expect((error as PortableKernelError).construct).toBe('ptr<storage>');
  });

  it('only what the entry point reaches is analysed: render stages, matrices, textures and other kernels beside it are fine', () => {
    const code = `struct Uniforms { mvp: mat4x4f };
@group(0) @binding(0) var<uniform> u: Uniforms;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read_write> b: array<f32>;
var<workgroup> tile: array<f32, 64>;
@vertex fn vs(@location(0) p: vec4f) -> @builtin(position) vec4f { return u.mvp * p; }
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f { return textureLoad(tex, vec2i(p.xy), 0); }
@compute @workgroup_size(64) fn reduce(@builtin(local_invocation_id) l: vec3u) { tile[l.x] = a[l.x]; workgroupBarrier(); }
fn twice(x: f32) -> f32 { return 2.0 * x; }
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  b[id.x] = twice(a[id.x]);
}`;
    const m = analyzeKernel('k', code);
    expect(m.bindings.map((b) => b.name)).toEqual(['a', 'b']);
    expect(m.declared).toEqual(expect.arrayContaining(['a', 'b', 'u', 'tex']));
    const d = device();
    const a = storage(d, new Float32Array([1, 2, 3, 4]), 'a');
    const b = storage(d, new Float32Array(4), 'b');
    createPortableCompute(d, { code, count: 4, buffers: { a, b }, path: 'cpu' }).dispatch(
      d.createCommandEncoder(),
    );
    expect(Array.from(new Float32Array(b.hostShadow?.bytes.buffer as ArrayBuffer))).toEqual([
      2, 4, 6, 8,
    ]);
  });
});

describe('WGSL as the specification allows it', () => {
  it('array(…) without its element type, module-scope vector and array constants, a bare block and shadowing (of a local and of a constant): the values by hand', () => {
    const n = 10;
    const input = Float32Array.from({ length: n }, (_, i) => i * 1.5 - 3);
    const d = device();
    const a = storage(d, input, 'a');
    const b = storage(d, new Float32Array(12), 'b');
    createPortableCompute(d, { code: SCOPES, count: n, buffers: { a, b }, path: 'cpu' }).dispatch(
      d.createCommandEncoder(),
    );
    const ours = new Float32Array(b.hostShadow?.bytes.buffer as ArrayBuffer);
    const r = Math.fround;
    const len = 12; // the buffer holds 12 floats: arrayLength(&a) is 12 (a is rounded up to 16 bytes too)
    const padded = Float32Array.from({ length: len }, (_, i) => (i < n ? (input[i] as number) : 0));
    for (let i = 0; i < n; i++) {
      let sum = 0;
      [0.25, 0.5, 0.25].forEach((w, k) => {
        const j = Math.min(Math.max(i + k, 1) - 1, len - 1);
        sum = r(sum + r((padded[j] as number) * w));
      });
      const bias = r(0.125 * 2 + (i % 4)); // the local shadowing the module-scope constant
      expect(ours[i]).toBe(r(r(r(r(sum * 2) + sum) + r([1, 2, 3][i % 3]! * 2)) + bias));
    }
  });
});

describe('sampled textures read with textureLoad (the image-filter family)', () => {
  it('a 3×3 blur of an rgba8unorm texture on the CPU path gives the f32 values by hand', () => {
    const [w, h] = [13, 9];
    const d = device();
    const texels = Uint8Array.from({ length: 4 * w * h }, (_, i) => (i * 37) % 256);
    const src = d.createTexture({
      size: { width: w, height: h },
      format: 'rgba8unorm',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    });
    d.queue.writeTexture({ texture: src }, texels, { bytesPerRow: 4 * w }, { width: w, height: h });
    const dst = storage(d, new Float32Array(4 * w * h), 'dst');
    const sim = createPortableCompute(d, {
      code: BLUR,
      count: [w, h],
      buffers: { dst },
      textures: { src },
      path: 'cpu',
    });
    expect(sim.workgroupSize).toEqual([8, 8, 1]);
    sim.dispatch(d.createCommandEncoder());
    const ours = new Float32Array(dst.hostShadow?.bytes.buffer as ArrayBuffer);
    const r = Math.fround;
    const at = (x: number, y: number, c: number): number =>
      r(
        (texels[
          4 * (Math.min(Math.max(y, 0), h - 1) * w + Math.min(Math.max(x, 0), w - 1)) + c
        ] as number) * r(1 / 255), // the f32 multiply SwiftShader does (texels.ts)
      );
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) sum = r(sum + at(x + dx, y + dy, c));
          expect(ours[4 * (y * w + x) + c]).toBe(r(sum * r(1 / 9)));
        }
  });

  it('textureSample is refused with the reason; a texture without a host copy is a typed error on the CPU path', () => {
    expect(() =>
      analyzeKernel(
        'k',
        `@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var s: sampler;\n@group(0) @binding(2) var<storage, read_write> o: array<vec4f>;\n@compute @workgroup_size(1) fn main() { o[0] = textureSample(t, s, vec2f(0.5)); }`,
      ),
    ).toThrow(/no derivatives: sample with textureSampleLevel|has no derivatives/);
    const d = new NullDevice({ hostShadows: false });
    const t = d.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.COPY_DST,
    });
    const hd = device();
    const dst = storage(hd, new Float32Array(64), 'dst');
    const ht = hd.createTexture({
      size: { width: 4, height: 4 },
      format: 'rgba8unorm',
      usage: TextureUsage.TEXTURE_BINDING | TextureUsage.RENDER_ATTACHMENT,
    });
    const sim = createPortableCompute(hd, {
      code: BLUR,
      count: [4, 4],
      buffers: { dst },
      path: 'cpu',
    });
    expect(() => sim.dispatch(hd.createCommandEncoder(), undefined, { src: ht })).not.toThrow();
    // a render pass into it: the host copy can no longer follow
    const enc = hd.createCommandEncoder();
    enc.beginRenderPass({ colorAttachments: [{ texture: ht }] }).end();
    hd.queue.submit([enc.finish()]);
    expect(() => sim.dispatch(hd.createCommandEncoder())).toThrow(ValidationError);
    expect(() => sim.dispatch(hd.createCommandEncoder())).toThrow(/written by the GPU/);
    expect(t.hostShadow).toBeNull();
  });
});
