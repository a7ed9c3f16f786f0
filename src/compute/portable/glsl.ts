/**
 * Portable kernel → GLSL ES 3.00 fragment ping-pong. Every storage array lives in an RGBA32F
 * texture holding the buffer's bytes unchanged (word w of the buffer is component w % 4 of texel
 * w / 4, texels row-major `TEXELS_PER_ROW` wide), read with `texelFetch` and bit-cast. One fragment
 * writes one texel of every writable array (one colour attachment each): it runs the kernel for the
 * element that texel belongs to (once per element: a 32-byte element is run by two fragments), with
 * the writable arrays' own elements as variables loaded from their previous contents, and writes
 * the texel's four words back. Words of padding, and of elements no invocation covers, keep their
 * previous bits. Uniforms are std140 blocks: WGSL's uniform layout is std140's.
 */
import type { AstNode, Binding, PortableModule } from './analyze.js';
import { Emitter, scalarName } from './emit.js';
import { glslBuiltinCall } from './glsl-builtins.js';
import { KernelError } from '../kernel-error.js';
import { glslName, wordsOf, type Scalar, type WType } from './types.js';

/** Texels per row of every state texture: 16-byte texels × 256 = 4096-byte rows (a multiple of 256). */
export const TEXELS_PER_ROW = 256;
/** Words per row of a scatter's word texture (one word per texel, in R): a state row's words. */
export const WORDS_PER_ROW = 4 * TEXELS_PER_ROW;

/** The GLSL ES 3.00 fragment program(s) a portable kernel becomes for the ping-pong path. */
export interface GlslProgram {
  vertex: string;
  fragment: string;
  /** Sampler uniform names of the storage arrays' textures, by binding name. */
  samplers: Record<string, string>;
  /** Uniform block names of the uniform bindings, by binding name. */
  uniformBlocks: Record<string, string>;
  /** Sampler uniform names of the sampled textures (`texture_2d<f32>`), by binding name. */
  textures: Record<string, string>;
  /** The runner's own block: `_threads`, then `_len_<name>` per storage array (u32 each, std140). */
  internalBlock: { name: string; fields: string[] };
  /** Writable storage arrays, in colour-attachment order. */
  outputs: string[];
}

// user names get a prefix, so they cannot collide with GLSL's (and `_x` gives `vu_x`: GLSL
// reserves names with two underscores in a row; `__x`, WGSL's own names such as modf's result
// struct, gives `vw_x`)
const prefix = (p: string, n: string): string =>
  n.startsWith('__') ? `${p}w${n.slice(1)}` : n.startsWith('_') ? `${p}u${n}` : `${p}_${n}`;
const F = (n: string): string => prefix('v', n);
const M = (n: string): string => prefix('m', n);
const S = (n: string): string => prefix('S', n);

