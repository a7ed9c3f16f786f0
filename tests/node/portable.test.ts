// Portable compute in Node: the front end's checks (every rejected construct a KernelError with its
// line and column), and the CPU path against wgsl_reflect's WGSL interpreter, an independent oracle.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { device, interpret, rejection, storage, uniform } from './portable-helpers.js';
import {
  BufferUsage,
  NullDevice,
  createParticleSystem,
  UsageError,
  ValidationError,
} from '../../src/all.js';
import { analyzeKernel, createPortableCompute } from '../../src/compute/portable/index.js';

import {
  HASH,
  INFERRED,
  INFERRED_SPELLED,
  MIXER,
  PCG,
  wrapStorageArrays,
} from '../gpu/page/portable-kernels.js';

const boids = readFileSync(new URL('../../demos/compute-boids/sim.wgsl', import.meta.url), 'utf8');

describe('portable compute: the CPU path against the WGSL interpreter', () => {
  it('an integer-hash kernel gives the bits of a hand-written JavaScript mirror', () => {
    const d = device();
    const seedWords = new Uint32Array([0x9e3779b9, 123456, 0, 0]);
    const srcWords = Uint32Array.from({ length: 12 }, (_, i) => Math.imul(i, 2654435761) >>> 0);
    const count = 20;
    const m = analyzeKernel('hash', HASH);
    const stride = (m.bindings.find((b) => b.name === 'dst')?.type as { stride: number }).stride;
    expect(stride).toBe(24); // u32, f32, i32, then vec2u aligned to 8
    const dst = new Uint32Array((count * stride) / 4).fill(0xdeadbeef);
    const bufs = {
      seed: uniform(d, seedWords),
      src: storage(d, srcWords, 'src'),
      dst: storage(d, dst, 'dst'),
    };
    const pc = createPortableCompute(d, { code: HASH, count, buffers: bufs, path: 'cpu' });
    expect(pc.path).toBe('cpu');
    pc.dispatch(d.createCommandEncoder());
    const ours = new Uint32Array(bufs.dst.hostShadow?.bytes.buffer as ArrayBuffer);
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    const xorshift = (v: number): number => {
      let x = (v | 1) >>> 0;
      x = (x ^ (x << 13)) >>> 0;
      x = (x ^ (x >>> 17)) >>> 0;
      return (x ^ (x << 5)) >>> 0;
    };
    const mixer = (a: number, b: number): number => {
      const sel = b & 3;
      if (sel === 0) return (Math.imul(a, 31) - b) | 0;
      if (sel === 1 || sel === 2) return ((a ^ b) / 7) | 0;
      return (-a % 5) | 0;
    };
    for (let i = 0; i < count; i++) {
      let h = (seedWords[0]! ^ srcWords[(i * 7) % 12]!) >>> 0;
      for (let k = 0; k < 3; k++) h = xorshift((h + k) >>> 0);
      for (let n = 0; n < (h & 7);) {
        n++;
        h = (h ^ (n << 3)) >>> 0;
      }
      const f = Math.fround((h & 0xffff) / 65536);
      f32[0] = h & 1 ? Math.floor(Math.fround(f * 10)) : Math.fround(Math.fround(f * 2) - 1);
      const w = (i * stride) / 4;
      expect([ours[w], ours[w + 1], ours[w + 2], ours[w + 3], ours[w + 4], ours[w + 5]]).toEqual([
        h,
        u32[0],
        mixer(h | 0, i - 4) >>> 0,
        0xdeadbeef, // padding keeps its bits
        (h >>> 16) + 1,
        Math.min(h, seedWords[1]!) + 1,
      ]);
    }
  });

  it('integer and float statements agree with the interpreter (where it computes u32 exactly)', () => {
    // wgsl_reflect 1.6.0's interpreter is wrong for u32 products past 2^53 and for shifts of
    // values with the top bit set: those are checked against hand-written JavaScript above.
    const statements = [
      'o[i] = seed.x ^ src[(i * 7u) % arrayLength(&src)];',
      'var h = i * 3u; var n = 0u; loop { if (n >= (h & 7u)) { break; } n += 1u; continuing { h = h ^ (n << 3u); } } o[i] = h;',
      'o[i] = bitcast<u32>(mixer(i32(i) * 1000 - 7, i32(i) - 4));',
      'let f = f32(i * 4567u & 0xffffu) / 65536.0; o[i] = bitcast<u32>(select(f * 2.0 - 1.0, floor(f * 10.0), (i & 1u) == 1u));',
      'o[i] = (vec2u(i >> 1u, min(i, seed.y)) + vec2u(1u)).y;',
      'var a = array<f32, 3>(1.5, f32(i), -2.0); a[i % 3u] = 4.0; o[i] = bitcast<u32>(a[0] * a[1] + a[2] + fract(1.25 * f32(i)));',
      'var s = 0; while (s < i32(i) * 3) { s += 2; } o[i] = u32(s);',
    ];
    for (const statement of statements) {
      const code = `
@group(0) @binding(0) var<uniform> seed: vec4u;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> o: array<u32>;
${MIXER}
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) gid: vec3u) { let i = gid.x; ${statement} }`;
      const n = 8;
      const seed = new Uint32Array([0x9e3779b9, 5, 0, 0]);
      const src = Uint32Array.from({ length: 12 }, (_, i) => Math.imul(i, 2654435761) >>> 0);
      const d = device();
      const o = storage(d, new Uint32Array(n), 'o');
      const buffers = { seed: uniform(d, seed), src: storage(d, src, 'src'), o };
      createPortableCompute(d, { code, count: n, path: 'cpu', buffers }).dispatch(
        d.createCommandEncoder(),
      );
      const oracle = interpret(code, n, {
        0: seed,
        1: src,
        2: new Uint32Array(n),
      })[2] as Uint32Array;
      expect(
        Array.from(new Uint32Array(o.hostShadow?.bytes.buffer as ArrayBuffer)),
        statement,
      ).toEqual(Array.from(oracle));
    }
  });

  it('PCG gives the bits of a hand-written JavaScript PCG (the interpreter computes u32 products in doubles)', () => {
    const d = device();
    const n = 64;
    const o = storage(d, new Uint32Array(n), 'o');
    createPortableCompute(d, { code: PCG, count: n, buffers: { o }, path: 'cpu' }).dispatch(
      d.createCommandEncoder(),
    );
    const ours = new Uint32Array(o.hostShadow?.bytes.buffer as ArrayBuffer);
    for (let i = 0; i < n; i++) {
      const state = (Math.imul(i, 747796405) + 2891336453) >>> 0;
      const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
      expect(ours[i]).toBe(((word >>> 22) ^ word) >>> 0);
    }
  });

  it('boids (the webgpu-samples rule) agree within 1e-6 after one step', () => {
    const d = device();
    const n = 48;
    const state = new Float32Array(4 * n).map(
      (_, i) => Math.sin(i * 12.9898) * (i % 4 < 2 ? 0.9 : 0.09),
    );
    const params = new ArrayBuffer(32);
    new Float32Array(params).set([0.04, 0.1, 0.025, 0.025, 0.02, 0.05, 0.005]);
    new Uint32Array(params)[7] = n;
    const bufs = {
      params: uniform(d, new Uint8Array(params)),
      boidsIn: storage(d, state, 'in'),
      boidsOut: storage(d, new Float32Array(4 * n), 'out'),
    };
    const pc = createPortableCompute(d, { code: boids, count: n, buffers: bufs, path: 'cpu' });
    pc.dispatch(d.createCommandEncoder());
    const ours = new Float32Array(bufs.boidsOut.hostShadow?.bytes.buffer as ArrayBuffer);
    const oracle = new Float32Array(
      (
        interpret(boids.replace('@workgroup_size(64)', '@workgroup_size(1)'), n, {
          0: new Uint32Array(params),
          1: new Uint32Array(state.buffer),
          2: new Uint32Array(4 * n),
        })[2] as Uint32Array
      ).buffer,
    );
    let moved = 0;
    for (let i = 0; i < 4 * n; i++) {
      expect(Math.abs((ours[i] as number) - (oracle[i] as number))).toBeLessThan(1e-6);
      if (ours[i] !== state[i]) moved++;
    }
    expect(moved).toBeGreaterThan(3 * n);
  });
});

