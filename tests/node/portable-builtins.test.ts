// The integer-bit, packing and remaining numeric built-ins on the CPU path, each against a
// definition written the slow way (bit by bit, by search over every binary16, from the WGSL
// specification's formulas), and what stays refused. The browser runs BITS on every path against
// raw WebGPU (tests/gpu/cases/portable-world.ts), in Chromium and Firefox.
import { describe, expect, it } from 'vitest';
import { cpu, expectRejected, rejection } from './portable-helpers.js';
import { MORE_BUILTINS } from '../../src/compute/portable/analyze-builtins.js';
import { analyzeKernel } from '../../src/compute/portable/analyze.js';
import { glslBuiltinCall } from '../../src/compute/portable/glsl-builtins.js';
import { emitGlsl } from '../../src/compute/portable/glsl.js';
import { runtime } from '../../src/compute/portable/runtime.js';
import { KernelError } from '../../src/compute/kernel-error.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
// the run-time tables by the first argument's scalar type, as the translated kernels call them
const B = runtime.B as unknown as Record<
  'f32' | 'i32' | 'u32',
  Record<string, (...a: any[]) => any>
>;
const bit = (x: number, i: number): number => (x >>> i) & 1;
const fromBits = (bits: number[]): number => bits.reduce((w, b, i) => (w | (b << i)) >>> 0, 0);
const bitsOf = (x: number): number[] => Array.from({ length: 32 }, (_, i) => bit(x, i));

// words with every bit set, none, only the sign, only bit 0, and hashed ones
const WORDS = [0, 0xffffffff, 0x80000000, 1, 0x7fffffff, 0x00010000, 0xdeadbeef];
for (let k = 0; k < 40; k++) WORDS.push(Math.imul(k + 7, 2654435761) >>> (Math.imul(k, 7) % 13));

/** Runs `body` (WGSL using `x: u32`, `y: i32`, `k: u32` = the index) for every word; out[i] is its u32 result. */
function perWord(body: string): Uint32Array {
  const code = `@group(0) @binding(0) var<storage, read> words: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let k = id.x;
  if (k >= arrayLength(&out)) { return; }
  let x = words[k];
  let y = bitcast<i32>(x);
  out[k] = ${body};
}`;
  const n = WORDS.length;
  return cpu(code, n, { words: Uint32Array.from(WORDS), out: new Uint32Array(n) })
    .out as Uint32Array;
}

describe('integer bit built-ins (CPU path)', () => {
  it('countOneBits, countLeadingZeros, countTrailingZeros, reverseBits: the bits counted and reversed one by one', () => {
    const got = [
      perWord('countOneBits(x)'),
      perWord('bitcast<u32>(countOneBits(y))'),
      perWord('countLeadingZeros(x)'),
      perWord('bitcast<u32>(countLeadingZeros(y))'),
      perWord('countTrailingZeros(x)'),
      perWord('reverseBits(x)'),
      perWord('bitcast<u32>(reverseBits(y))'),
    ];
    WORDS.forEach((w, k) => {
      const b = bitsOf(w);
      const ones = b.filter(Boolean).length;
      const lead = b.lastIndexOf(1) < 0 ? 32 : 31 - b.lastIndexOf(1);
      const trail = b.indexOf(1) < 0 ? 32 : b.indexOf(1);
      const reversed = fromBits([...b].reverse());
      expect(
        got.map((g) => g[k]),
        `word 0x${w.toString(16)}`,
      ).toEqual([ones, ones, lead, lead, trail, reversed, reversed]);
    });
  });

  it('firstLeadingBit (signed: the highest bit unlike the sign; -1 for 0 and -1) and firstTrailingBit', () => {
    const u = perWord('firstLeadingBit(x)');
    const s = perWord('bitcast<u32>(firstLeadingBit(y))');
    const t = perWord('firstTrailingBit(x)');
    const ti = perWord('bitcast<u32>(firstTrailingBit(y))');
    WORDS.forEach((w, k) => {
      const b = bitsOf(w);
      const sign = b[31] as number;
      let unlike = -1;
      for (let i = 30; i >= 0 && unlike < 0; i--) if (b[i] !== sign) unlike = i;
      expect([u[k], s[k], t[k], ti[k]], `word 0x${w.toString(16)}`).toEqual([
        b.lastIndexOf(1) >>> 0,
        unlike >>> 0,
        b.indexOf(1) >>> 0,
        b.indexOf(1) >>> 0,
      ]);
    });
  });

  it('extractBits and insertBits: fields bit by bit, the offset clamped to 32 and the count to what is left of the word', () => {
    const cases: Array<[number, number]> = [
      [0, 0],
      [0, 32],
      [3, 7],
      [28, 9],
      [31, 1],
      [40, 3],
      [5, 0],
      [16, 16],
    ];
    for (const [offset, count] of cases) {
      const o = Math.min(offset, 32);
      const c = Math.min(count, 32 - o);
      const xu = perWord(`extractBits(x, ${offset}u + k * 0u, ${count}u + k * 0u)`);
      const xi = perWord(`bitcast<u32>(extractBits(y, ${offset}u + k * 0u, ${count}u + k * 0u))`);
      const iu = perWord(`insertBits(x, ~x * 3u, ${offset}u + k * 0u, ${count}u + k * 0u)`);
      WORDS.forEach((w, k) => {
        const b = bitsOf(w);
        const field = b.slice(o, o + c);
        const top = c ? (field[c - 1] as number) : 0;
        const signed = [...field, ...Array<number>(32 - c).fill(top)];
        const n = bitsOf(Math.imul(~w, 3) >>> 0);
        const inserted = b.map((x, i) => (i >= o && i < o + c ? (n[i - o] as number) : x));
        expect(
          [xu[k], xi[k], iu[k]],
          `word 0x${w.toString(16)}, offset ${offset}, count ${count}`,
        ).toEqual([
          fromBits([...field, ...Array<number>(32 - c).fill(0)]),
          fromBits(signed),
          fromBits(inserted),
        ]);
      });
    }
  });
});