function floatLiteral(v: number): string {
  if (Number.isNaN(v)) return 'uintBitsToFloat(0x7fc00000u)';
  if (!Number.isFinite(v))
    return v > 0 ? 'uintBitsToFloat(0x7f800000u)' : 'uintBitsToFloat(0xff800000u)';
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

const TO_BITS: Record<Scalar, (x: string) => string> = {
  f32: (x) => `floatBitsToUint(${x})`,
  u32: (x) => x,
  i32: (x) => `uint(${x})`,
  bool: (x) => `uint(${x})`,
};
const FROM_BITS: Record<Scalar, (x: string) => string> = {
  f32: (x) => `uintBitsToFloat(${x})`,
  u32: (x) => x,
  i32: (x) => `int(${x})`,
  bool: (x) => `(${x} != 0u)`,
};

const CMP: Record<string, string> = {
  '<': 'lessThan',
  '<=': 'lessThanEqual',
  '>': 'greaterThan',
  '>=': 'greaterThanEqual',
  '==': 'equal',
  '!=': 'notEqual',
};

/** WGSL built-ins whose GLSL name differs (the rest are spelled the same). */
const RENAMED: Record<string, string> = {
  inverseSqrt: 'inversesqrt',
  atan2: 'atan',
  round: 'roundEven',
};

const HELPERS = `
float _fmod(float a, float b) { return a - b * trunc(a / b); }
vec2 _fmod(vec2 a, vec2 b) { return a - b * trunc(a / b); }
vec3 _fmod(vec3 a, vec3 b) { return a - b * trunc(a / b); }
vec4 _fmod(vec4 a, vec4 b) { return a - b * trunc(a / b); }
uint _f2u(float x) { return x != x ? 0u : uint(clamp(x, 0.0, 4294967040.0)); }
uvec2 _f2u(vec2 x) { return uvec2(_f2u(x.x), _f2u(x.y)); }
uvec3 _f2u(vec3 x) { return uvec3(_f2u(x.x), _f2u(x.y), _f2u(x.z)); }
uvec4 _f2u(vec4 x) { return uvec4(_f2u(x.x), _f2u(x.y), _f2u(x.z), _f2u(x.w)); }
int _f2i(float x) { return x != x ? 0 : int(clamp(x, -2147483648.0, 2147483520.0)); }
ivec2 _f2i(vec2 x) { return ivec2(_f2i(x.x), _f2i(x.y)); }
ivec3 _f2i(vec3 x) { return ivec3(_f2i(x.x), _f2i(x.y), _f2i(x.z)); }
ivec4 _f2i(vec4 x) { return ivec4(_f2i(x.x), _f2i(x.y), _f2i(x.z), _f2i(x.w)); }
int _idiv(int a, int b) { return b == 0 || (a == (-2147483647 - 1) && b == -1) ? a : a / b; }
int _imod(int a, int b) { return b == 0 || (a == (-2147483647 - 1) && b == -1) ? 0 : a - b * (a / b); }
uint _udiv(uint a, uint b) { return b == 0u ? a : a / b; }
uint _umod(uint a, uint b) { return b == 0u ? 0u : a % b; }
${[2, 3, 4]
  .flatMap((n) => {
    const k = ['x', 'y', 'z', 'w'].slice(0, n);
    return ['i', 'u'].flatMap((p) =>
      ['div', 'mod'].map(
        (op) =>
          `${p}vec${n} _${p}${op}(${p}vec${n} a, ${p}vec${n} b) { return ${p}vec${n}(${k.map((c) => `_${p}${op}(a.${c}, b.${c})`).join(', ')}); }`,
      ),
    );
  })
  .join('\n')}
`;

class GlslEmitter extends Emitter {
  /** Helper functions the emitted code calls (`select` on vectors, glsl-builtins.ts), in order. */
  readonly helpers = new Set<string>();

  declare(_kind: 'let' | 'var' | 'const', name: string, type: WType, value: string | null): string {
    return `${glslType(type)} ${name.startsWith('_') ? name : F(name)} = ${value ?? zero(type)};`;
  }

  isImage(name: string): boolean {
    return this.m.bindings.some((b) => b.name === name && b.space === 'storage-texture');
  }

  stored(e: AstNode): string {
    return this.expr(e);
  }

  assign(target: string, targetType: WType, op: string, value: string, valueType: WType): string {
    if (op === '=') return `${target} = ${value};`;
    return `${target} = ${this.binary(op.slice(0, -1), target, targetType, value, valueType)};`;
  }

  literal(value: number, type: WType): string {
    switch (scalarName(type)) {
      case 'f32':
        return floatLiteral(value);
      case 'u32':
        return `${value >>> 0}u`;
      case 'bool':
        return value ? 'true' : 'false';
      default:
        return value === -2147483648 ? '(-2147483647 - 1)' : String(value | 0);
    }
  }

  construct(type: WType, args: AstNode[]): string {
    if (args.length === 0) return zero(type);
    if (type.kind === 'scalar' || type.kind === 'vec') {
      if (args.length === 1) return this.convert(type, this.expr(args[0]), this.typeOf(args[0]));
      return `${glslType(type)}(${args.map((a) => this.expr(a)).join(', ')})`;
    }
    return `${glslType(type)}(${args.map((a) => this.expr(a)).join(', ')})`;
  }

  /** WGSL's value conversions: float to integer saturates (GLSL leaves it undefined out of range). */
  convert(to: WType, code: string, from: WType): string {
    const t = scalarName(to);
    const f = scalarName(from);
    if (f === 'f32' && t === 'u32') return `_f2u(${code})`;
    if (f === 'f32' && t === 'i32') return `_f2i(${code})`;
    return `${glslType(to)}(${code})`;
  }

  call(name: string, args: AstNode[], result: WType): string {
    if (name === 'arrayLength')
      return this.arrayLength(
        this.m.bindings.find((x) => x.name === args[0].right.name) as Binding,
      );
    if (name === 'textureLoad')
      return `_tl_${args[0].name}(ivec2(${this.expr(args[1])}), int(${this.expr(args[2])}))`;
    if (name === 'textureStore') return `_st_${args[0].name}(${this.expr(args[2])})`;
    // the texture's unit carries the sampler's state (the pipeline's samplerBinding)
    if (name === 'textureSampleLevel')
      return `textureLod(_smp_${args[0].name}, ${this.expr(args[2])}, ${this.expr(args[3])})`;
    if (name === 'textureDimensions' && this.isImage(args[0].name))
      return `uvec2(_iw_${args[0].name}, _ih_${args[0].name})`;
    if (name === 'textureDimensions')
      return `uvec2(textureSize(_smp_${args[0].name}, ${args[1] ? `int(${this.expr(args[1])})` : '0'}))`;
    const a = args.map((x) => this.expr(x));
    const fn = this.m.functions.find((f) => f.name === name);
    if (fn) return `${F(name)}(${a.join(', ')})`;
    switch (name) {
      case 'select': {
        const c = this.typeOf(args[2]);
        if (c.kind === 'scalar') return `(${a[2]} ? ${a[1]} : ${a[0]})`;
        const t = glslType(result);
        this.helpers.add(
          `${t} _select(${t} f, ${t} t, ${glslType(c)} c) { ${t} r = f; ${['x', 'y', 'z', 'w']
            .slice(0, (c as { n: number }).n)
            .map((k) => `if (c.${k}) r.${k} = t.${k};`)
            .join(' ')} return r; }`,
        );
        return `_select(${a.join(', ')})`;
      }
      case 'saturate':
        return `clamp(${a[0]}, 0.0, 1.0)`;
      case 'fma':
        return `(${a[0]} * ${a[1]} + ${a[2]})`;
      default:
        return (
          glslBuiltinCall(
            name,
            a,
            args.map((x) => this.typeOf(x)),
            this.helpers,
            { struct: S, member: M },
          ) ?? `${RENAMED[name] ?? name}(${a.join(', ')})`
        );
    }
  }

  bitcast(to: WType, value: AstNode): string {
    const from = this.typeOf(value);
    const code = this.expr(value);
    const f = scalarName(from);
    const t = scalarName(to);
    if (f === t) return code;
    if (f === 'f32') return t === 'u32' ? `floatBitsToUint(${code})` : `floatBitsToInt(${code})`;
    if (t === 'f32') return f === 'u32' ? `uintBitsToFloat(${code})` : `intBitsToFloat(${code})`;
    return `${glslType(to)}(${code})`; // u32 <-> i32 keeps the bits in GLSL
  }

  unary(op: string, value: string, type: WType): string {
    if (op === '!') return type.kind === 'vec' ? `not(${value})` : `(!${value})`;
    return `(${op}${value})`;
  }

  binary(op: string, l: string, lt: WType, r: string, rt: WType): string {
    const s = scalarName(lt);
    const vec = lt.kind === 'vec' || rt.kind === 'vec';
    if (CMP[op] && vec) return `${CMP[op]}(${l}, ${r})`;
    if (s === 'bool' && (op === '&' || op === '|' || op === '^')) {
      if (vec) {
        const n = lt.kind === 'vec' ? lt.n : 2;
        const k = ['x', 'y', 'z', 'w'].slice(0, n);
        const c = op === '&' ? '&&' : op === '|' ? '||' : '!=';
        return `bvec${n}(${k.map((x) => `(${l}).${x} ${c} (${r}).${x}`).join(', ')})`;
      }
      return `(${l} ${op === '&' ? '&&' : op === '|' ? '||' : '!='} ${r})`;
    }
    if (op === '%' || (op === '/' && s !== 'f32')) {
      // GLSL leaves integer division by zero and negative remainders undefined; WGSL defines them
      const n = lt.kind === 'vec' ? lt.n : rt.kind === 'vec' ? rt.n : 0;
      const prefix = { f32: '', i32: 'i', u32: 'u', bool: 'b' }[s];
      const wrap = (x: string, t: WType): string =>
        n && t.kind !== 'vec' ? `${prefix}vec${n}(${x})` : x;
      const fn = s === 'f32' ? '_fmod' : `_${prefix}${op === '/' ? 'div' : 'mod'}`;
      return `${fn}(${wrap(l, lt)}, ${wrap(r, rt)})`;
    }
    if (op === '<<' || op === '>>') return `(${l} ${op} (${r} & 31u))`;
    return `(${l} ${op} ${r})`;
  }

  member(base: string, baseType: WType, name: string): string {
    return baseType.kind === 'struct' ? `${base}.${M(name)}` : `${base}.${name}`;
  }

  index(base: string, _baseType: WType, index: string): string {
    return `${base}[${index}]`;
  }

  clamped(index: string, n: number): string {
    return `min(uint(${index}), ${n - 1}u)`;
  }

  loadElement(b: Binding, index: string): string {
    return `_ld_${b.name}(uint(${index}))`;
  }

  ownElement(b: Binding): string {
    return `_own_${b.name}`;
  }

  trackedElement(b: Binding, index: string, write: boolean): string {
    return write ? `_W_${b.name}[_w_${b.name}(uint(${index}))]` : `_r_${b.name}(uint(${index}))`;
  }

  loadHeader(b: Binding): string {
    return `_hd_${b.name}()`;
  }

  arrayLength(b: Binding): string {
    return `_len_${b.name}`;
  }

  name(name: string): string {
    return F(name);
  }

  // a pointer parameter is an `inout` parameter: the name is the place
  pointee(pointer: string): string {
    return pointer;
  }

  address(v: AstNode): string {
    return this.expr(v);
  }
}

function zero(t: WType): string {
  switch (t.kind) {
    case 'scalar':
    case 'abstract-int':
      return { f32: '0.0', u32: '0u', i32: '0', bool: 'false' }[
        t.kind === 'scalar' ? t.scalar : 'i32'
      ];
    case 'vec':
      return `${glslType(t)}(${zero({ kind: 'scalar', scalar: t.scalar })})`;
    case 'mat':
      // one scalar argument would be a diagonal matrix in GLSL: every element, as WGSL's zero
      return `${glslType(t)}(${Array(t.cols * t.rows)
        .fill('0.0')
        .join(', ')})`;
    case 'struct':
      return `${S(t.name)}(${t.members.map((m) => zero(m.type)).join(', ')})`;
    case 'array':
      return `${glslType(t)}(${Array.from({ length: t.count }, () => zero(t.element)).join(', ')})`;
    case 'void':
      return '';
    case 'atomic':
      throw new Error('internal: atomics have no GLSL form (the ping-pong path refuses them)');
  }
}

/** GLSL type names with structs renamed (S_…) so they cannot collide with GLSL's names. */
function glslType(t: WType): string {
  if (t.kind === 'struct') return S(t.name);
  if (t.kind === 'array') return `${glslType(t.element)}[${t.count}]`;
  return glslName(t);
}

/**
 * The fragment program writing `targets` (writable arrays by name; all of them by default). With
 * more writable arrays than colour attachments, the runner makes one program per group of
 * attachments: each runs the whole kernel and writes its group.
 */
/**
 * Structs, constants, `var<private>` values and functions (with the `select` helpers they need),
 * in GLSL. The private values are globals that `_privates()` (first of `fns`) sets to their
 * initial values: each shader invocation runs one WGSL invocation and calls it first (`start`).
 */
function declarations(
  m: PortableModule,
  e: GlslEmitter,
  own: Readonly<Record<string, string>> = {},
): { structs: string[]; consts: string[]; fns: string[] } {
  const structs: string[] = [];
  for (const s of m.structs)
    if (s.kind === 'struct')
      structs.push(
        `struct ${S(s.name)} {\n${s.members.map((x) => `  ${glslType(x.type)} ${M(x.name)};`).join('\n')}\n};`,
      );
  const consts = [
    ...m.constants.map((c) => {
      const before = e.helpers.size;
      const value = e.expr(c.value);
      if (e.helpers.size !== before)
        throw new KernelError(
          m.label,
          `const ${c.name}: its value calls a built-in that the WebGL2 translation computes with a function, and a GLSL constant cannot call one; declare it with let inside the function that uses it`,
        );
      return `const ${glslType(c.type)} ${F(c.name)} = ${value};`;
    }),
    ...m.privates.map((p) => `${glslType(p.type)} ${F(p.name)};`),
  ];
  // a GLSL global's initializer must be constant in GLSL's sense (no helper calls): set them here
  const init = m.privates.length
    ? [
        `void _privates() {\n${m.privates.map((p) => `  ${F(p.name)} = ${p.value ? e.expr(p.value) : zero(p.type)};`).join('\n')}\n}`,
      ]
    : [];
  const fns = m.functions.map((f) => {
    if (own[f.name] !== undefined) return own[f.name] as string; // the emitter's own body for it
    // WGSL forbids aliasing a pointer parameter, so copy-in copy-out is what WebGPU does
    const params = f.params
      .map((p) => `${p.pointer ? 'inout ' : ''}${glslType(p.type)} ${F(p.name)}`)
      .join(', ');
    return `${glslType(f.returnType)} ${F(f.name)}(${params}) {\n${e.block(f.node.body, '  ')}\n}`;
  });
  return { structs, consts, fns: [...init, ...fns] };
}

/**
 * An element-wise kernel's fragment ping-pong program (src/compute/kernel.ts): the module declares
 * `params` (binding 0, the runner's `Params` block) and a function `ignisUpdate(index: u32, s:
 * IgnisState) -> IgnisState` over one vec4f per attribute; state textures `_ignis_<a>`, targets
 * `_ignis_out_<a>`, element i at texel (i % width, i / width).
 */
export function emitGlslElementwise(
  m: PortableModule,
  attributes: readonly string[],
  gather = false,
  sceneDepth = false,
  source: readonly string[] = [],
): string {
  return elementwiseShader(m, attributes, gather, sceneDepth, source, [
    ...attributes.map((a, i) => `layout(location = ${i}) out vec4 _ignis_out_${a};`),
    'void main() {',
    '  ivec2 texel = ivec2(gl_FragCoord.xy);',
    `  uint index = uint(texel.y) * ${F('params')}.${M('width')} + uint(texel.x);`,
    `  ${S('IgnisState')} s = ${state(attributes)};`,
    `  s = ${F('ignisUpdate')}(index, s);`,
    ...attributes.map((a) => `  _ignis_out_${a} = s.${M(a)};`),
    '}',
  ]);
}

/**
 * The reduction's vertex shader (src/compute/reduce.ts): one point per element, whose flat output
 * is `ignisHits(index: u32, s: IgnisState) -> vec4f` (1.0 where a predicate holds).
 */
export function emitGlslReduceVertex(
  m: PortableModule,
  attributes: readonly string[],
  gather = false,
): string {
  return elementwiseShader(
    m,
    attributes,
    gather,
    false,
    [],
    [
      'flat out vec4 _ignis_hits;',
      'void main() {',
      '  uint index = uint(gl_VertexID);',
      `  uint width = ${F('params')}.${M('width')};`,
      '  ivec2 texel = ivec2(int(index % width), int(index / width));',
      `  _ignis_hits = ${F('ignisHits')}(index, ${state(attributes)});`,
      '  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);',
      '  gl_PointSize = 1.0;',
      '}',
    ],
  );
}

const state = (attributes: readonly string[]): string =>
  `${S('IgnisState')}(${attributes.map((a) => `texelFetch(_ignis_${a}, texel, 0)`).join(', ')})`;

function elementwiseShader(
  m: PortableModule,
  attributes: readonly string[],
  gather: boolean,
  sceneDepth: boolean,
  source: readonly string[],
  main: string[],
): string {
  const e = new GlslEmitter(m);
  const params = m.bindings.find((b) => b.space === 'uniform') as Binding;
  // ignisElement(j): element j of the source textures (the state before this step)
  const element = `${S('IgnisState')} ${F('ignisElement')}(uint j) {
  uint width = ${F('params')}.${M('width')};
  ivec2 texel = ivec2(int(j % width), int(j / width));
  return ${state(attributes)};
}`;
  // ignisSceneDepth(x, y): texel (x, y) of the scene's depth texture, clamped to its edges
  const depth = `float ${F('ignisSceneDepth')}(int x, int y) {
  ivec2 size = textureSize(_ignis_depth, 0);
  return texelFetch(_ignis_depth, clamp(ivec2(x, y), ivec2(0), size - 1), 0).r;
}`;
  // ignisSource(j): element j of another runner's state textures (kernel.ts, `source`)
  const fromSource = `${S('IgnisSource')} ${F('ignisSource')}(uint j) {
  uint width = ${F('params')}.${M('sourceWidth')};
  ivec2 texel = ivec2(int(j % width), int(j / width));
  return ${S('IgnisSource')}(${source.map((a) => `texelFetch(_ignis_src_${a}, texel, 0)`).join(', ')});
}`;
  const { structs, consts, fns } = declarations(m, e, {
    ...(gather ? { ignisElement: element } : {}),
    ...(sceneDepth ? { ignisSceneDepth: depth } : {}),
    ...(source.length > 0 ? { ignisSource: fromSource } : {}),
  });
  return [
    '#version 300 es',
    'precision highp float;',
    'precision highp int;',
    'precision highp sampler2D;',
    ...structs,
    `layout(std140) uniform Params { ${glslType(params.type)} ${F(params.name)}; };`,
    ...attributes.map((a) => `uniform highp sampler2D _ignis_${a};`),
    ...(sceneDepth ? ['uniform highp sampler2D _ignis_depth;'] : []),
    ...source.map((a) => `uniform highp sampler2D _ignis_src_${a};`),
    HELPERS,
    ...e.helpers,
    ...consts,
    ...fns,
    ...main.map((line) => (line === 'void main() {' ? `${line}\n${start(m)}`.trimEnd() : line)),
  ].join('\n');
}

/** The line that gives a shader invocation its own `var<private>` values (none without them). */
const start = (m: PortableModule): string => (m.privates.length ? '  _privates();\n' : '');

/**
 * The functions of an analysed module (its structs, constants and helpers with them) as GLSL a
 * shader can include and call — a particle's custom look. User names are prefixed in GLSL:
 * `names` gives a function's (`fn`), a struct's (`struct`) and a member's (`member`).
 */
export function emitGlslFunctions(m: PortableModule): {
  code: string;
  names: { fn(n: string): string; struct(n: string): string; member(n: string): string };
} {
  const e = new GlslEmitter(m);
  const first = m.privates[0];
  if (first)
    throw new KernelError(
      m.label,
      `var<private> ${first.name}: a particle look's functions run inside Ignis's own vertex and fragment stages on WebGL2, which have no place to start it; keep the value in a local var`,
    );
  const { structs, consts, fns } = declarations(m, e);
  return {
    code: [...structs, HELPERS, ...e.helpers, ...consts, ...fns].join('\n'),
    names: { fn: F, struct: S, member: M },
  };
}

/** The GLSL names of a program's inputs: the arrays' textures, the uniform blocks, the sampled textures, the runner's block. */
const uniformNames = (
  m: PortableModule,
): Pick<GlslProgram, 'samplers' | 'uniformBlocks' | 'textures' | 'internalBlock'> => ({
  samplers: Object.fromEntries(
    m.bindings.filter((b) => b.space === 'storage').map((b) => [b.name, `_tex_${b.name}`]),
  ),
  uniformBlocks: Object.fromEntries(
    m.bindings.filter((b) => b.space === 'uniform').map((u) => [u.name, `_ub_${u.name}`]),
  ),
  textures: textureSamplers(m),
  internalBlock: { name: '_IgnisPortable', fields: internalFields(m) },
});

/** Sampler uniforms of the sampled textures, by binding name. */
const textureSamplers = (m: PortableModule): Record<string, string> =>
  Object.fromEntries(
    m.bindings.filter((b) => b.space === 'texture').map((b) => [b.name, `_smp_${b.name}`]),
  );

/**
 * The runner's own block: invocations per dimension, the target's rows, each array's length, each
 * storage texture's width and height.
 */
const internalFields = (m: PortableModule): string[] => [
  '_dx',
  '_dy',
  '_dz',
  '_rows',
  ...m.bindings.filter((b) => b.space === 'storage').map((b) => `_len_${b.name}`),
  ...m.bindings
    .filter((b) => b.space === 'storage-texture')
    .flatMap((b) => [`_iw_${b.name}`, `_ih_${b.name}`]),
];

/** GLSL computing the entry point's built-ins from the invocation's number `_inv`. */
function builtinPrologue(m: PortableModule): string[] {
  const [wx, wy, wz] = m.workgroupSize;
  const w = `uvec3(${wx}u, ${wy}u, ${wz}u)`;
  const out = ['  uvec3 _gid = uvec3(_inv % _dx, (_inv / _dx) % _dy, _inv / (_dx * _dy));'];
  for (const p of m.builtins) {
    const v = {
      global_invocation_id: 'uvec3 NAME = _gid;',
      local_invocation_id: `uvec3 NAME = _gid % ${w};`,
      workgroup_id: `uvec3 NAME = _gid / ${w};`,
      num_workgroups: `uvec3 NAME = uvec3(_dx, _dy, _dz) / ${w};`,
      local_invocation_index: `uint NAME = _gid.x % ${wx}u + (_gid.y % ${wy}u) * ${wx}u + (_gid.z % ${wz}u) * ${wx * wy}u;`,
    }[p.builtin];
    out.push(`  ${v.replace('NAME', F(p.name))}`);
  }
  return out;
}

/**
 * Everything both forms share: structs, blocks, the storage textures and their loaders, the
 * constants, functions and the kernel itself as `_kernel(uint _inv)`.
 */
function library(m: PortableModule, e: GlslEmitter, header: string[]): string[] {
  const storage = m.bindings.filter((b) => b.space === 'storage');
  const uniforms = m.bindings.filter((b) => b.space === 'uniform');
  const out: string[] = [
    '#version 300 es',
    'precision highp float;',
    'precision highp int;',
    'precision highp sampler2D;',
  ];
  const { structs, consts, fns } = declarations(m, e);
  out.push(...structs);
  for (const u of uniforms)
    out.push(`layout(std140) uniform _ub_${u.name} { ${glslType(u.type)} ${F(u.name)}; };`);
  out.push(
    `layout(std140) uniform _IgnisPortable { ${internalFields(m)
      .map((f) => `uint ${f};`)
      .join(' ')} };`,
  );
  for (const b of storage) out.push(`uniform highp sampler2D _tex_${b.name};`);
  // sampled textures: texelFetch at coordinates clamped to the level, as WebGPU's robust loads
  for (const t of m.bindings.filter((b) => b.space === 'texture'))
    out.push(
      `uniform highp sampler2D _smp_${t.name};`,
      `vec4 _tl_${t.name}(ivec2 c, int l) { return texelFetch(_smp_${t.name}, clamp(c, ivec2(0), textureSize(_smp_${t.name}, l) - 1), l); }`,
    );
  out.push(...header);
  out.push(HELPERS);
  out.push(`uint _word(highp sampler2D s, uint w) {
  uint t = w >> 2u;
  vec4 v = texelFetch(s, ivec2(int(t % ${TEXELS_PER_ROW}u), int(t / ${TEXELS_PER_ROW}u)), 0);
  uint c = w & 3u;
  return floatBitsToUint(c == 0u ? v.x : c == 1u ? v.y : c == 2u ? v.z : v.w);
}`);
  for (const b of storage) {
    const el = b.element as WType;
    const stride = (b.type as { stride: number }).stride / 4;
    const words = wordsOf(el, 0, M);
    out.push(`${glslType(el)} _ld_${b.name}(uint i) {
  ${glslType(el)} r = ${zero(el)};
  uint b = ${b.offset / 4}u + min(i, max(_len_${b.name}, 1u) - 1u) * ${stride}u;
${words.map(([o, s, path]) => `  r${path} = ${FROM_BITS[s](`_word(_tex_${b.name}, b + ${o / 4}u)`)};`).join('\n')}
  return r;
}`);
    if (b.header)
      out.push(`${glslType(b.header)} _hd_${b.name}() {
  ${glslType(b.header)} r = ${zero(b.header)};
${wordsOf(b.header, 0, M)
  .map(([o, s, path]) => `  r${path} = ${FROM_BITS[s](`_word(_tex_${b.name}, ${o / 4}u)`)};`)
  .join('\n')}
  return r;
}`);
  }
  const outputs = storage.filter((b) => b.access !== 'read');
  if (e.tracked)
    for (const b of outputs) {
      const t = glslType(b.element as WType);
      const n = b.name;
      const slots = m.slots[n] ?? 1;
      out.push(`${t} _W_${n}[${slots}];
uint _i_${n}[${slots}];
uint _n_${n};
uint _w_${n}(uint i) {
  for (uint j = 0u; j < _n_${n}; j++) if (_i_${n}[j] == i) return j;
  _i_${n}[_n_${n}] = i;
  _W_${n}[_n_${n}] = _ld_${n}(i);
  return _n_${n}++;
}
${t} _r_${n}(uint i) {
  for (uint j = 0u; j < _n_${n}; j++) if (_i_${n}[j] == i) return _W_${n}[j];
  return _ld_${n}(i);
}`);
    }
  else for (const b of outputs) out.push(`${glslType(b.element as WType)} _own_${b.name};`);
  const kernel = `void _kernel(uint _inv) {\n${start(m)}${builtinPrologue(m).join('\n')}\n${e.block(m.entry.body, '  ')}\n}`;
  out.push(...e.helpers, ...consts, ...fns, kernel);
  return out;
}

const FULLSCREEN_VERTEX = `#version 300 es
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`;

/**
 * The gather form (a one-dimensional grid whose kernel writes only its own elements): one
 * fragment per texel of every writable array, running the invocation whose element the texel
 * holds. Prints the fragment pass writing `targets` (all writable arrays by default: the runner
 * splits them over passes where they exceed the colour attachments).
 */
export function emitGlsl(m: PortableModule, targets?: readonly string[]): GlslProgram {
  const e = new GlslEmitter(m);
  const storage = m.bindings.filter((b) => b.space === 'storage');
  const outputs = storage.filter((b) => b.access !== 'read');
  const written = targets ? outputs.filter((b) => targets.includes(b.name)) : outputs;
  const out = library(
    m,
    e,
    written.map((b, i) => `layout(location = ${i}) out vec4 _out_${b.name};`),
  );
  // run invocation e (with every writable array's own element loaded), then the words
  out.push(`void _run(uint e) {
${outputs.map((b) => `  _own_${b.name} = _ld_${b.name}(e);`).join('\n')}
  _kernel(e);
}`);
  for (const b of written) {
    const words = wordsOf(b.element as WType, 0, M);
    out.push(`uint _wordof_${b.name}(uint rel, uint w) {
  switch (rel) {
${words.map(([o, s, path]) => `    case ${o / 4}u: return ${TO_BITS[s](`_own_${b.name}${path}`)};`).join('\n')}
    default: return _word(_tex_${b.name}, w);
  }
}`);
  }
  const main: string[] = [
    'void main() {',
    `  uint t = uint(gl_FragCoord.y) * ${TEXELS_PER_ROW}u + uint(gl_FragCoord.x);`,
    '  uint last = 0xffffffffu;',
    '  uint w; uint e; uvec4 o;',
  ];
  for (const b of written) {
    const stride = (b.type as { stride: number }).stride / 4;
    const base = b.offset / 4;
    for (let k = 0; k < 4; k++) {
      main.push(
        `  w = t * 4u + ${k}u; e = w < ${base}u ? 0xffffffffu : (w - ${base}u) / ${stride}u;`,
      );
      main.push(
        `  if (e < _dx && e < _len_${b.name}) { if (e != last) { _run(e); last = e; } o[${k}] = _wordof_${b.name}(w - ${base}u - e * ${stride}u, w); } else { o[${k}] = _word(_tex_${b.name}, w); }`,
      );
    }
    main.push(`  _out_${b.name} = uintBitsToFloat(o);`);
  }
  main.push('}');
  out.push(main.join('\n'));
  return {
    vertex: FULLSCREEN_VERTEX,
    fragment: out.join('\n'),
    ...uniformNames(m),
    outputs: written.map((b) => b.name),
  };
}

/**
 * The image form (a kernel whose only writes are `textureStore`s at its own texel,
 * `global_invocation_id.xy`): one fragment per texel of storage texture `target`, drawn into the
 * texture itself, running the invocation of that texel; an invocation that stores nothing there
 * discards its fragment, so the texel keeps its contents. One pass per storage texture.
 */
export function emitGlslImage(m: PortableModule, target: string): GlslProgram {
  const e = new GlslEmitter(m);
  const images = m.bindings.filter((b) => b.space === 'storage-texture');
  const out = library(m, e, [
    'layout(location = 0) out vec4 _out_image;',
    'vec4 _image;',
    'bool _stored = false;',
    // the store of another texture's pass: its value evaluated, nothing kept
    ...images.map((b) =>
      b.name === target
        ? `void _st_${b.name}(vec4 v) { _image = v; _stored = true; }`
        : `void _st_${b.name}(vec4 v) {}`,
    ),
  ]);
  out.push(`void main() {
  uvec2 t = uvec2(gl_FragCoord.xy);
  _kernel(t.y * _dx + t.x);
  if (!_stored) discard;
  _out_image = _image;
}`);
  return {
    vertex: FULLSCREEN_VERTEX,
    fragment: out.join('\n'),
    ...uniformNames(m),
    outputs: [target],
  };
}

/** A scatter pass's program, with how many points each invocation draws and the write mask mode. */
export interface ScatterProgram extends GlslProgram {
  /** Points per invocation: slots × parts (texels, or words where `masked`). */
  readonly pointsPerInvocation: number;
  /**
   * Elements not made of whole texels (a stride or an offset not a multiple of 16 bytes): one point
   * per word, into a word texture (one word per texel, `WORDS_PER_ROW` to a row) that `WORD_PASSES`
   * fills from the array before and packs back into its texels after.
   */
  readonly masked: boolean;
}

/**
 * The scatter form, for kernels that write elements at indices they compute, or run on a grid of
 * more than one dimension: the kernel runs in a vertex shader, one point per (invocation, element
 * it writes, texel of that element); the point lands on that texel of `target`'s texture, which
 * starts as a copy of the buffer, so elements nobody writes keep their bits. Reads of a writable
 * array see the invocation's own writes, else the contents before the dispatch.
 */
export function emitGlslScatter(m: PortableModule, target: string): ScatterProgram {
  const e = new GlslEmitter(m);
  e.tracked = true;
  const storage = m.bindings.filter((b) => b.space === 'storage');
  const b = storage.find((x) => x.name === target) as Binding;
  const stride = (b.type as { stride: number }).stride / 4;
  const base = b.offset / 4;
  const masked = stride % 4 !== 0 || base % 4 !== 0;
  const parts = masked ? stride : stride / 4;
  const slots = m.slots[target] ?? 1;
  const out = library(m, e, ['flat out uvec4 _val;']);
  const words = wordsOf(b.element as WType, 0, M);
  out.push(`uint _wordof(uint slot, uint rel, uint w) {
  switch (rel) {
${words.map(([o, s, path]) => `    case ${o / 4}u: return ${TO_BITS[s](`_W_${target}[slot]${path}`)};`).join('\n')}
    default: return _word(_tex_${target}, w);
  }
}`);
  const resets = storage
    .filter((x) => x.access !== 'read')
    .map((x) => `  _n_${x.name} = 0u;`)
    .join('\n');
  out.push(`void main() {
  uint v = uint(gl_VertexID);
  uint inv = v / ${slots * parts}u;
  uint slot = (v / ${parts}u) % ${slots}u;
  uint part = v % ${parts}u;
  gl_PointSize = 1.0;
  gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // off the target unless it writes
  _val = uvec4(0u);
${resets}
  _kernel(inv);
  if (slot >= _n_${target} || _i_${target}[slot] >= _len_${target}) return;
  uint w0 = ${base}u + _i_${target}[slot] * ${stride}u;
${
  masked
    ? `  uint w = w0 + part;
  _val = uvec4(_wordof(slot, part, w), 0u, 0u, 0u);
  vec2 texel = vec2(float(w % ${WORDS_PER_ROW}u), float(w / ${WORDS_PER_ROW}u)) + 0.5;
  vec2 size = vec2(${WORDS_PER_ROW}.0, float(_rows)); // as many rows as the array's texture`
    : `  uint t = (w0 >> 2u) + part;
  uint r = part * 4u;
  _val = uvec4(_wordof(slot, r, t * 4u), _wordof(slot, r + 1u, t * 4u + 1u), _wordof(slot, r + 2u, t * 4u + 2u), _wordof(slot, r + 3u, t * 4u + 3u));
  vec2 texel = vec2(float(t % ${TEXELS_PER_ROW}u), float(t / ${TEXELS_PER_ROW}u)) + 0.5;
  vec2 size = vec2(${TEXELS_PER_ROW}.0, float(_rows));`
}
  // WebGPU's clip space (the RHI negates y for GL): row 0 at the top, texel (x, y) at memory row y
  vec2 clip = texel / size * 2.0 - 1.0;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
}`);
  const fragment = `#version 300 es
precision highp float;
precision highp int;
flat in uvec4 _val;
layout(location = 0) out vec4 _out;
void main() { _out = uintBitsToFloat(_val); }`;
  return {
    vertex: out.join('\n'),
    fragment,
    ...uniformNames(m),
    outputs: [target],
    pointsPerInvocation: slots * parts,
    masked,
  };
}

/**
 * The word texture's two full-screen passes, for a scatter over elements that are not whole
 * texels: `unpack` spreads an array's texture (`_src`, four words a texel) over the word texture
 * (one word a texel, in R), `pack` gathers the word texture (`_src`) back into four words a texel.
 */
export const WORD_PASSES = {
  unpack: `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
uniform highp sampler2D _src;
layout(location = 0) out vec4 _out;
void main() {
  uint w = uint(gl_FragCoord.y) * ${WORDS_PER_ROW}u + uint(gl_FragCoord.x);
  uint t = w >> 2u;
  vec4 v = texelFetch(_src, ivec2(int(t % ${TEXELS_PER_ROW}u), int(t / ${TEXELS_PER_ROW}u)), 0);
  uint c = w & 3u;
  _out = vec4(c == 0u ? v.x : c == 1u ? v.y : c == 2u ? v.z : v.w, 0.0, 0.0, 0.0);
}`,
  pack: `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
uniform highp sampler2D _src;
layout(location = 0) out vec4 _out;
float _at(uint w) {
  return texelFetch(_src, ivec2(int(w % ${WORDS_PER_ROW}u), int(w / ${WORDS_PER_ROW}u)), 0).x;
}
void main() {
  uint w = (uint(gl_FragCoord.y) * ${TEXELS_PER_ROW}u + uint(gl_FragCoord.x)) * 4u;
  _out = vec4(_at(w), _at(w + 1u), _at(w + 2u), _at(w + 3u));
}`,
  vertex: FULLSCREEN_VERTEX,
};
