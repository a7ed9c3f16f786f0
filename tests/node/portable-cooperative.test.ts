// Workgroup memory, barriers and atomics on the CPU path: kernels whose invocations cooperate,
// against plain JavaScript references (wgsl_reflect's interpreter runs the invocations one after
// another through a barrier, so it is no oracle here), and Babylon.js's radix sort — four public
// compute shaders, unchanged — against Array.prototype.sort. The browser runs the same kernels
// against raw WebGPU (tests/gpu/cases/portable-world.ts).
import { describe, expect, it } from 'vitest';
import { KernelError, NullDevice } from '../../src/all.js';
import {
  PortableKernelError,
  analyzeKernel,
  createPortableCompute,
} from '../../src/compute/portable/index.js';
import { hashWords } from '../corpus/babylon.js';
import { babylonSort, stableOrder } from '../corpus/babylon-sort.js';
import {
  APPEND,
  LET_POINTERS,
  ATOMICS,
  BARRIER_PRIVATES,
  SUM_ATOMIC,
  TILE_TRANSPOSE,
  TREE_SUM,
  UNIFORM_LOAD,
} from '../gpu/page/portable-kernels.js';
import { cpu, device, expectRejected, storage } from './portable-helpers.js';

/** A null device that answers as WebGL2 does: no compute, GLSL, float render targets. */
function webgl2Like(hostShadows: boolean): NullDevice {
  const d = new NullDevice({ hostShadows, features: { compute: false } });
  Object.assign(d, { caps: { ...d.caps, backend: 'webgl2', shaderLanguage: 'glsl' } });
  return d;
}

const words = (n: number, seed: number, mask = 0xffff): Uint32Array => hashWords(n, seed, mask);

describe('cooperative kernels on the CPU path', () => {
  it('a tree sum in workgroup memory between barriers: each workgroup its sum by hand', () => {
    const a = words(256, 1);
    const out = cpu(TREE_SUM, 256, { a, sums: new Uint32Array(4) });
    const byHand = [0, 1, 2, 3].map((g) =>
      a.slice(g * 64, g * 64 + 64).reduce((s, x) => (s + x) >>> 0, 0),
    );
    expect(Array.from(out.sums as Uint32Array)).toEqual(byHand);
  });

  it('atomicAdd into a storage array and a writable single value: the totals by hand', () => {
    const a = words(300, 2);
    const out = cpu(SUM_ATOMIC, 300, { a, total: new Uint32Array(4), counter: new Uint32Array(4) });
    expect((out.total as Uint32Array)[0]).toBe(a.reduce((s, x) => (s + x) >>> 0, 0));
    // every invocation counted once, past the guard too (the grid is whole workgroups: 320)
    expect((out.counter as Uint32Array)[0]).toBe(320);
  });

  it('every atomic built-in on u32 and i32, in workgroup memory and storage: the results by hand', () => {
    const a = words(64, 3, 0xff);
    const out = cpu(ATOMICS, 64, { a, u: new Uint32Array(12), s: new Uint32Array(4) });
    const u = out.u as Uint32Array;
    const values = Array.from(a);
    expect(u[0]).toBe(values.reduce((m, x) => Math.max(m, x), 0));
    expect(u[1]).toBe(values.reduce((m, x) => Math.min(m, x), 0xffffffff));
    expect(u[2]).toBe(values.reduce((m, x) => (m & (x | 0xffffff00)) >>> 0, 0xffffffff));
    expect(u[3]).toBe(values.reduce((m, x) => (m | x) >>> 0, 0));
    expect(u[4]).toBe(values.reduce((m, x) => (m ^ x) >>> 0, 0));
    expect(u[5]).toBe((1000 - values.reduce((s, x) => s + x, 0)) >>> 0); // atomicSub wraps
    expect(u[6]).toBe(64); // compare-exchange increments, one each
    // atomicExchange hands the slot on: what was handed on, and the last one, is every value
    expect([u[7], u[9]]).toEqual([0, values.reduce((s, x) => s + x, 0)]);
    const i = new Int32Array((out.s as Uint32Array).buffer);
    expect(i[0]).toBe(values.reduce((m, x) => Math.min(m, 100 - x), 0x7fffffff));
    expect(i[1]).toBe(values.reduce((m, x) => Math.max(m, 100 - x), -0x80000000));
    // the workgroup's atomicLoad after its barrier: the sum of the workgroup's values
    expect(u[8]).toBe(values.reduce((s, x) => s + x, 0));
  });

  it('an append buffer: atomicAdd on a member before the array picks each kept value its slot', () => {
    const a = words(500, 5);
    const out = cpu(APPEND, 500, { a, out: new Uint32Array(4 + 2 * 500) });
    const o = out.out as Uint32Array;
    const kept = Array.from(a)
      .map((v, i) => [v, i])
      .filter(([v]) => (v as number) % 3 === 0);
    expect([o[0], o[1]]).toEqual([kept.length, a.reduce((s, x) => (s + x) >>> 0, 0)]);
    // the CPU runs the invocations in order: the items in the order of their sources
    expect(Array.from(o.slice(2, 2 + 2 * kept.length))).toEqual(kept.flat());
  });

  it('a transpose through an 8×8 tile of workgroup memory on a 2-D grid (20×12): the matrix transposed', () => {
    const [w, h] = [20, 12];
    const src = Uint32Array.from({ length: w * h }, (_, i) => 1000 + i);
    const d = device();
    const buffers = {
      size: storage(d, new Uint32Array([w, h, 0, 0]), 'size'),
      src: storage(d, src, 'src'),
      dst: storage(d, new Uint32Array(w * h), 'dst'),
    };
    createPortableCompute(d, {
      code: TILE_TRANSPOSE,
      count: [w, h],
      buffers,
      path: 'cpu',
    }).dispatch(d.createCommandEncoder());
    const dst = new Uint32Array(buffers.dst.hostShadow?.bytes.buffer as ArrayBuffer);
    // dst is h wide: dst[x][y] = src[y][x]
    expect(Array.from(dst)).toEqual(
      Array.from({ length: w * h }, (_, k) => src[(k % h) * w + Math.floor(k / h)]),
    );
  });

  it("var<private> values stay each invocation's own across barriers", () => {
    const out = cpu(BARRIER_PRIVATES, 32, { out: new Uint32Array(32) });
    const o = out.out as Uint32Array;
    // each invocation counts its own barriers (3) on its own id, and reads its neighbour's slot
    expect(Array.from(o)).toEqual(
      Array.from({ length: 32 }, (_, i) => i * 10 + 3 + ((i + 1) % 16) + 16 * Math.floor(i / 16)),
    );
  });

  it('workgroupUniformLoad: every invocation reads the value one wrote before the barrier', () => {
    const out = cpu(UNIFORM_LOAD, 128, { out: new Uint32Array(128) });
    expect(Array.from(out.out as Uint32Array)).toEqual(
      Array.from({ length: 128 }, (_, i) => 1000 + Math.floor(i / 32) * 32 + 31),
    );
  });
});