/** Every binary16 value, and the nearest one to `x` (ties to the even bit pattern), by search. */
const HALVES = Array.from({ length: 0x7c00 }, (_, h) =>
  h < 0x400 ? h * 2 ** -24 : (1024 + (h & 0x3ff)) * 2 ** ((h >> 10) - 25),
);
function nearestHalf(x: number): number {
  const a = Math.abs(x);
  let best = 0;
  for (let h = 1; h < HALVES.length; h++) {
    const d = Math.abs((HALVES[h] as number) - a) - Math.abs((HALVES[best] as number) - a);
    if (d < 0 || (d === 0 && h % 2 === 0)) best = h;
  }
  if (a >= 65520) best = 0x7c00; // past the largest half by half an ulp: infinity
  return (x < 0 || Object.is(x, -0) ? 0x8000 : 0) | best;
}

describe('packing built-ins (CPU path)', () => {
  it('pack2x16float rounds to the nearest binary16 (ties to even), as a search over every half finds; unpack2x16float gives it back', () => {
    const values = [
      0,
      -0,
      1,
      -1.5,
      3.7498855,
      65504,
      65519,
      65520,
      1e-5,
      -6.1e-5,
      5.96e-8,
      2.98e-8,
      0.1,
      1 / 3,
      1.00048828125,
      1.00146484375,
      2049.0,
      2051.0,
    ].map(Math.fround);
    for (const v of values) {
      const packed = B.f32.pack2x16float!([v, 0]) as number;
      expect(packed & 0xffff, `${v}`).toBe(nearestHalf(v));
      const back = (B.u32.unpack2x16float!(packed) as number[])[0] as number;
      const h = nearestHalf(v);
      const magnitude = (h & 0x7fff) === 0x7c00 ? Infinity : (HALVES[h & 0x7fff] as number);
      expect(back).toBe(h & 0x8000 ? -magnitude : magnitude);
      expect(B.f32.quantizeToF16!(v)).toBe(back);
    }
  });

  it('the norm packings follow WGSL: ⌊0.5 + scale × clamp(e)⌋ per component, and the unpackings scale back', () => {
    const v = [-1.25, -0.5, 0.25, 0.998];
    const snorm = v.map((x) => Math.floor(0.5 + 127 * Math.min(1, Math.max(-1, x))) & 0xff);
    const unorm = v.map((x) => Math.floor(0.5 + 255 * Math.min(1, Math.max(0, x))));
    const word = (bytes: number[]) => fromBits(bytes.flatMap((b) => bitsOf(b).slice(0, 8)));
    expect(B.f32.pack4x8snorm!(v)).toBe(word(snorm));
    expect(B.f32.pack4x8unorm!(v)).toBe(word(unorm));
    expect(B.u32.unpack4x8snorm!(word(snorm))).toEqual(
      snorm.map((b) => Math.max(Math.fround(((b << 24) >> 24) / 127), -1)),
    );
    expect(B.u32.unpack4x8unorm!(word(unorm))).toEqual(unorm.map((b) => Math.fround(b / 255)));
    expect(B.f32.pack2x16snorm!([-2, 0.5])).toBe(((0x8001 | (16384 << 16)) >>> 0) as number);
    expect(B.f32.pack2x16unorm!([2, 0.5])).toBe((65535 | (32768 << 16)) >>> 0);
    // the 8-bit integer packings: low bytes, clamped, sign-extended back; their dot products
    expect(B.i32.pack4xI8!([-1, 128, -129, 5])).toBe(0x057f80ff);
    expect(B.i32.pack4xI8Clamp!([-1, 128, -129, 5])).toBe(0x05807fff);
    expect(B.u32.pack4xU8Clamp!([1, 256, 255, 7])).toBe(0x07ffff01);
    expect(B.u32.unpack4xI8!(0x057f80ff)).toEqual([-1, -128, 127, 5]);
    expect(B.u32.unpack4xU8!(0x057f80ff)).toEqual([255, 128, 127, 5]);
    expect(B.u32.dot4U8Packed!(0x057f80ff, 0x01020304)).toBe(255 * 4 + 128 * 3 + 127 * 2 + 5);
    expect(B.u32.dot4I8Packed!(0x057f80ff, 0xff020304)).toBe(-4 - 128 * 3 + 127 * 2 - 5);
  });
});