describe('portable compute: the gather shape', () => {
  const head = `@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
`;
  const body = (s: string): string =>
    `${head}@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3u) {\n  let i = id.x;\n  ${s}\n}`;
  const cases: Array<[string, string, string, number]> = [
    [
      'atomics',
      `${head}@group(0) @binding(2) var<storage, read_write> c: array<atomic<u32>>;\n@compute @workgroup_size(1) fn main() { atomicAdd(&c[0], 1u); }`,
      'atomic',
      3,
    ],
    ['atomic calls', body('atomicAdd(&b, 1u);'), 'atomicAdd', 6],
    [
      'workgroup memory',
      `${head}var<workgroup> tile: array<f32, 64>;\n@compute @workgroup_size(1) fn main() { tile[0] = 1.0; }`,
      'var<workgroup>',
      3,
    ],
    ['barriers', body('workgroupBarrier();'), 'workgroupBarrier', 6],
    [
      'a write at a computed index inside a loop',
      body('for (var k = 0u; k < 2u; k++) { b[2u * i + k] = a[i]; }'),
      'b',
      6,
    ],
    [
      'storage textures',
      `${head}@group(0) @binding(2) var t: texture_storage_2d<rgba8unorm, write>;\n@compute @workgroup_size(1) fn main() { textureStore(t, vec2i(0), vec4f(b[0])); }`,
      'texture_storage_2d',
      3,
    ],
    [
      'pointers into storage',
      `${head}fn f(p: ptr<storage, array<f32>, read_write>) -> f32 { return 1.0; }\n@compute @workgroup_size(1) fn main() { b[0] = f(&b); }`,
      'ptr<storage>',
      3,
    ],
    ['a pointer held in a let', body('var x = 1.0; let q = &x;'), '&', 6],
    [
      'builtins other than the compute grid',
      `${head}@compute @workgroup_size(64)\nfn main(@builtin(subgroup_invocation_id) l: u32) {\n}`,
      'subgroup_invocation_id',
      4,
    ],
    [
      'writable storage in a helper',
      `${head}fn f(i: u32) { b[i] = 1.0; }\n@compute @workgroup_size(1) fn main() { f(0u); }`,
      'b',
      3,
    ],
    [
      'a write to the members before a writable array',
      `struct D { n: u32, items: array<f32> };\n@group(0) @binding(0) var<storage, read_write> d: D;\n@compute @workgroup_size(1) fn main() {\n  d.n = 1u;\n}`,
      'n',
      4,
    ],
    [
      'a single writable value',
      `@group(0) @binding(0) var<storage, read_write> total: u32;\n@compute @workgroup_size(1) fn main() { total = 1u; }`,
      'total',
      1,
    ],
    ['implicit conversions', body('b[i] = a[i] + i;'), '+', 6],
    ['unknown identifiers', body('b[i] = c;'), 'c', 6],
    [
      'recursion',
      `${head}fn f(x: u32) -> u32 { return g(x); }\nfn g(x: u32) -> u32 { return f(x); }\n@compute @workgroup_size(1) fn main() {}`,
      'f',
      3,
    ],
    ['f16 matrices', body('let m = mat2x2h();'), 'f16', 6],
  ];
  for (const [what, code, construct, line] of cases)
    it(`rejects ${what} with a KernelError naming it, its line and column`, () => {
      const k = rejection(code);
      expect(k.construct).toBe(construct);
      expect(k.line).toBe(line);
      const text = code.split('\n')[line - 1] as string;
      expect(k.column).toBeGreaterThanOrEqual(1);
      expect(k.column).toBeLessThanOrEqual(text.length);
      expect(k.message).toMatch(new RegExp(`line ${line}, column ${k.column}`));
      // the source line, and a caret under the column
      const [shown, caret] = k.excerpt.split('\n') as [string, string];
      expect(shown).toBe(`${line} | ${text}`);
      expect(caret.indexOf('^') - caret.indexOf('|') - 2).toBe(k.column - 1);
    });

  // Regression: a syntax error said where the parser stopped ("Line: 6" for a ';' missing on
  // line 5), with no column and no line/column fields
  it('a WGSL syntax error points at the mistake: a missing ; just after the statement it ends', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  let v = i * 2u
  o[i] = v;
}`;
    const k = rejection(code);
    expect([k.construct, k.line, k.column]).toEqual(['syntax', 5, 17]);
    expect(k.message).toMatch(
      /WGSL does not parse: Expected ';' after statement \(line 5, column 17\)/,
    );
    expect(k.excerpt).toBe('5 |   let v = i * 2u\n  |                 ^');
  });

  it('a WGSL syntax error elsewhere points at the token the parser could not take', () => {
    const code = `@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let 5 = id.x;
}`;
    const k = rejection(code);
    expect([k.line, k.column]).toEqual([3, 7]);
    expect(k.message).toMatch(/Expected name for let/);
  });

  it('accepts the gather shape: any read-only element, its own writable element', () => {
    const m = analyzeKernel('ok', body('let j = u32(i32(i) - 1); b[i] = a[j] + a[i + 1u] + b[i];'));
    expect(m.bindings.map((b) => `${b.name}:${b.access}`)).toEqual(['a:read', 'b:read_write']);
  });
});

describe('portable compute: arguments', () => {
  it('checks buffers by binding name, usage, size and aliasing', () => {
    const d = device();
    const code = `@group(0) @binding(0) var<storage, read> a: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { b[id.x] = a[id.x] * 2.0; }`;
    const ok = storage(d, new Float32Array(16), 'ok');
    const pc = createPortableCompute(d, { code, count: 4, path: 'cpu' });
    expect(() => pc.setBuffers({ c: ok })).toThrow(/no binding named c .*bindings: a, b/);
    const plain = d.createBuffer({ size: 64, usage: BufferUsage.STORAGE });
    expect(() => pc.setBuffers({ b: plain })).toThrow(UsageError);
    const odd = d.createBuffer({
      size: 20,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    expect(() => pc.setBuffers({ a: odd })).toThrow(/multiple of 16 bytes/);
    expect(() => pc.dispatch(d.createCommandEncoder())).toThrow(/no buffer bound for a, b/);
    expect(() => pc.dispatch(d.createCommandEncoder(), { a: ok, b: ok })).toThrow(ValidationError);
    expect(() => createPortableCompute(d, { code, count: 0 })).toThrow(/count 0/);
    expect(() => createPortableCompute(new NullDevice(), { code, count: 4, path: 'cpu' })).toThrow(
      /hostShadows/,
    );
  });
});

describe('particle behaviours', () => {
  it('a behaviour that does not translate is a ParticleOptionError naming behavior, with the WGSL line', async () => {
    const d = new NullDevice();
    const code =
      'fn behavior(index: u32, p: Particle) -> Particle {\n  atomicAdd(&p, 1u);\n  return p;\n}';
    await expect(createParticleSystem(d, { count: 10, behavior: { code } })).rejects.toThrow(
      /Particle option behavior .*atomicAdd\(\): atomics are not portable.*\n.*atomicAdd/s,
    );
    await expect(
      createParticleSystem(d, { count: 10, behavior: { code: 'fn nope() {}' } }),
    ).rejects.toThrow(/behavior/);
    await expect(
      createParticleSystem(d, { count: 10, behavior: { code: 'x', uniforms: { dt: 1 } } }),
    ).rejects.toThrow(/behavior\.uniforms\.dt .*canonical uniforms/);
    await expect(
      createParticleSystem(d, {
        count: 10,
        behavior: { code: 'x', uniforms: { k: [1, 2, 3, 4, 5] } },
      }),
    ).rejects.toThrow(/2 to 4 numbers/);
  });

  it('a behaviour using a word WGSL reserves is refused on every backend, naming it and its line', async () => {
    // wgsl_reflect parses `from` as a name and GLSL and JavaScript accept it; WebGPU's compiler
    // does not, so without this the update would do nothing on WebGPU alone
    for (const [word, code] of [
      [
        'from',
        'fn behavior(index: u32, p: Particle) -> Particle {\n  let from = p.position;\n  return Particle(from, p.velocity);\n}',
      ],
      [
        'target',
        'fn target(q: vec4f) -> vec4f { return q; }\nfn behavior(index: u32, p: Particle) -> Particle {\n  return Particle(target(p.position), p.velocity);\n}',
      ],
      [
        'module',
        'fn behavior(index: u32, p: Particle) -> Particle {\n  var module = 1.0;\n  return p;\n}',
      ],
    ] as const) {
      const d = new NullDevice();
      await expect(createParticleSystem(d, { count: 10, behavior: { code } })).rejects.toThrow(
        new RegExp(`behavior .*"${word}" is a reserved word in WGSL`, 's'),
      );
    }
  });

  it("runs on the CPU path through the behaviour's JavaScript translation", async () => {
    const d = new NullDevice({
      features: { compute: false, floatRenderTargets: false, halfFloatRenderTargets: false },
    });
    const code = `fn behavior(index: u32, p: Particle) -> Particle {
  return Particle(p.position + vec4f(params.push, 0.0, 0.0, params.dt), p.velocity);
}`;
    const ps = await createParticleSystem(d, {
      count: 4,
      behavior: { code, uniforms: { push: 0.5 } },
    });
    expect(ps.path).toBe('cpu');
    const before = await ps.read();
    ps.step(0.25);
    const after = await ps.read();
    for (let i = 0; i < 4; i++) {
      expect(after.position[4 * i]).toBeCloseTo((before.position[4 * i] as number) + 0.5, 5);
      expect(after.position[4 * i + 3]).toBeCloseTo(
        (before.position[4 * i + 3] as number) + 0.25,
        6,
      );
    }
    ps.setOptions({ behavior: { code, uniforms: { push: -1 } } }); // a uniform's value may change
    ps.step(0.25);
    expect((await ps.read()).position[0]).toBeCloseTo((before.position[0] as number) - 0.5, 5);
    expect(() => ps.setOptions({ behavior: { code: `${code}\n`, uniforms: { push: 1 } } })).toThrow(
      /changes the update kernel/,
    );
  });
});

describe("particle behaviours with reads: 'all'", () => {
  it('read other particles as they were before the step (compute on the null device, and the CPU path)', async () => {
    for (const features of [
      {},
      { compute: false, floatRenderTargets: false, halfFloatRenderTargets: false },
    ]) {
      const d = new NullDevice({ features });
      const code = `fn behavior(index: u32, p: Particle) -> Particle {
  let next = particle((index + 1u) % params.count);
  return Particle(vec4f(next.position.xyz, p.position.w), p.velocity);
}`;
      const ps = await createParticleSystem(d, { count: 5, behavior: { code, reads: 'all' } });
      if (ps.path !== 'cpu') continue; // the null backend runs no shaders: the CPU path is what runs here
      const before = await ps.read();
      ps.step(0.1);
      const after = await ps.read();
      for (let i = 0; i < 5; i++)
        expect(after.position[4 * i]).toBe(before.position[4 * ((i + 1) % 5)]);
    }
    await expect(
      createParticleSystem(new NullDevice(), {
        count: 5,
        behavior: { code: 'x', reads: 'some' as 'all' },
      }),
    ).rejects.toThrow(/behavior\.reads/);
  });
});

describe('portable compute in explicit barrier mode', () => {
  it('declares the barriers its dispatches need (a ping-pong A → B → A records without a MissingBarrierError)', () => {
    const d = new NullDevice({ barriers: 'explicit' });
    const code = `@group(0) @binding(0) var<storage, read> a: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { b[id.x] = a[id.x] + vec4f(1.0); }`;
    const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
    const x = d.createBuffer({ size: 64, usage });
    const y = d.createBuffer({ size: 64, usage });
    const sim = createPortableCompute(d, { code, count: 4 });
    expect(sim.path).toBe('compute');
    const enc = d.createCommandEncoder();
    for (let i = 0; i < 4; i++) sim.dispatch(enc, i % 2 ? { a: y, b: x } : { a: x, b: y });
    d.queue.submit([enc.finish()]);
  });
});

describe('storage declared as most WGSL declares it: a struct naming a runtime-sized array', () => {
  const wrapped = wrapStorageArrays(boids);

  it('the flock with struct-wrapped arrays gives the bits of the array-bound flock (CPU path) and of the interpreter', () => {
    expect(wrapped).toMatch(/var<storage, read> boidsIn: boidsIn_;/);
    expect(wrapped).toMatch(/boidsIn\.items\[i\]/);
    const n = 40;
    const state = new Float32Array(4 * n).map(
      (_, i) => Math.cos(i * 7.31) * (i % 4 < 2 ? 0.9 : 0.09),
    );
    const params = new ArrayBuffer(32);
    new Float32Array(params).set([0.04, 0.1, 0.025, 0.025, 0.02, 0.05, 0.005]);
    new Uint32Array(params)[7] = n;
    const run = (code: string): Float32Array => {
      const d = device();
      const bufs = {
        params: uniform(d, new Uint8Array(params)),
        boidsIn: storage(d, state, 'in'),
        boidsOut: storage(d, new Float32Array(4 * n), 'out'),
      };
      const pc = createPortableCompute(d, { code, count: n, buffers: bufs, path: 'cpu' });
      pc.dispatch(d.createCommandEncoder());
      return new Float32Array((bufs.boidsOut.hostShadow?.bytes.buffer as ArrayBuffer).slice(0));
    };
    const plain = run(boids);
    const ours = run(wrapped);
    expect(new Uint32Array(ours.buffer)).toEqual(new Uint32Array(plain.buffer));
    const oracle = new Float32Array(
      (
        interpret(wrapped.replace('@workgroup_size(64)', '@workgroup_size(1)'), n, {
          0: new Uint32Array(params),
          1: new Uint32Array(state.buffer),
          2: new Uint32Array(4 * n),
        })[2] as Uint32Array
      ).buffer,
    );
    for (let i = 0; i < 4 * n; i++)
      expect(Math.abs((ours[i] as number) - (oracle[i] as number))).toBeLessThan(1e-6);
  });

  it("arrayLength(&s.items) is the array's length", () => {
    const code = wrapStorageArrays(`
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  dst[i] = src[(i + 1u) % arrayLength(&src)] + arrayLength(&dst);
}`);
    expect(code).toMatch(/arrayLength\(&src\.items\)/);
    const d = device();
    const src = storage(
      d,
      Uint32Array.from({ length: 8 }, (_, i) => 10 * i),
      'src',
    );
    const dst = storage(d, new Uint32Array(8), 'dst');
    const pc = createPortableCompute(d, { code, count: 8, buffers: { src, dst }, path: 'cpu' });
    pc.dispatch(d.createCommandEncoder());
    expect(Array.from(new Uint32Array(dst.hostShadow?.bytes.buffer as ArrayBuffer))).toEqual([
      18, 28, 38, 48, 58, 68, 78, 8,
    ]);
  });
});

describe('vector constructors without their element type (vec4(…), vec2(1, 2))', () => {
  it('infer it as WGSL does, and give the bits of the kernel with every type spelled out and of the interpreter', () => {
    expect(INFERRED).toMatch(/vec4\(p\.xyz/);
    expect(INFERRED_SPELLED).toMatch(/vec2<i32>\(3, -2\)/);
    expect(INFERRED_SPELLED).not.toMatch(/vec[24]\(/);
    const n = 70;
    const input = Float32Array.from({ length: 4 * n }, (_, i) => Math.sin(i * 1.7) * 3);
    const run = (code: string): Uint32Array => {
      const d = device();
      const a = storage(d, input, 'a');
      const b = storage(d, new Float32Array(4 * n), 'b');
      createPortableCompute(d, { code, count: n, buffers: { a, b }, path: 'cpu' }).dispatch(
        d.createCommandEncoder(),
      );
      return new Uint32Array((b.hostShadow?.bytes.buffer as ArrayBuffer).slice(0));
    };
    const ours = run(INFERRED);
    expect(ours).toEqual(run(INFERRED_SPELLED));
    const oracle = interpret(INFERRED.replace('@workgroup_size(64)', '@workgroup_size(1)'), n, {
      0: new Uint32Array(input.buffer),
      1: new Uint32Array(4 * n),
    })[1] as Uint32Array;
    expect(Array.from(ours)).toEqual(Array.from(oracle));
  });
});