describe("Babylon.js's radix sort, unchanged, on the CPU path", () => {
  it('sorts 3,000 keys with their values as a stable sort does (8 passes of count, scans, scatter)', async () => {
    const keys = hashWords(3000, 9);
    const sorted = await babylonSort(device(), keys, 'cpu');
    const order = stableOrder(keys);
    expect(Array.from(sorted.keys)).toEqual(order.map((i) => keys[i]));
    expect(Array.from(sorted.values)).toEqual(order);
  });
});

describe('pointers held in lets (the CPU path)', () => {
  it('to a writable storage element, a read-only one, a local array element and a var<private>: the particles by hand', () => {
    const n = 70;
    const forces = Float32Array.from({ length: 2 * 6 }, (_, k) => (k % 3) - 1);
    const ps = Float32Array.from({ length: 4 * n }, (_, k) => (k % 7) * 0.25);
    const out = cpu(LET_POINTERS, n, {
      forces: new Uint32Array(forces.buffer),
      particles: new Uint32Array(ps.buffer),
    });
    const got = new Float32Array((out.particles as Uint32Array).buffer);
    const f32 = Math.fround;
    for (let i = 0; i < n; i++) {
      const [fx, fy] = [forces[2 * (i % 6)] as number, forces[2 * (i % 6) + 1] as number];
      let [px, py, vx, vy] = Array.from(ps.slice(4 * i, 4 * i + 4));
      const bins = [1, 2, 3, 4];
      for (let k = 0; k < 3; k++) {
        vx = f32((vx as number) + f32(fx * 0.5));
        vy = f32((vy as number) + f32(fy * 0.5));
        px = f32((px as number) + vx);
        py = f32((py as number) + vy);
        bins[i % 4] = (bins[i % 4] as number) + k;
      }
      vx = bins.reduce((a, b) => a + b, 0);
      expect(Array.from(got.slice(4 * i, 4 * i + 4)), `particle ${i}`).toEqual([px, py, vx, vy]);
    }
  });

  it('the ping-pong refuses them; writing through a pointer into read-only storage, or taking a vector component, is refused', () => {
    const head = `@group(0) @binding(0) var<storage, read> a: array<vec4f>;\n@group(0) @binding(1) var<storage, read_write> b: array<vec4f>;\n`;
    expectRejected(
      `${head}@compute @workgroup_size(1) fn main() { let p = &a[0]; (*p).x = 1.0; b[0] = *p; }`,
      'p',
      3,
      /p points into read-only storage: nothing is written through it/,
      { cpu: true },
    );
    expectRejected(
      `${head}@compute @workgroup_size(1) fn main() { var v = vec4f(); let p = &v.x; b[0] = v; }`,
      '&',
      3,
      /WGSL takes no address of a vector component/,
      { cpu: true },
    );
    expectRejected(
      `${head}@compute @workgroup_size(1) fn main() { let p = &b[0]; (*p).x = 1.0; }`,
      '&',
      3,
      /a pointer held in a let is not portable/,
    );
  });
});

