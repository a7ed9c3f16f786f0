/**
 * WGSL built-ins GLSL ES 3.00 lacks or defines otherwise, as helper functions the ping-pong
 * shaders include when a kernel calls them: the integer bit functions (ES 3.00 has no `bitCount`,
 * `findMSB`, `bitfieldExtract`…), the 8-bit packings (it has only the 2×16 ones, and rounds them
 * with `round()`, whose ties are the implementation's where WGSL says `⌊0.5 + x⌋`), `ldexp`,
 * `frexp`, `modf`'s struct result, `quantizeToF16`. Each helper is written once for the scalar
 * types and overloaded for vectors component by component.
 */
import type { WType } from './types.js';

const COMPONENTS = ['x', 'y', 'z', 'w'];

type Prefix = 'u' | 'i' | '';
/** A parameter of an overload: a vector (`u`, `i` or `''` for float) read per component, or a scalar type passed whole. */
type Param = readonly [name: string, vector: Prefix] | readonly [name: string, scalar: 'uint'];

/**
 * `f` on vectors of 2–4 (`result` names the kind of vector it returns), calling the scalar `f` per
 * component with the components of its vector parameters and its scalar ones whole.
 */
function overloads(fn: string, result: Prefix, params: readonly Param[] = [['x', result]]): string {
  const scalar = { u: 'uint', i: 'int', '': 'float' }[result];
  return [2, 3, 4]
    .map((n) => {
      const k = COMPONENTS.slice(0, n);
      const vector = (p: Param): boolean => p[1] !== 'uint';
      const declared = params.map((p) => (vector(p) ? `${p[1]}vec${n} ${p[0]}` : `uint ${p[0]}`));
      const call = (c: string): string =>
        `${fn}(${params.map((p) => (vector(p) ? `${p[0]}.${c}` : p[0])).join(', ')})`;
      return `${result}vec${n} ${fn}(${declared.join(', ')}) { return ${result}vec${n}(${k.map(call).join(', ')}); }`;
    })
    .join('\n')
    .replace(/^/, `// ${fn} on ${scalar} vectors\n`);
}

/** `T f(T x)` for i32 through the u32 helper, and both on vectors. */
const signedToo = (fn: string): string =>
  `int ${fn}(int x) { return int(${fn}(uint(x))); }\n${overloads(fn, 'u')}\n${overloads(fn, 'i')}`;

interface Helper {
  readonly needs?: readonly string[];
  readonly code: string;
}

