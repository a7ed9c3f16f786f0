/**
 * The run-time library of kernels translated to JavaScript: WGSL's arithmetic with its exact
 * semantics where JavaScript's differ. f32 results are rounded to float32 after every operation
 * (`Math.fround`; correct for + − × ÷ and sqrt, a double rounded once more for the transcendental
 * functions, which GPUs only approximate anyway), u32 and i32 wrap modulo 2^32 (`>>> 0`, `| 0`,
 * `Math.imul`), integer division by zero gives the dividend as WGSL specifies, float-to-integer
 * conversion saturates. Vectors are arrays, structs plain objects.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { bitOps, floatScalarOps, floatVectorOps, packOps } from './runtime-builtins.js';
import { loadTexel, sampleTexel, storeTexel } from './texels.js';
type Num = number;
type Fn = (...a: any[]) => any;

const fr = Math.fround;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const i32 = new Int32Array(f32.buffer);

/** A scalar function of two arguments component-wise; a scalar broadcasts against a vector. */
function bin(a: any, b: any, f: Fn): any {
  const av = Array.isArray(a);
  const bv = Array.isArray(b);
  if (!av && !bv) return f(a, b);
  const n = av ? a.length : b.length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = f(av ? a[i] : a, bv ? b[i] : b);
  return out;
}

/** Applies a scalar function component-wise; scalars broadcast against vectors. */
function lift(f: Fn): Fn {
  switch (f.length) {
    case 1:
      return (x: any) => (Array.isArray(x) ? x.map((c) => f(c)) : f(x));
    case 2:
      return (a: any, b: any) => bin(a, b, f);
    default:
      return (...args: any[]) => {
        const v = args.find(Array.isArray) as Num[] | undefined;
        if (!v) return f(...args);
        return v.map((_, i) => f(...args.map((a) => (Array.isArray(a) ? a[i] : a))));
      };
  }
}

const floatOps = {
  abs: (x: Num) => Math.abs(x),
  min: (a: Num, b: Num) => Math.min(a, b),
  max: (a: Num, b: Num) => Math.max(a, b),
  clamp: (x: Num, lo: Num, hi: Num) => Math.min(Math.max(x, lo), hi),
  sign: (x: Num) => (x > 0 ? 1 : x < 0 ? -1 : 0),
  floor: Math.floor,
  ceil: Math.ceil,
  round: (x: Num) => {
    const r = Math.round(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r; // half to even
  },
  trunc: Math.trunc,
  fract: (x: Num) => fr(x - Math.floor(x)),
  sqrt: (x: Num) => fr(Math.sqrt(x)),
  inverseSqrt: (x: Num) => fr(1 / Math.sqrt(x)),
  sin: (x: Num) => fr(Math.sin(x)),
  cos: (x: Num) => fr(Math.cos(x)),
  tan: (x: Num) => fr(Math.tan(x)),
  asin: (x: Num) => fr(Math.asin(x)),
  acos: (x: Num) => fr(Math.acos(x)),
  atan: (x: Num) => fr(Math.atan(x)),
  atan2: (y: Num, x: Num) => fr(Math.atan2(y, x)),
  sinh: (x: Num) => fr(Math.sinh(x)),
  cosh: (x: Num) => fr(Math.cosh(x)),
  tanh: (x: Num) => fr(Math.tanh(x)),
  exp: (x: Num) => fr(Math.exp(x)),
  exp2: (x: Num) => fr(2 ** x),
  log: (x: Num) => fr(Math.log(x)),
  log2: (x: Num) => fr(Math.log2(x)),
  pow: (x: Num, y: Num) => fr(x ** y),
  mix: (a: Num, b: Num, t: Num) => fr(fr(a * fr(1 - t)) + fr(b * t)),
  step: (edge: Num, x: Num) => (x < edge ? 0 : 1),
  smoothstep: (lo: Num, hi: Num, x: Num) => {
    const t = Math.min(Math.max(fr(fr(x - lo) / fr(hi - lo)), 0), 1);
    return fr(fr(t * t) * fr(3 - fr(2 * t)));
  },
  saturate: (x: Num) => Math.min(Math.max(x, 0), 1),
  radians: (x: Num) => fr(x * 0.017453292519943295),
  degrees: (x: Num) => fr(x * 57.29577951308232),
  fma: (a: Num, b: Num, c: Num) => fr(a * b + c),
};

const intOps = (wrap: (x: Num) => Num) => ({
  abs: (x: Num) => wrap(Math.abs(x)),
  min: (a: Num, b: Num) => Math.min(a, b),
  max: (a: Num, b: Num) => Math.max(a, b),
  clamp: (x: Num, lo: Num, hi: Num) => Math.min(Math.max(x, lo), hi),
  sign: (x: Num) => (x > 0 ? 1 : x < 0 ? -1 : 0),
});

const liftAll = (ops: Record<string, Fn>): Record<string, Fn> =>
  Object.fromEntries(Object.entries(ops).map(([k, f]) => [k, lift(f)]));

const dot = (a: Num[], b: Num[]): Num => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = fr(s + fr((a[i] as Num) * (b[i] as Num)));
  return s;
};
const length = (v: Num | Num[]): Num => (Array.isArray(v) ? fr(Math.sqrt(dot(v, v))) : Math.abs(v));

