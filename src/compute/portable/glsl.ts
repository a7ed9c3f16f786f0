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
import { glslName, wordsOf, type Scalar, type WType } from './types.js';

/** Texels per row of every state texture: 16-byte texels × 256 = 4096-byte rows (a multiple of 256). */
export const TEXELS_PER_ROW = 256;

/** The GLSL ES 3.00 fragment program(s) a portable kernel becomes for the ping-pong path. */
export interface GlslProgram {
  vertex: string;
  fragment: string;
  /** Sampler uniform names of the storage arrays' textures, by binding name. */
  samplers: Record<string, string>;
  /** Uniform block names of the uniform bindings, by binding name. */
  uniformBlocks: Record<string, string>;
  /** The runner's own block: `_threads`, then `_len_<name>` per storage array (u32 each, std140). */
  internalBlock: { name: string; fields: string[] };
  /** Writable storage arrays, in colour-attachment order. */
  outputs: string[];
}

// user names get a prefix, so they cannot collide with GLSL's (and `_x` gives `vu_x`: GLSL
// reserves names with two underscores in a row)
const prefix = (p: string, n: string): string => (n.startsWith('_') ? `${p}u${n}` : `${p}_${n}`);
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
  readonly selects = new Set<string>();

  declare(_kind: 'let' | 'var' | 'const', name: string, type: WType, value: string | null): string {
    return `${glslType(type)} ${name.startsWith('_') ? name : F(name)} = ${value ?? zero(type)};`;
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
    const a = args.map((x) => this.expr(x));
    const fn = this.m.functions.find((f) => f.name === name);
    if (fn) return `${F(name)}(${a.join(', ')})`;
    switch (name) {
      case 'select': {
        const c = this.typeOf(args[2]);
        if (c.kind === 'scalar') return `(${a[2]} ? ${a[1]} : ${a[0]})`;
        const t = glslType(result);
        this.selects.add(
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
        return `${RENAMED[name] ?? name}(${a.join(', ')})`;
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

  loadElement(b: Binding, index: string): string {
    return `_ld_${b.name}(uint(${index}))`;
  }

  ownElement(b: Binding): string {
    return `_own_${b.name}`;
  }

  arrayLength(b: Binding): string {
    return `_len_${b.name}`;
  }

  name(name: string): string {
    return F(name);
  }

  gid(): string {
    return '_gid';
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
    case 'struct':
      return `${S(t.name)}(${t.members.map((m) => zero(m.type)).join(', ')})`;
    case 'array':
      return `${glslType(t)}(${Array.from({ length: t.count }, () => zero(t.element)).join(', ')})`;
    case 'void':
      return '';
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
/** Structs, constants and functions (with the `select` helpers they need), in GLSL. */
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
  const consts = m.constants.map(
    (c) => `const ${glslType(c.type)} ${F(c.name)} = ${e.expr(c.value)};`,
  );
  const fns = m.functions.map((f) => {
    if (own[f.name] !== undefined) return own[f.name] as string; // the emitter's own body for it
    const params = f.params.map((p) => `${glslType(p.type)} ${F(p.name)}`).join(', ');
    return `${glslType(f.returnType)} ${F(f.name)}(${params}) {\n${e.block(f.node.body, '  ')}\n}`;
  });
  return { structs, consts, fns };
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
): string {
  return elementwiseShader(m, attributes, gather, sceneDepth, [
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
  return elementwiseShader(m, attributes, gather, false, [
    'flat out vec4 _ignis_hits;',
    'void main() {',
    '  uint index = uint(gl_VertexID);',
    `  uint width = ${F('params')}.${M('width')};`,
    '  ivec2 texel = ivec2(int(index % width), int(index / width));',
    `  _ignis_hits = ${F('ignisHits')}(index, ${state(attributes)});`,
    '  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);',
    '  gl_PointSize = 1.0;',
    '}',
  ]);
}

const state = (attributes: readonly string[]): string =>
  `${S('IgnisState')}(${attributes.map((a) => `texelFetch(_ignis_${a}, texel, 0)`).join(', ')})`;

function elementwiseShader(
  m: PortableModule,
  attributes: readonly string[],
  gather: boolean,
  sceneDepth: boolean,
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
  const { structs, consts, fns } = declarations(m, e, {
    ...(gather ? { ignisElement: element } : {}),
    ...(sceneDepth ? { ignisSceneDepth: depth } : {}),
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
    HELPERS,
    ...consts,
    ...e.selects,
    ...fns,
    ...main,
  ].join('\n');
}

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
  const { structs, consts, fns } = declarations(m, e);
  return {
    code: [...structs, HELPERS, ...consts, ...e.selects, ...fns].join('\n'),
    names: { fn: F, struct: S, member: M },
  };
}

/** Prints an analysed portable kernel as GLSL fragment passes (split where outputs exceed the attachment limit). */
export function emitGlsl(m: PortableModule, targets?: readonly string[]): GlslProgram {
  const e = new GlslEmitter(m);
  const storage = m.bindings.filter((b) => b.space === 'storage');
  const outputs = storage.filter((b) => b.access !== 'read');
  const written = targets ? outputs.filter((b) => targets.includes(b.name)) : outputs;
  const uniforms = m.bindings.filter((b) => b.space === 'uniform');
  const out: string[] = [
    '#version 300 es',
    'precision highp float;',
    'precision highp int;',
    'precision highp sampler2D;',
  ];

  const { structs, consts, fns } = declarations(m, e);
  out.push(...structs);

  const uniformBlocks: Record<string, string> = {};
  for (const u of uniforms) {
    uniformBlocks[u.name] = `_ub_${u.name}`;
    out.push(`layout(std140) uniform _ub_${u.name} { ${glslType(u.type)} ${F(u.name)}; };`);
  }
  const fields = ['_threads', ...storage.map((b) => `_len_${b.name}`)];
  out.push(
    `layout(std140) uniform _IgnisPortable { ${fields.map((f) => `uint ${f};`).join(' ')} };`,
  );
  const samplers: Record<string, string> = {};
  for (const b of storage) {
    samplers[b.name] = `_tex_${b.name}`;
    out.push(`uniform highp sampler2D _tex_${b.name};`);
  }
  written.forEach((b, i) => out.push(`layout(location = ${i}) out vec4 _out_${b.name};`));
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
  uint b = min(i, max(_len_${b.name}, 1u) - 1u) * ${stride}u;
${words.map(([o, s, path]) => `  r${path} = ${FROM_BITS[s](`_word(_tex_${b.name}, b + ${o / 4}u)`)};`).join('\n')}
  return r;
}`);
  }
  for (const b of outputs) out.push(`${glslType(b.element as WType)} _own_${b.name};`);
  const kernel = `void _kernel(uvec3 _gid) {\n${e.block(m.entry.body, '  ')}\n}`;
  out.push(...consts, ...e.selects, ...fns, kernel);

  // run the kernel for element e (with every writable array's own element loaded), then the words
  out.push(`void _run(uint e) {
${outputs.map((b) => `  _own_${b.name} = _ld_${b.name}(e);`).join('\n')}
  _kernel(uvec3(e, 0u, 0u));
}`);
  for (const b of written) {
    const el = b.element as WType;
    const words = wordsOf(el, 0, M);
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
    for (let k = 0; k < 4; k++) {
      main.push(`  w = t * 4u + ${k}u; e = w / ${stride}u;`);
      main.push(
        `  if (e < _threads && e < _len_${b.name}) { if (e != last) { _run(e); last = e; } o[${k}] = _wordof_${b.name}(w - e * ${stride}u, w); } else { o[${k}] = _word(_tex_${b.name}, w); }`,
      );
    }
    main.push(`  _out_${b.name} = uintBitsToFloat(o);`);
  }
  main.push('}');
  out.push(main.join('\n'));

  const vertex = `#version 300 es
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`;
  return {
    vertex,
    fragment: out.join('\n'),
    samplers,
    uniformBlocks,
    internalBlock: { name: '_IgnisPortable', fields },
    outputs: written.map((b) => b.name),
  };
}