describe('ldexp, frexp, modf, refract, faceForward (CPU path)', () => {
  it('frexp splits x into a fraction of magnitude [0.5, 1) and an exponent that ldexp puts back; modf into fraction and whole part', () => {
    const f = B.f32;
    for (const x of [1, -1, 0.75, 3.5, -1000.25, 1e-30, 6e-39, 3e38, 0].map(Math.fround)) {
      const { fract, exp } = f.frexp!(x) as { fract: number; exp: number };
      if (x !== 0) expect(Math.abs(fract)).toBeGreaterThanOrEqual(0.5);
      expect(Math.abs(fract)).toBeLessThan(1);
      expect(f.ldexp!(fract, exp), `${x}`).toBe(x);
      const m = f.modf!(x) as { fract: number; whole: number };
      expect(m.whole).toBe(Math.trunc(x));
      expect(m.fract + m.whole).toBe(x);
    }
    expect(f.frexp!([8, -0.375])).toEqual({ fract: [0.5, -0.75], exp: [4, -1] });
    expect(f.modf!([2.5, -2.5])).toEqual({ fract: [0.5, -0.5], whole: [2, -2] });
  });

  it('a kernel uses the results by member (fract, whole, exp) on the CPU path', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> o: array<vec4f>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let x = f32(id.x) * 1.75 + 0.5;
  let m = modf(x);
  let f = frexp(vec2f(x, -x * 4.0));
  o[id.x] = vec4f(m.fract, m.whole, f.fract.y, ldexp(f.fract.x, f.exp.x) + f32(f.exp.y));
}`;
    const got = new Float32Array(cpu(code, 4, { o: new Uint32Array(16) }).o!.buffer);
    for (let i = 0; i < 4; i++) {
      const x = i * 1.75 + 0.5;
      const e = Math.floor(Math.log2(x * 4)) + 1;
      expect(Array.from(got.subarray(4 * i, 4 * i + 4)), `invocation ${i}`).toEqual([
        x - Math.trunc(x),
        Math.trunc(x),
        (-x * 4) / 2 ** e,
        x + e,
      ]);
    }
  });

  it('refract bends by the ratio and gives zero past the critical angle; faceForward turns a vector against a reference', () => {
    const f = B.f32;
    // straight through at normal incidence, bent by the ratio at 45°, nothing past the critical angle
    expect(f.refract!([0, 0, -1], [0, 0, 1], 0.75)).toEqual([0, 0, -1]);
    const s = Math.fround(Math.SQRT1_2);
    const bent = f.refract!([s, 0, -s], [0, 0, 1], 0.75) as number[];
    expect(bent[0]).toBeCloseTo(0.75 * Math.SQRT1_2, 6); // Snell: sin θt = η sin θi
    expect(Math.hypot(...bent)).toBeCloseTo(1, 6);
    expect(f.refract!([s, 0, -s], [0, 0, 1], 1.5)).toEqual([0, 0, 0]);
    expect(f.faceForward!([1, 2, 3], [0, -1, 0], [0, 1, 0])).toEqual([1, 2, 3]);
    expect(f.faceForward!([1, 2, 3], [0, 1, 0], [0, 1, 0])).toEqual([-1, -2, -3]);
  });
});

describe('inverse hyperbolic functions', () => {
  it('asinh, acosh and atanh run on the CPU with Math’s values (rounded to f32) and keep their names in GLSL', () => {
    const code = `@group(0) @binding(0) var<storage, read_write> o: array<vec4f>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {
  let x = f32(id.x) * 0.25;
  o[id.x] = vec4f(asinh(x), acosh(1.0 + x), atanh(x * 0.5), 0.0);
}`;
    const got = new Float32Array(cpu(code, 3, { o: new Uint32Array(12) }).o!.buffer);
    for (let i = 0; i < 3; i++) {
      const x = i * 0.25;
      expect(Array.from(got.subarray(4 * i, 4 * i + 3))).toEqual(
        [Math.asinh(x), Math.acosh(1 + x), Math.atanh(x * 0.5)].map(Math.fround),
      );
    }
    const glsl = JSON.stringify(emitGlsl(analyzeKernel('k', code)));
    for (const name of ['asinh(', 'acosh(', 'atanh(']) expect(glsl).toContain(name);
  });
});

describe('what the front end checks', () => {
  it('every built-in the analyser accepts has a GLSL form and a JavaScript function', () => {
    const types = { u32: { kind: 'scalar', scalar: 'u32' } } as const;
    for (const name of MORE_BUILTINS) {
      const glsl = glslBuiltinCall(name, ['a', 'b', 'c', 'd'], [types.u32], new Set(), {
        struct: (n) => n,
        member: (n) => n,
      });
      expect(glsl, name).toMatch(/\w+\(/);
      const table = { ...B.f32, ...B.i32, ...B.u32 };
      expect(typeof table[name], name).toBe('function');
    }
  });

  it('wrong argument types are refused naming the call and what it got', () => {
    const kernel = (line: string) => `@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  ${line}
}`;
    expectRejected(
      kernel('let a = countOneBits(1.5);'),
      'countOneBits',
      3,
      /integer value .*got f32/,
    );
    expectRejected(
      kernel('let a = extractBits(5u, 1.0, 2u);'),
      'extractBits',
      3,
      /u32 offset and count .*got u32, f32, u32/,
    );
    expectRejected(
      kernel('let a = insertBits(5u, 1i, 0u, 2u);'),
      'insertBits',
      3,
      /two values of one integer type .*got u32, i32/,
    );
    expectRejected(
      kernel('let a = pack4x8unorm(vec3f(1.0));'),
      'pack4x8unorm',
      3,
      /takes vec4<f32> \(got vec3<f32>\)/,
    );
    expectRejected(
      kernel('let a = unpack2x16float(1i);'),
      'unpack2x16float',
      3,
      /takes u32 \(got i32\)/,
    );
    expectRejected(
      kernel('let a = ldexp(vec2f(1.0), 3);'),
      'ldexp',
      3,
      /exponent of its shape .*got vec2<f32>, i32/,
    );
    expectRejected(
      kernel('let a = refract(vec3f(1.0), vec3f(1.0), vec3f(1.0));'),
      'refract',
      3,
      /f32 ratio/,
    );
    expectRejected(kernel('let a = modf(1u);'), 'modf', 3, /f32 or a vector of f32 \(got u32\)/);
    expectRejected(kernel('let a = frexp(1.0, 2.0);'), 'frexp', 3, /takes 1 arguments, got 2/);
  });

  it('a struct, member or alias with a name WGSL reserves is refused (WebGPU refuses `unorm` as a member name)', () => {
    const tail = `@group(0) @binding(0) var<storage, read_write> o: array<S>;
@compute @workgroup_size(1) fn main() { o[0].a = 1.0; }`;
    const k = rejection(`struct S { a: f32, unorm: vec4f }\n${tail}`);
    expect([k.construct, k.line, k.column]).toEqual(['unorm', 1, 20]);
    expect(rejection(`struct snorm { a: f32 }\nstruct S { a: f32 }\n${tail}`).construct).toBe(
      'snorm',
    );
    expect(rejection(`alias unorm = f32;\nstruct S { a: unorm }\n${tail}`).construct).toBe('unorm');
  });

  it('a module constant whose value needs a GLSL helper is refused for WebGL2 with a KernelError naming it, and runs on the CPU', () => {
    const code = `const MASK = vec2u(countOneBits(vec2u(7u, 255u)));
@group(0) @binding(0) var<storage, read_write> o: array<vec2u>;
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) { o[id.x] = MASK; }`;
    const m = analyzeKernel('k', code);
    expect(() => emitGlsl(m)).toThrow(KernelError);
    expect(() => emitGlsl(m)).toThrow(/const MASK: .*declare it with let/);
    expect(Array.from(cpu(code, 1, { o: new Uint32Array(2) }).o!.subarray(0, 2))).toEqual([3, 8]);
  });
});