const vectorOps = {
  dot,
  length,
  distance: (a: Num | Num[], b: Num | Num[]) =>
    Array.isArray(a)
      ? length(a.map((x, i) => fr(x - (b as Num[])[i]!)))
      : Math.abs(fr(a - (b as Num))),
  normalize: (v: Num[]) => {
    const l = length(v);
    return v.map((x) => fr(x / l));
  },
  cross: (a: Num[], b: Num[]) => [
    fr(fr(a[1]! * b[2]!) - fr(a[2]! * b[1]!)),
    fr(fr(a[2]! * b[0]!) - fr(a[0]! * b[2]!)),
    fr(fr(a[0]! * b[1]!) - fr(a[1]! * b[0]!)),
  ],
  reflect: (e1: Num[], e2: Num[]) => {
    const d = fr(2 * dot(e2, e1));
    return e1.map((x, i) => fr(x - fr(d * e2[i]!)));
  },
};

/** Scalar operators by WGSL scalar type, for component-wise use on vectors. */
const OP = {
  f32: {
    '+': (a: Num, b: Num) => fr(a + b),
    '-': (a: Num, b: Num) => fr(a - b),
    '*': (a: Num, b: Num) => fr(a * b),
    '/': (a: Num, b: Num) => fr(a / b),
    '%': (a: Num, b: Num) => fr(a - fr(b * Math.trunc(fr(a / b)))),
  },
  u32: {
    '+': (a: Num, b: Num) => (a + b) >>> 0,
    '-': (a: Num, b: Num) => (a - b) >>> 0,
    '*': (a: Num, b: Num) => Math.imul(a, b) >>> 0,
    '/': (a: Num, b: Num) => (b === 0 ? a : Math.floor(a / b)),
    '%': (a: Num, b: Num) => (b === 0 ? 0 : a % b),
    '&': (a: Num, b: Num) => (a & b) >>> 0,
    '|': (a: Num, b: Num) => (a | b) >>> 0,
    '^': (a: Num, b: Num) => (a ^ b) >>> 0,
    '<<': (a: Num, b: Num) => (a << (b & 31)) >>> 0,
    '>>': (a: Num, b: Num) => a >>> (b & 31),
  },
  i32: {
    '+': (a: Num, b: Num) => (a + b) | 0,
    '-': (a: Num, b: Num) => (a - b) | 0,
    '*': (a: Num, b: Num) => Math.imul(a, b),
    '/': (a: Num, b: Num) => (b === 0 || (a === -2147483648 && b === -1) ? a : (a / b) | 0),
    '%': (a: Num, b: Num) => (b === 0 || (a === -2147483648 && b === -1) ? 0 : (a % b) | 0),
    '&': (a: Num, b: Num) => a & b,
    '|': (a: Num, b: Num) => a | b,
    '^': (a: Num, b: Num) => a ^ b,
    '<<': (a: Num, b: Num) => a << (b & 31),
    '>>': (a: Num, b: Num) => a >> (b & 31),
  },
  bool: {
    '&': (a: boolean, b: boolean) => a && b,
    '|': (a: boolean, b: boolean) => a || b,
    '^': (a: boolean, b: boolean) => a !== b,
  },
  cmp: {
    '<': (a: Num, b: Num) => a < b,
    '<=': (a: Num, b: Num) => a <= b,
    '>': (a: Num, b: Num) => a > b,
    '>=': (a: Num, b: Num) => a >= b,
    '==': (a: Num, b: Num) => a === b,
    '!=': (a: Num, b: Num) => a !== b,
  },
};

/**
 * Matrices: arrays of column arrays. A product sums its terms in order, rounding each product and
 * each sum to f32 (a GPU may fuse them: within an ulp or two of it).
 */