const HELPERS: Record<string, Helper> = {
  _cnt1: {
    code: `uint _cnt1(uint x) {
  x = x - ((x >> 1u) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2u) & 0x33333333u);
  return (((x + (x >> 4u)) & 0x0f0f0f0fu) * 0x01010101u) >> 24u;
}
${signedToo('_cnt1')}`,
  },
  _clz: {
    code: `uint _clz(uint x) {
  if (x == 0u) return 32u;
  uint n = 0u;
  if ((x & 0xffff0000u) == 0u) { n += 16u; x <<= 16u; }
  if ((x & 0xff000000u) == 0u) { n += 8u; x <<= 8u; }
  if ((x & 0xf0000000u) == 0u) { n += 4u; x <<= 4u; }
  if ((x & 0xc0000000u) == 0u) { n += 2u; x <<= 2u; }
  if ((x & 0x80000000u) == 0u) n += 1u;
  return n;
}
${signedToo('_clz')}`,
  },
  _ctz: {
    needs: ['_clz'],
    code: `uint _ctz(uint x) { return x == 0u ? 32u : 31u - _clz(x & (~x + 1u)); }
${signedToo('_ctz')}`,
  },
  _flb: {
    needs: ['_clz'],
    code: `uint _flb(uint x) { return x == 0u ? 0xffffffffu : 31u - _clz(x); }
int _flb(int x) { uint t = uint(x < 0 ? ~x : x); return t == 0u ? -1 : 31 - int(_clz(t)); }
${overloads('_flb', 'u')}
${overloads('_flb', 'i')}`,
  },
  _ftb: {
    needs: ['_ctz'],
    code: `uint _ftb(uint x) { return x == 0u ? 0xffffffffu : _ctz(x); }
int _ftb(int x) { return x == 0 ? -1 : int(_ctz(uint(x))); }
${overloads('_ftb', 'u')}
${overloads('_ftb', 'i')}`,
  },
  _rev: {
    code: `uint _rev(uint x) {
  x = ((x >> 1u) & 0x55555555u) | ((x & 0x55555555u) << 1u);
  x = ((x >> 2u) & 0x33333333u) | ((x & 0x33333333u) << 2u);
  x = ((x >> 4u) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4u);
  x = ((x >> 8u) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8u);
  return (x >> 16u) | (x << 16u);
}
${signedToo('_rev')}`,
  },
  // WGSL: the offset at most 32, the count at most what is left of the word; a field of no bits is 0
  _xbits: {
    code: `uint _xbits(uint e, uint o, uint c) {
  o = min(o, 32u); c = min(c, 32u - o);
  return c == 0u ? 0u : c == 32u ? e : (e >> o) & ((1u << c) - 1u);
}
int _xbits(int e, uint o, uint c) {
  o = min(o, 32u); c = min(c, 32u - o);
  return c == 0u ? 0 : (e << (32u - o - c)) >> (32u - c);
}
${(['u', 'i'] as const)
  .map((p) =>
    overloads('_xbits', p, [
      ['x', p],
      ['o', 'uint'],
      ['c', 'uint'],
    ]),
  )
  .join('\n')}`,
  },
  _ibits: {
    code: `uint _ibits(uint e, uint n, uint o, uint c) {
  o = min(o, 32u); c = min(c, 32u - o);
  if (c == 0u) return e;
  uint m = (c == 32u ? 0xffffffffu : (1u << c) - 1u) << o;
  return (e & ~m) | ((n << o) & m);
}
int _ibits(int e, int n, uint o, uint c) { return int(_ibits(uint(e), uint(n), o, c)); }
${(['u', 'i'] as const)
  .map((p) =>
    overloads('_ibits', p, [
      ['e', p],
      ['n', p],
      ['o', 'uint'],
      ['c', 'uint'],
    ]),
  )
  .join('\n')}`,
  },
  _bytes: {
    code: `uint _bytes(uvec4 b) { b &= 0xffu; return b.x | (b.y << 8u) | (b.z << 16u) | (b.w << 24u); }
ivec4 _sbytes(uint x) { return ivec4(int(x << 24u), int(x << 16u), int(x << 8u), int(x)) >> 24; }
uvec4 _ubytes(uint x) { return (uvec4(x) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu; }
uint _pk4xi8(ivec4 v) { return _bytes(uvec4(v)); }
uint _pk4xi8c(ivec4 v) { return _bytes(uvec4(clamp(v, -128, 127))); }
uint _pk4xu8c(uvec4 v) { return _bytes(min(v, 255u)); }`,
  },
  _pack: {
    needs: ['_bytes'],
    code: `uint _pk4x8s(vec4 v) { return _bytes(uvec4(ivec4(floor(0.5 + 127.0 * clamp(v, -1.0, 1.0))))); }
uint _pk4x8u(vec4 v) { return _bytes(uvec4(floor(0.5 + 255.0 * clamp(v, 0.0, 1.0)))); }
uint _pk2x16(uvec2 h) { h &= 0xffffu; return h.x | (h.y << 16u); }
uint _pk2x16s(vec2 v) { return _pk2x16(uvec2(ivec2(floor(0.5 + 32767.0 * clamp(v, -1.0, 1.0))))); }
uint _pk2x16u(vec2 v) { return _pk2x16(uvec2(floor(0.5 + 65535.0 * clamp(v, 0.0, 1.0)))); }
vec4 _up4x8s(uint x) { return max(vec4(_sbytes(x)) / 127.0, -1.0); }
vec4 _up4x8u(uint x) { return vec4(_ubytes(x)) / 255.0; }
vec2 _up2x16s(uint x) { return max(vec2(ivec2(int(x << 16u), int(x)) >> 16) / 32767.0, -1.0); }
vec2 _up2x16u(uint x) { return vec2(uvec2(x & 0xffffu, x >> 16u)) / 65535.0; }
uint _dot4u8(uint a, uint b) { uvec4 p = _ubytes(a) * _ubytes(b); return p.x + p.y + p.z + p.w; }
int _dot4i8(uint a, uint b) { ivec4 p = _sbytes(a) * _sbytes(b); return p.x + p.y + p.z + p.w; }`,
  },
  // ES 3.00 has no ldexp: x times two powers of two built from their bits (each within a normal exponent)
  _ldexp: {
    code: `float _pow2(int k) { return intBitsToFloat((k + 127) << 23); }
float _ldexp(float x, int e) { int a = clamp(e, -252, 254); int h = a / 2; return x * _pow2(h) * _pow2(a - h); }
${overloads('_ldexp', '', [
  ['x', ''],
  ['e', 'i'],
])}`,
  },
  // f32 to binary16 rounding to nearest even, as Dawn and the CPU path (packHalf2x16 may truncate:
  // SwiftShader's does)
  _half: {
    code: `uint _f2h(float x) {
  uint f = floatBitsToUint(x);
  uint sign = (f >> 16u) & 0x8000u;
  uint ex = (f >> 23u) & 0xffu;
  uint mant = f & 0x7fffffu;
  if (ex == 255u) return sign | 0x7c00u | (mant != 0u ? 0x200u : 0u);
  int e = int(ex) - 112;
  if (e >= 31) return sign | 0x7c00u;
  uint h; uint rest; uint mid;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000u;
    uint shift = uint(14 - e);
    h = mant >> shift; rest = mant & ((1u << shift) - 1u); mid = 1u << (shift - 1u);
  } else {
    h = (uint(e) << 10u) | (mant >> 13u); rest = mant & 0x1fffu; mid = 0x1000u;
  }
  // a carry rounds up into the exponent
  return sign | (h + uint(rest > mid || (rest == mid && (h & 1u) != 0u)));
}
uint _pk2x16f(vec2 v) { return _f2h(v.x) | (_f2h(v.y) << 16u); }
float _q16(float x) { return unpackHalf2x16(_f2h(x)).x; }
${overloads('_q16', '')}`,
  },
};

