/** The portable front end's shared vocabulary: the AST as read, the shapes it produces, the built-ins it knows. */
import { type BuiltinInput } from './grid.js';
import type { TextureFormat } from '../../rhi/core/formats.js';
import { BOOL, F32, I32, U32, mat, vec, type WType } from './types.js';
import type { PortableKernelError } from './source.js';

// wgsl_reflect's AST, as far as the analysis reads it (its classes are minified: use astNodeType).
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AstNode = any;

/** One storage or uniform binding of a portable kernel, as the front end typed it. */
export interface Binding {
  readonly name: string;
  readonly group: number;
  readonly binding: number;
  /**
   * `texture`: a `texture_2d<f32>` read with `textureLoad`; `storage-texture`: a
   * `texture_storage_2d<format, write>` written with `textureStore` (no buffer: `type` is void).
   */
  readonly space: 'uniform' | 'storage' | 'texture' | 'storage-texture' | 'sampler';
  /** A storage texture's format (`texture_storage_2d<rgba8unorm, write>`). */
  readonly format?: TextureFormat;
  /** `read` for uniforms and read-only storage. */
  readonly access: 'read' | 'read_write' | 'write';
  /** Uniform: the value's type. Storage: the array type (`count` 0 when runtime-sized). */
  readonly type: WType;
  /** Storage arrays: the element type and its stride in bytes. */
  readonly element?: WType;
  /** Byte offset of element 0 in the buffer: after the members declared before the array. */
  readonly offset: number;
  /** The members declared before the array (`struct Data { count: u32, items: array<T> }`), as a struct. */
  readonly header?: WType;
  /** A single value in a read-only storage buffer (`var<storage, read> size: vec2u`): element 0. */
  readonly single?: boolean;
  readonly line: number;
}

/** One `@builtin` parameter of the entry point. */
export interface BuiltinParam {
  readonly name: string;
  readonly builtin: BuiltinInput;
  readonly type: WType;
}

/** How a storage access reads or writes its binding (see Emitter.expr). */
export interface StorageAccess {
  readonly binding: Binding;
  /** The invocation's own element (index `global_invocation_id.x`) of a one-dimensional grid. */
  readonly own: boolean;
  /** `element` (indexed), `header` (a member before the array) or `single` (the whole value). */
  readonly part: 'element' | 'header' | 'single';
}

/** Options of `analyzeKernel`. */
export interface AnalyzeOptions {
  /** Values of `override` declarations, by name or by `@id` (as `GPUProgrammableStage.constants`). */
  readonly constants?: Readonly<Record<string, number | boolean>>;
  /** Analyse every declaration, not only what the entry point reaches (the generated kernels). */
  readonly whole?: boolean;
  /**
   * Accept what only the CPU path runs — workgroup memory, barriers, atomics, a writable single
   * value, writable storage in helper functions, writes at a computed index in a loop — recording
   * the first as the module's `pingpongLimit`. Without it each is a PortableKernelError.
   */
  readonly cpu?: boolean;
}

export interface PortableFunction {
  readonly name: string;
  /**
   * `pointer`: a `ptr<function, T>` or `ptr<private, T>` parameter (`type` is T): the caller passes
   * `&v` of a whole variable, the function reads and writes it through `*p` (or `p.x`, `p[i]`).
   */
  readonly params: ReadonlyArray<{ name: string; type: WType; pointer?: 'function' | 'private' }>;
  readonly returnType: WType;
  readonly node: AstNode;
}

/** A portable kernel after analysis: its bindings, entry point and typed statements. */
export interface PortableModule {
  readonly label: string;
  readonly code: string;
  readonly entryPoint: string;
  readonly workgroupSize: readonly [number, number, number];
  /** Bindings the entry point uses (statically), in binding order. */
  readonly bindings: readonly Binding[];
  /** Every binding the module declares, used or not. */
  readonly declared: readonly string[];
  /** Structs in declaration order (all of them; unused ones are harmless). */
  readonly structs: readonly WType[];
  /** Module-scope constants (const, and override with its default), in order. */
  readonly constants: ReadonlyArray<{ name: string; type: WType; value: AstNode }>;
  /**
   * Module-scope `var<private>` values, in order: each invocation starts with its own copy (the
   * initializer, a constant expression, or zero) that its functions read and write.
   */
  readonly privates: ReadonlyArray<{ name: string; type: WType; value: AstNode | null }>;
  /** User functions other than the entry point, callees before callers. */
  readonly functions: readonly PortableFunction[];
  readonly entry: AstNode;
  /** The entry point's `@builtin` parameters. */
  readonly builtins: readonly BuiltinParam[];
  /**
   * Whether a writable array is touched at an index the analysis cannot prove to be the
   * invocation's own (`global_invocation_id.x`): the ping-pong path then runs the kernel as a
   * scatter (one point per invocation) rather than a gather (one fragment per element).
   */
  readonly scatter: boolean;
  /**
   * Elements of each writable array one invocation may write, at most (its write sites, the own
   * element counting once): the scatter form keeps that many per invocation.
   */
  readonly slots: Readonly<Record<string, number>>;
  /**
   * The first construct the ping-pong path cannot run (workgroup memory, a barrier, an atomic, a
   * write it cannot place), when analysed with `cpu`: the CPU path runs the kernel, the ping-pong
   * path refuses it with this error. Null when every path runs it.
   */
  readonly pingpongLimit: PortableKernelError | null;
  /**
   * Whether the invocations cooperate (workgroup memory, barriers or atomics): the CPU path then
   * runs the grid workgroup by workgroup over the buffers' live contents, not over a copy.
   */
  readonly cooperative: boolean;
  /** The sampler each sampled texture is sampled with (`textureSampleLevel`), by texture name. */
  readonly samplerOf: Readonly<Record<string, string>>;
  /** `var<workgroup>` values, in order: zero at the start of each workgroup, shared by its invocations. */
  readonly workgroups: ReadonlyArray<{ name: string; type: WType }>;
  /** The type of every expression node, and of every declaration (let/var/const) node. */
  readonly types: ReadonlyMap<AstNode, WType>;
  /**
   * Storage accesses: the `varExpr` naming a storage array, with whether its index is the
   * invocation's own element (writable arrays only allow that).
   */
  readonly storageAccess: ReadonlyMap<AstNode, StorageAccess>;
  /** Storage arrays whose length the shader asks for with arrayLength(). */
  readonly lengthsUsed: ReadonlySet<string>;
  /** The type of each expression before its postfix chain (`.member`, `[i]`). */
  readonly baseTypes: ReadonlyMap<AstNode, WType>;
  /** What each `varExpr` names (a local, a parameter, a binding, the global invocation id…). */
  readonly refs: ReadonlyMap<AstNode, Symbol['kind']>;
  /**
   * Declarations shadowing a local of an enclosing scope, and the names that refer to them: a
   * number per declaration (JavaScript cannot initialise an inner `sum` from the outer one).
   */
  readonly shadows: ReadonlyMap<AstNode, number>;
}

