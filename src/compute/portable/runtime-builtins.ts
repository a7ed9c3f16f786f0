/**
 * The JavaScript translation's integer-bit, packing and remaining numeric built-ins, with WGSL's
 * results (WGSL §17.5–17.6 and §17.10): bit counts and fields on the 32-bit pattern, the packing
 * formulas as the specification writes them (`⌊0.5 + 255 × clamp(e, 0, 1)⌋`…), f16 conversions
 * rounding to nearest even (rhi/core/half.ts). runtime.ts puts them in the tables by the first
 * argument's scalar type.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { floatToHalfBits as toHalf, halfToFloat as fromHalf } from '../../rhi/core/half.js';

type Num = number;

const fr = Math.fround;

const popcount = (x: Num): Num => {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
};
const ctz = (x: Num): Num => (x === 0 ? 32 : 31 - Math.clz32(x & -x));
const reverse = (x: Num): Num => {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return (x >>> 16) | (x << 16);
};
/** WGSL's offset and count of a bit field: the offset at most 32, the field inside the word. */
const field = (offset: Num, count: Num): [Num, Num] => {
  const o = Math.min(offset, 32);
  return [o, Math.min(count, 32 - o)];
};
const ones = (c: Num): Num => (c === 32 ? -1 : (1 << c) - 1);

/** Scalar bit functions for i32 (`signed`) or u32 values (runtime.ts lifts them onto vectors). */
export function bitOps(signed: boolean): Record<string, (...a: Num[]) => Num> {
  const wrap = signed ? (x: Num) => x | 0 : (x: Num) => x >>> 0;
  const none = signed ? -1 : 0xffffffff;
  return {
    countOneBits: (x) => popcount(x),
    countLeadingZeros: (x) => Math.clz32(x),
    countTrailingZeros: (x) => ctz(x),
    firstLeadingBit: signed
      ? (x) => {
          const t = x < 0 ? ~x : x; // the highest bit that differs from the sign
          return t === 0 ? -1 : 31 - Math.clz32(t);
        }
      : (x) => (x === 0 ? none : 31 - Math.clz32(x)),
    firstTrailingBit: (x) => (x === 0 ? none : ctz(x)),
    reverseBits: (x) => wrap(reverse(x)),
    extractBits: (e, offset, count) => {
      const [o, c] = field(offset, count);
      if (c === 0) return 0;
      return signed ? (e << (32 - o - c)) >> (32 - c) : ((e >>> o) & ones(c)) >>> 0;
    },
    insertBits: (e, bits, offset, count) => {
      const [o, c] = field(offset, count);
      if (c === 0) return e;
      const mask = ones(c) << o;
      return wrap((e & ~mask) | ((bits << o) & mask));
    },
  };
}

const clamp = (x: Num, lo: Num, hi: Num): Num => Math.min(Math.max(x, lo), hi);
const bytes = (values: Num[], bits: Num): Num =>
  values.reduce((w, b, i) => (w | ((b & ((1 << bits) - 1)) << (bits * i))) >>> 0, 0);
/**
 * `⌊0.5 + scale × clamp(e, lo, 1)⌋` exactly, as WGSL writes it (in doubles: exact for an f32 times
 * a 16-bit scale). A GPU may round `scale × e` to f32 first, or fuse it with the add (NVIDIA's
 * does): the results differ by one where the exact value lies within an f32 rounding of a step.
 */
const norm = (v: Num[], scale: Num, lo: Num, bits: Num): Num =>
  bytes(
    v.map((x) => Math.floor(0.5 + scale * clamp(x, lo, 1))),
    bits,
  );
const signedBytes = (x: Num): Num[] => [(x << 24) >> 24, (x << 16) >> 24, (x << 8) >> 24, x >> 24];
const unsignedBytes = (x: Num): Num[] => [x & 0xff, (x >>> 8) & 0xff, (x >>> 16) & 0xff, x >>> 24];