/** WGSL name → the helper that computes it and the GLSL function to call. */
const CALLS: Record<string, [helper: string | null, fn: string]> = {
  countOneBits: ['_cnt1', '_cnt1'],
  countLeadingZeros: ['_clz', '_clz'],
  countTrailingZeros: ['_ctz', '_ctz'],
  firstLeadingBit: ['_flb', '_flb'],
  firstTrailingBit: ['_ftb', '_ftb'],
  reverseBits: ['_rev', '_rev'],
  extractBits: ['_xbits', '_xbits'],
  insertBits: ['_ibits', '_ibits'],
  pack4x8snorm: ['_pack', '_pk4x8s'],
  pack4x8unorm: ['_pack', '_pk4x8u'],
  pack2x16snorm: ['_pack', '_pk2x16s'],
  pack2x16unorm: ['_pack', '_pk2x16u'],
  pack2x16float: ['_half', '_pk2x16f'],
  unpack4x8snorm: ['_pack', '_up4x8s'],
  unpack4x8unorm: ['_pack', '_up4x8u'],
  unpack2x16snorm: ['_pack', '_up2x16s'],
  unpack2x16unorm: ['_pack', '_up2x16u'],
  unpack2x16float: [null, 'unpackHalf2x16'],
  pack4xI8: ['_bytes', '_pk4xi8'],
  pack4xU8: ['_bytes', '_bytes'],
  pack4xI8Clamp: ['_bytes', '_pk4xi8c'],
  pack4xU8Clamp: ['_bytes', '_pk4xu8c'],
  unpack4xI8: ['_bytes', '_sbytes'],
  unpack4xU8: ['_bytes', '_ubytes'],
  dot4U8Packed: ['_pack', '_dot4u8'],
  dot4I8Packed: ['_pack', '_dot4i8'],
  refract: [null, 'refract'],
  faceForward: [null, 'faceforward'],
  ldexp: ['_ldexp', '_ldexp'],
  quantizeToF16: ['_half', '_q16'],
};