const mv = (m: Num[][], v: Num[]): Num[] => {
  const out = new Array<Num>((m[0] as Num[]).length).fill(0);
  m.forEach((column, c) =>
    column.forEach((x, r) => (out[r] = fr((out[r] as Num) + fr(x * (v[c] as Num))))),
  );
  return out;
};
const matrixOps = {
  /** m × v: the columns weighted by v's components. */
  mv,
  /** v × m: v dotted with each column. */
  vm: (v: Num[], m: Num[][]): Num[] => m.map((column) => dot(v, column)),
  /** a × b: a times each column of b. */
  mm: (a: Num[][], b: Num[][]): Num[][] => b.map((column) => mv(a, column)),
  /** Element-wise: m ∘ m of one shape, or m ∘ s and s ∘ m with a scalar. */
  each: (a: any, b: any, f: Fn): Num[][] => {
    const m = (Array.isArray(a) ? a : b) as Num[][];
    const at = (x: any, c: number, r: number): Num => (Array.isArray(x) ? x[c][r] : x);
    return m.map((column, c) => column.map((_, r) => f(at(a, c, r), at(b, c, r))));
  },
  transpose: (m: Num[][]): Num[][] =>
    (m[0] as Num[]).map((_, r) => m.map((column) => column[r] as Num)),
  determinant: (m: Num[][]): Num => {
    const e = (c: number, r: number): Num => (m[c] as Num[])[r] as Num;
    const det2 = (a: Num, b: Num, c: Num, d: Num): Num => fr(fr(a * d) - fr(b * c));
    if (m.length === 2) return det2(e(0, 0), e(1, 0), e(0, 1), e(1, 1));
    // Laplace along the first column: each element times its cofactor
    const minor = (skip: number): Num[][] =>
      m.slice(1).map((column) => column.filter((_, r) => r !== skip));
    let s = 0;
    for (let r = 0; r < m.length; r++) {
      const term = fr(e(0, r) * matrixOps.determinant(minor(r)));
      s = fr(r % 2 ? s - term : s + term);
    }
    return s;
  },
};

/** The atomic built-ins' new value from the old one and the operand, by scalar (atomicAdd → add…). */
const atomicOps = (t: 'u32' | 'i32') => ({
  add: OP[t]['+'],
  sub: OP[t]['-'],
  max: Math.max,
  min: Math.min,
  and: OP[t]['&'],
  or: OP[t]['|'],
  xor: OP[t]['^'],
  exchange: (_: Num, b: Num) => b,
});

function clone<T>(x: T): T {
  if (Array.isArray(x)) return x.map(clone) as T;
  if (x && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = clone(v);
    return out as T;
  }
  return x;
}

/** Thrown by a cooperative kernel when a barrier is reached by some invocations of a workgroup only. */
class NonUniformBarrier extends Error {
  constructor(
    readonly workgroup: number,
    readonly ended: number,
    readonly waiting: number,
  ) {
    super(
      `workgroup ${workgroup}: invocation ${ended} (local index) ended while invocation ${waiting} waits at a barrier — a barrier in non-uniform control flow, which WebGPU's compiler refuses (WGSL's uniformity analysis)`,
    );
  }
}

export const runtime = {
  NonUniformBarrier,
  fr,
  OP,
  B: {
    f32: {
      ...liftAll({ ...floatOps, ...floatScalarOps }),
      ...vectorOps,
      ...floatVectorOps,
      ...packOps,
      transpose: matrixOps.transpose,
      determinant: matrixOps.determinant,
    },
    i32: { ...liftAll({ ...intOps((x) => x | 0), ...bitOps(true) }), ...packOps },
    u32: { ...liftAll({ ...intOps((x) => x >>> 0), ...bitOps(false) }), ...packOps },
  },
  /** Binary operator component-wise: vector∘vector, vector∘scalar, scalar∘vector. */
  bin,
  M: matrixOps,
  AT: { u32: atomicOps('u32'), i32: atomicOps('i32') },
  map: (a: any[], f: Fn): any[] => a.map((x) => f(x)),
  sw: (v: any[], idx: number[]): any[] => idx.map((i) => v[i]),
  sel: (f: any, t: any, c: any): any =>
    Array.isArray(c) ? (f as any[]).map((x, i) => (c[i] ? t[i] : x)) : c ? t : f,
  any: (v: boolean | boolean[]): boolean => (Array.isArray(v) ? v.some(Boolean) : v),
  all: (v: boolean | boolean[]): boolean => (Array.isArray(v) ? v.every(Boolean) : v),
  clone,
  /** `textureLoad` of a decoded texture (texels.ts). */
  tload: loadTexel,
  /** `textureStore` into a storage texture's bytes (texels.ts). */
  tstore: storeTexel,
  /** `textureSampleLevel` of a decoded texture with a sampler's state (texels.ts). */
  tsample: sampleTexel,
  /** A copy of a storage binding's words (a writable array as it was before the dispatch). */
  snapshot: (v: { U: Uint32Array; length: number }) => {
    const U = v.U.slice();
    return {
      U,
      F: new Float32Array(U.buffer),
      I: new Int32Array(U.buffer),
      length: v.length,
    };
  },
  f2u: (x: Num): Num => (x !== x || x <= 0 ? 0 : x >= 4294967040 ? 4294967040 : Math.trunc(x)),
  f2i: (x: Num): Num =>
    x !== x ? 0 : x <= -2147483648 ? -2147483648 : x >= 2147483520 ? 2147483520 : Math.trunc(x),
  fbits: (x: Num): Num => ((f32[0] = x), u32[0] as Num),
  fibits: (x: Num): Num => ((f32[0] = x), i32[0] as Num),
  ufloat: (x: Num): Num => ((u32[0] = x), f32[0] as Num),
  ifloat: (x: Num): Num => ((i32[0] = x), f32[0] as Num),
};

export type Runtime = typeof runtime;