describe('where a cooperative kernel runs, and what is refused', () => {
  it('WebGPU runs it as written and reports what keeps it off the ping-pong path', () => {
    const sim = createPortableCompute(new NullDevice(), { code: TREE_SUM, count: 64 });
    expect(sim.path).toBe('compute');
    if (!sim.portability.portable) throw new Error('expected a portable kernel');
    expect(sim.portability.pingpong?.construct).toBe('var<workgroup>');
  });

  it("the ping-pong path refuses it, naming the construct; 'auto' without host copies says how to get the CPU path", () => {
    const d = webgl2Like(false);
    let error: unknown;
    try {
      createPortableCompute(d, { code: SUM_ATOMIC, count: 64, path: 'pingpong' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PortableKernelError);
    expect((error as PortableKernelError).construct).toBe('atomic');
    expect((error as Error).message).toMatch(/on the ping-pong path \(WebGL2\); the CPU path runs/);
    expect(() => createPortableCompute(d, { code: SUM_ATOMIC, count: 64 })).toThrow(
      /create the device with hostShadows: true/,
    );
  });

  it("'auto' on WebGL2 with host copies takes the CPU path and says why", () => {
    const d = webgl2Like(true);
    const sim = createPortableCompute(d, { code: TREE_SUM, count: 64 });
    expect(sim.path).toBe('cpu');
    expect(sim.reason).toMatch(/the ping-pong path cannot run var<workgroup> \(line 3\)/);
  });

  it('a barrier only some invocations of a workgroup reach is a KernelError naming them, not a hang or a wrong result', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> t: array<u32, 8>;
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) l: u32) {
  if (l == 3u) { return; }
  t[l] = l;
  workgroupBarrier();
  out[l] = t[(l + 1u) % 8u];
}`;
    const run = (): unknown => cpu(code, 8, { out: new Uint32Array(8) });
    expect(run).toThrow(KernelError);
    expect(run).toThrow(
      /workgroup 0: invocation 3 \(local index\) ended while invocation 0 waits at a barrier/,
    );
  });

  it('element-wise kernels (defineKernel) still refuse them: they run as fragment passes', () => {
    expect(() => analyzeKernel('k', TREE_SUM)).toThrow(/workgroup memory is not portable/);
  });

  it('an atomic used as a value, an atomic of f32, an initialised var<workgroup> and atomics in read-only storage are refused by name', () => {
    const head = `@group(0) @binding(0) var<storage, read_write> t: array<atomic<u32>>;\n`;
    const cases: Array<[string, string, number, RegExp]> = [
      [
        `${head}@compute @workgroup_size(1) fn main() { let x = t[0]; }`,
        'atomic<u32>',
        2,
        /read and written with the atomic built-ins/,
      ],
      [
        `${head}@compute @workgroup_size(1) fn main() { t[0] = 1u; }`,
        'atomic<u32>',
        2,
        /not as a value/,
      ],
      [
        `var<workgroup> w: atomic<f32>;\n@compute @workgroup_size(1) fn main() { atomicAdd(&w, 1.0); }`,
        'atomic',
        1,
        /an atomic holds u32 or i32/,
      ],
      [
        `var<workgroup> w: u32 = 1u;\n@compute @workgroup_size(1) fn main() { w = 2u; }`,
        'w',
        1,
        /cannot have an initializer/,
      ],
      [
        `@group(0) @binding(0) var<storage, read_write> t: array<u32>;\n@compute @workgroup_size(1) fn main() { atomicAdd(&t[0], 1u); }`,
        'atomicAdd',
        2,
        /needs an atomic<u32> or atomic<i32> \(got u32\)/,
      ],
      [
        `var<private> p: atomic<u32>;\n@compute @workgroup_size(1) fn main() { atomicAdd(&p, 1u); }`,
        'atomicAdd',
        2,
        /in a var<workgroup> or a read_write storage buffer \(p is neither\)/,
      ],
    ];
    for (const [code, construct, line, message] of cases)
      expectRejected(code, construct, line, message, { cpu: true });
  });
});