/** Packing built-ins (arguments and results as WGSL: vectors are arrays, u32 words numbers). */
export const packOps: Record<string, (...a: any[]) => any> = {
  pack4x8snorm: (v: Num[]) => norm(v, 127, -1, 8),
  pack4x8unorm: (v: Num[]) => norm(v, 255, 0, 8),
  pack2x16snorm: (v: Num[]) => norm(v, 32767, -1, 16),
  pack2x16unorm: (v: Num[]) => norm(v, 65535, 0, 16),
  pack2x16float: (v: Num[]) => bytes(v.map(toHalf), 16),
  unpack4x8snorm: (x: Num) => signedBytes(x).map((b) => Math.max(fr(b / 127), -1)),
  unpack4x8unorm: (x: Num) => unsignedBytes(x).map((b) => fr(b / 255)),
  unpack2x16snorm: (x: Num) => [(x << 16) >> 16, x >> 16].map((b) => Math.max(fr(b / 32767), -1)),
  unpack2x16unorm: (x: Num) => [x & 0xffff, x >>> 16].map((b) => fr(b / 65535)),
  unpack2x16float: (x: Num) => [x & 0xffff, x >>> 16].map((h) => fr(fromHalf(h))),
  pack4xI8: (v: Num[]) => bytes(v, 8),
  pack4xU8: (v: Num[]) => bytes(v, 8),
  pack4xI8Clamp: (v: Num[]) =>
    bytes(
      v.map((x) => clamp(x, -128, 127)),
      8,
    ),
  pack4xU8Clamp: (v: Num[]) =>
    bytes(
      v.map((x) => Math.min(x, 255)),
      8,
    ),
  unpack4xI8: signedBytes,
  unpack4xU8: unsignedBytes,
  dot4U8Packed: (a: Num, b: Num) => {
    const y = unsignedBytes(b);
    return unsignedBytes(a).reduce((s, x, i) => s + x * (y[i] as Num), 0) >>> 0;
  },
  dot4I8Packed: (a: Num, b: Num) => {
    const y = signedBytes(b);
    return signedBytes(a).reduce((s, x, i) => s + x * (y[i] as Num), 0) | 0;
  },
};

const dot = (a: Num[], b: Num[]): Num => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = fr(s + fr((a[i] as Num) * (b[i] as Num)));
  return s;
};
const modf = (x: Num): { fract: Num; whole: Num } => {
  const whole = Math.trunc(x);
  return { fract: fr(x - whole), whole };
};
const frexp = (x: Num): { fract: Num; exp: Num } => {
  if (x === 0 || !Number.isFinite(x)) return { fract: x, exp: 0 };
  let exp = Math.floor(Math.log2(Math.abs(x))) + 1;
  let fract = x / 2 ** exp;
  // Math.log2 may round up to the next power, or down below it
  if (Math.abs(fract) >= 1) {
    fract /= 2;
    exp++;
  }
  if (Math.abs(fract) < 0.5) {
    fract *= 2;
    exp--;
  }
  return { fract: fr(fract), exp };
};
/** A struct result of scalars, or of vectors when `x` is one (members component by component). */
const structOf =
  <T extends Record<string, Num>>(f: (x: Num) => T) =>
  (x: Num | Num[]): any => {
    if (!Array.isArray(x)) return f(x);
    const parts = x.map(f);
    const out: Record<string, Num[]> = {};
    for (const k of Object.keys(parts[0] as T)) out[k] = parts.map((p) => p[k] as Num);
    return out;
  };

/** f32 built-ins that are not component-wise over one type (runtime.ts lifts the scalar ones). */
export const floatScalarOps = {
  asinh: (x: Num) => fr(Math.asinh(x)),
  acosh: (x: Num) => fr(Math.acosh(x)),
  atanh: (x: Num) => fr(Math.atanh(x)),
  ldexp: (x: Num, e: Num) => fr(x * 2 ** e),
  quantizeToF16: (x: Num) => fr(fromHalf(toHalf(x))),
};
export const floatVectorOps = {
  refract: (e1: Num[], e2: Num[], eta: Num) => {
    const d = dot(e2, e1);
    const k = fr(1 - fr(fr(eta * eta) * fr(1 - fr(d * d))));
    if (k < 0) return e1.map(() => 0);
    const s = fr(fr(eta * d) + fr(Math.sqrt(k)));
    return e1.map((x, i) => fr(fr(eta * x) - fr(s * (e2[i] as Num))));
  },
  faceForward: (e1: Num[], e2: Num[], e3: Num[]) => (dot(e2, e3) < 0 ? e1 : e1.map((x) => -x)),
  modf: structOf(modf),
  frexp: structOf(frexp),
};