export const BUILTIN_TYPES: Record<string, WType> = {
  f32: F32,
  i32: I32,
  u32: U32,
  bool: BOOL,
  vec2f: vec(2, 'f32'),
  vec3f: vec(3, 'f32'),
  vec4f: vec(4, 'f32'),
  vec2i: vec(2, 'i32'),
  vec3i: vec(3, 'i32'),
  vec4i: vec(4, 'i32'),
  vec2u: vec(2, 'u32'),
  vec3u: vec(3, 'u32'),
  vec4u: vec(4, 'u32'),
  // mat2x2f … mat4x4f
  ...Object.fromEntries(
    ([2, 3, 4] as const).flatMap((c) =>
      ([2, 3, 4] as const).map((r) => [`mat${c}x${r}f`, mat(c, r)]),
    ),
  ),
};

/** Built-in functions and their result: component-wise over the unified argument type, or fixed. */
export const SAME_AS_ARGS = new Set(
  (
    'abs min max clamp sign floor ceil round trunc fract sqrt inverseSqrt sin cos tan asin acos atan ' +
    'atan2 sinh cosh tanh asinh acosh atanh exp exp2 log log2 pow mix step smoothstep saturate ' +
    'radians degrees normalize reflect fma'
  ).split(' '),
);
export const FLOAT_ONLY = new Set(
  (
    'floor ceil round trunc fract sqrt inverseSqrt sin cos tan asin acos atan atan2 sinh cosh tanh ' +
    'asinh acosh atanh exp exp2 log log2 pow mix step smoothstep saturate radians degrees normalize reflect fma length ' +
    'distance dot cross'
  ).split(' '),
);
export const PORTABLE_BUILTINS = new Set([
  ...SAME_AS_ARGS,
  'length',
  'distance',
  'dot',
  'cross',
  'select',
  'any',
  'all',
  'arrayLength',
  'transpose',
  'determinant',
]);
export const REJECTED_CALLS: Record<string, string> = {
  textureBarrier: 'texture barriers',
};

/** The barriers (workgroupUniformLoad is one too): the CPU path runs them, the ping-pong cannot. */
export const BARRIERS = new Set(['workgroupBarrier', 'storageBarrier', 'workgroupUniformLoad']);

/** The atomic built-ins and how many values each takes after its pointer. */
export const ATOMICS: Readonly<Record<string, number>> = {
  atomicLoad: 0,
  atomicStore: 1,
  atomicAdd: 1,
  atomicSub: 1,
  atomicMax: 1,
  atomicMin: 1,
  atomicAnd: 1,
  atomicOr: 1,
  atomicXor: 1,
  atomicExchange: 1,
  atomicCompareExchangeWeak: 2,
};

export interface Symbol {
  readonly type: WType;
  readonly kind:
    'let' | 'var' | 'const' | 'param' | 'binding' | 'gid' | 'private' | 'workgroup' | 'pointer';
  /** A pointer's address space (its `type` is what it points to): a parameter's, or a `let`'s. */
  readonly space?: 'function' | 'private' | 'workgroup' | 'storage';
  /** A pointer into read-only storage: nothing is written through it. */
  readonly readOnly?: boolean;
  /** A `let` holding the invocation's own element index (`gid.x`, or a conversion of it). */
  readonly own?: boolean;
  /** A `let` holding the invocation's own texel (`gid.xy`, or a conversion of it). */
  readonly ownTexel?: boolean;
  readonly binding?: Binding;
  /** The number of a declaration that shadows a local of an enclosing scope. */
  readonly shadow?: number;
}

export function isHostShareable(t: WType): boolean {
  if (t.kind === 'scalar') return t.scalar !== 'bool';
  if (t.kind === 'vec') return t.scalar !== 'bool';
  if (t.kind === 'mat' || t.kind === 'atomic') return true;
  if (t.kind === 'struct') return t.members.every((m) => isHostShareable(m.type));
  if (t.kind === 'array') return isHostShareable(t.element);
  return false;
}

/** Names of the functions `fn` calls. */
export function calleesOf(fn: AstNode): Set<string> {
  const out = new Set<string>();
  const walk = (n: AstNode): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    if ((n.astNodeType === 'callExpr' || n.astNodeType === 'call') && typeof n.name === 'string')
      out.add(n.name);
    for (const [k, v] of Object.entries(n))
      if (k !== 'calls' && k !== 'type' && v && typeof v === 'object') walk(v);
  };
  walk(fn.body);
  return out;
}