/** GLSL's spelling of user-visible names (glsl.ts prefixes them). */
export interface GlslNames {
  struct(n: string): string;
  member(n: string): string;
}

/** The struct `modf` or `frexp` returns (named as analyze-builtins.ts names it) and the function. */
function resultHelper(fn: 'modf' | 'frexp', n: number, names: GlslNames): Helper {
  const f = n === 1 ? 'float' : `vec${n}`;
  const structName = (k: number): string =>
    names.struct(`__${fn}_result_${k === 1 ? 'f32' : `vec${k}_f32`}`);
  const name = structName(n);
  const fract = names.member('fract');
  const [second, secondType] =
    fn === 'modf'
      ? [names.member('whole'), f]
      : [names.member('exp'), n === 1 ? 'int' : `ivec${n}`];
  const decl = `struct ${name} { ${f} ${fract}; ${secondType} ${second}; };`;
  if (fn === 'modf')
    return {
      code: `${decl}\n${name} _modf(${f} x) { ${f} w = trunc(x); return ${name}(x - w, w); }`,
    };
  if (n === 1)
    // the exponent from the bits; a subnormal scaled by 2^64 first, zero, infinity and NaN as they are
    return {
      code: `${decl}
${name} _frexp(float x) {
  uint b = floatBitsToUint(x);
  int e = int((b >> 23u) & 0xffu);
  if (x == 0.0 || e == 255) return ${name}(x, 0);
  int k = 0;
  if (e == 0) { x *= 18446744073709551616.0; k = -64; b = floatBitsToUint(x); e = int((b >> 23u) & 0xffu); }
  return ${name}(uintBitsToFloat((b & 0x807fffffu) | 0x3f000000u), e - 126 + k);
}`,
    };
  const k = COMPONENTS.slice(0, n);
  return {
    needs: ['frexp'],
    code: `${decl}
${name} _frexp(${f} v) {
  ${k.map((c) => `${structName(1)} ${c} = _frexp(v.${c});`).join(' ')}
  return ${name}(${f}(${k.map((c) => `${c}.${fract}`).join(', ')}), ivec${n}(${k.map((c) => `${c}.${second}`).join(', ')}));
}`,
  };
}

/**
 * The GLSL call of a WGSL built-in this file knows, adding the helpers it needs (dependencies
 * first) to `helpers`; undefined for any other name.
 */
export function glslBuiltinCall(
  name: string,
  args: readonly string[],
  argTypes: readonly WType[],
  helpers: Set<string>,
  names: GlslNames,
): string | undefined {
  const add = (h: Helper, table: Record<string, Helper>): void => {
    for (const d of h.needs ?? []) add(table[d] as Helper, table);
    helpers.add(h.code); // a Set keeps the first position: dependencies stay before their users
  };
  if (name === 'modf' || name === 'frexp') {
    const t = argTypes[0] as WType;
    add(resultHelper(name, t.kind === 'vec' ? t.n : 1, names), {
      frexp: resultHelper('frexp', 1, names),
    });
    return `_${name}(${args[0]})`;
  }
  const call = CALLS[name];
  if (!call) return undefined;
  const [helper, fn] = call;
  if (helper) add(HELPERS[helper] as Helper, HELPERS);
  return `${fn}(${args.join(', ')})`;
}
