/**
 * The front end of portable compute: parses an ordinary WGSL compute shader with `wgsl_reflect`,
 * checks that it has the gather shape, and types every expression, so that the emitters
 * (glsl.ts, js.ts) only translate.
 *
 * The gather shape: each invocation reads anything from its read-only storage arrays and uniforms
 * and writes only element `global_invocation_id.x` of each writable array (reading that element
 * too); no atomics, workgroup memory, barriers, textures or pointers. Anything else is a
 * `KernelError` naming the construct with its line and column, never a backend compile error.
 */
import { WgslParser } from 'wgsl_reflect/wgsl_reflect.module.js';
import { KernelError } from '../kernel-error.js';
import {
  evaluateInteger,
  locate,
  parseable,
  parsePosition,
  PortableKernelError,
  recursionIn,
} from './source.js';

export { locate, PortableKernelError, sourceExcerpt } from './source.js';
import { unwrapStorageStructs } from './unwrap.js';
import { reachable } from './reach.js';
import { unfoldConstants } from './consts.js';
import { BUILTIN_INPUTS, type BuiltinInput } from './grid.js';
import {
  ABSTRACT_INT,
  BOOL,
  F32,
  I32,
  U32,
  VOID,
  isNumeric,
  makeArray,
  makeStruct,
  sameType,
  scalar,
  scalarOf,
  vec,
  wgslName,
  type Scalar,
  type WType,
} from './types.js';

// wgsl_reflect's AST, as far as the analysis reads it (its classes are minified: use astNodeType).
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AstNode = any;

/** One storage or uniform binding of a portable kernel, as the front end typed it. */
export interface Binding {
  readonly name: string;
  readonly group: number;
  readonly binding: number;
  /** `texture`: a `texture_2d<f32>` read with `textureLoad` (no buffer: `type` is void). */
  readonly space: 'uniform' | 'storage' | 'texture';
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
}

export interface PortableFunction {
  readonly name: string;
  readonly params: ReadonlyArray<{ name: string; type: WType }>;
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

const BUILTIN_TYPES: Record<string, WType> = {
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
};

/** Built-in functions and their result: component-wise over the unified argument type, or fixed. */
const SAME_AS_ARGS = new Set(
  (
    'abs min max clamp sign floor ceil round trunc fract sqrt inverseSqrt sin cos tan asin acos atan ' +
    'atan2 sinh cosh tanh exp exp2 log log2 pow mix step smoothstep saturate radians degrees ' +
    'normalize reflect fma'
  ).split(' '),
);
const FLOAT_ONLY = new Set(
  (
    'floor ceil round trunc fract sqrt inverseSqrt sin cos tan asin acos atan atan2 sinh cosh tanh ' +
    'exp exp2 log log2 pow mix step smoothstep saturate radians degrees normalize reflect fma length ' +
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
]);
const REJECTED_CALLS: Record<string, string> = {
  workgroupBarrier: 'barriers',
  storageBarrier: 'barriers',
  textureBarrier: 'barriers',
  workgroupUniformLoad: 'workgroup memory',
};

export interface Symbol {
  readonly type: WType;
  readonly kind: 'let' | 'var' | 'const' | 'param' | 'binding' | 'gid';
  /** A `let` holding the invocation's own element index (`gid.x`, or a conversion of it). */
  readonly own?: boolean;
  readonly binding?: Binding;
  /** The number of a declaration that shadows a local of an enclosing scope. */
  readonly shadow?: number;
}

class Analyzer {
  readonly types = new Map<AstNode, WType>();
  readonly storageAccess = new Map<AstNode, StorageAccess>();
  scatter = false;
  readonly shadows = new Map<AstNode, number>();
  #shadows = 0;
  /** Write sites per writable array: whether one is the own element, and how many are not. */
  readonly sites = new Map<string, { own: boolean; other: number }>();
  /** Loops around the statement being checked. */
  #loops = 0;
  readonly lengthsUsed = new Set<string>();
  readonly refs = new Map<AstNode, Symbol['kind']>();
  readonly baseTypes = new Map<AstNode, WType>();
  readonly structs = new Map<string, WType>();
  readonly bindings = new Map<string, Binding>();
  readonly usedBindings = new Set<string>();
  readonly functions = new Map<string, PortableFunction>();
  readonly constants: Array<{ name: string; type: WType; value: AstNode }> = [];
  readonly globals = new Map<string, Symbol>();
  #scopes: Array<Map<string, Symbol>> = [];
  /** The function being checked: writable storage may only be touched in the entry point. */
  #inEntry = false;
  /** The variable an assignment writes (header members of writable storage are read-only). */
  #target: AstNode = null;
  #returnType: WType = VOID;

  constructor(
    readonly label: string,
    readonly code: string,
    readonly options: AnalyzeOptions = {},
  ) {}

  fail(construct: string, node: AstNode, message: string, token?: string): never {
    const where = locate(this.code, node?.line ?? 1, token ?? construct, node?.start);
    const [line, column] = where.split(':').map(Number) as [number, number];
    throw new PortableKernelError(this.label, construct, line, column, message, this.code);
  }

  // ---------------------------------------------------------------- types

  type(node: AstNode, at: AstNode): WType {
    if (!node) this.fail('type', at, 'expected a type');
    const name: string = node.name;
    switch (node.astNodeType) {
      case 'struct':
        return this.struct(node);
      case 'array': {
        if (!node.format) this.fail('array', at, 'an array needs an element type');
        const element = this.type(node.format, at);
        return makeArray(element, node.count ?? 0);
      }
      case 'pointer':
        return this.fail(
          'pointer',
          at,
          'pointers are not portable (pass and return values instead)',
          'ptr',
        );
      case 'sampler':
        return this.fail(name, at, `textures and samplers (${name}) are not portable`);
      case 'template': {
        if (name === 'atomic') this.fail('atomic', at, 'atomics are not portable');
        if (/^mat/.test(name)) this.fail(name, at, `matrices (${name}) are not portable yet`);
        const m = /^vec([234])$/.exec(name);
        if (m && node.format) {
          const s = this.type(node.format, at);
          if (s.kind !== 'scalar') this.fail(name, at, `vector of ${wgslName(s)}`);
          return vec(Number(m[1]) as 2 | 3 | 4, s.scalar);
        }
        return this.fail(name, at, `the type ${name} is not portable`);
      }
      default: {
        const t = BUILTIN_TYPES[name] ?? this.structs.get(name);
        if (t) return t;
        if (/^mat/.test(name)) this.fail(name, at, `matrices (${name}) are not portable yet`);
        if (/^(f16|vec[234]h)$/.test(name)) this.fail(name, at, `f16 (${name}) is not portable`);
        if (/^(texture|sampler)/.test(name))
          this.fail(name, at, `textures and samplers (${name}) are not portable`);
        return this.fail(name, at, `unknown or unsupported type ${name}`);
      }
    }
  }

  struct(node: AstNode): WType {
    const known = this.structs.get(node.name);
    if (known) return known;
    const members = (node.members as AstNode[]).map((m): [string, WType] => {
      const t = this.type(m.type, m);
      if (t.kind === 'array' && t.count === 0)
        this.fail(
          'array',
          m,
          'a runtime-sized array inside a struct is not portable (bind array<T> directly)',
          m.name,
        );
      if (m.attributes?.length)
        this.fail(
          `@${m.attributes[0].name}`,
          m,
          'member attributes (@align, @size) are not portable',
          m.attributes[0].name,
        );
      return [m.name, t];
    });
    const t = makeStruct(node.name, members);
    this.structs.set(node.name, t);
    return t;
  }

  // ---------------------------------------------------------------- scopes

  lookup(name: string): Symbol | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i]?.get(name);
      if (s) return s;
    }
    return this.globals.get(name);
  }

  declare(name: string, sym: Symbol, node: AstNode): void {
    const scope = this.#scopes[this.#scopes.length - 1] as Map<string, Symbol>;
    if (scope.has(name)) this.fail(name, node, `"${name}" is declared twice in one scope`);
    // a local shadowing one of an enclosing scope: numbered, for languages that cannot say it
    const outer = this.#scopes.slice(0, -1).some((x) => x.has(name));
    const shadow = outer ? ++this.#shadows : 0;
    if (shadow) this.shadows.set(node, shadow);
    scope.set(name, shadow ? { ...sym, shadow } : sym);
  }

  // ---------------------------------------------------------------- module

  module(all: AstNode[], entryPoint: string): PortableModule {
    let entry: AstNode | undefined;
    const fnNodes: AstNode[] = [];
    this.checkConstantNames(all);
    const { kept: ast, unreached } = this.options.whole
      ? { kept: all, unreached: [] as AstNode[] }
      : reachable(all, entryPoint);
    for (const node of ast) {
      switch (node.astNodeType) {
        case 'struct':
          this.struct(node);
          break;
        case 'alias':
        case 'diagnostic':
        case 'staticAssert':
          break;
        case 'enable':
          this.fail(`enable ${node.name}`, node, `"enable ${node.name}" is not portable`, 'enable');
          break;
        case 'requires':
          break;
        case 'const':
        case 'override': {
          const given = node.astNodeType === 'override' ? this.overrideValue(node) : undefined;
          if (!node.value && given === undefined)
            this.fail(
              node.name,
              node,
              node.astNodeType === 'override'
                ? `override ${node.name} has no default: give it a value in constants: { ${node.name}: … }`
                : `const ${node.name} needs a value`,
            );
          this.#scopes = [new Map()];
          // the parser records an inferred `array` without its element type: the value says it
          const spelled = node.type && !(node.type.name === 'array' && !node.type.format);
          const declared = spelled ? this.type(node.type, node) : undefined;
          let t = node.value
            ? this.expr(node.value, declared ? scalarOf(declared) : undefined)
            : (declared ?? F32);
          if (t.kind === 'abstract-int')
            t = this.expr(node.value, declared ? scalarOf(declared) : 'i32');
          if (declared && !sameType(declared, t))
            this.fail(
              node.name,
              node,
              `${node.name} is declared ${wgslName(declared)} but its value is ${wgslName(t)}`,
            );
          if (given !== undefined) node.value = this.literalOf(node, t, given);
          this.types.set(node, t);
          this.constants.push({ name: node.name, type: t, value: node.value });
          this.globals.set(node.name, { type: t, kind: 'const' });
          break;
        }
        case 'var':
          this.moduleVar(node);
          break;
        case 'function':
          if (node.name === entryPoint) entry = node;
          else fnNodes.push(node);
          break;
        default:
          this.fail(node.astNodeType, node, `module-scope ${node.astNodeType} is not portable`);
      }
    }
    if (!entry) {
      const names =
        all
          .filter((f) => f.astNodeType === 'function')
          .map((f) => f.name)
          .join(', ') || 'none';
      throw new KernelError(
        this.label,
        `entry point "${entryPoint}" not found (functions: ${names})`,
      );
    }
    const compute = (entry.attributes ?? []).find((a: AstNode) => a.name === 'compute');
    if (!compute) this.fail(entryPoint, entry, `"${entryPoint}" is not a @compute entry point`);
    const wg = (entry.attributes ?? []).find((a: AstNode) => a.name === 'workgroup_size');
    if (!wg) this.fail(entryPoint, entry, `"${entryPoint}" has no @workgroup_size`);
    const sizes = (Array.isArray(wg.value) ? wg.value : [wg.value]).map((v: string) => {
      const n = /^\d+[iu]?$/.test(String(v).trim())
        ? Number.parseInt(v, 10)
        : this.constantValue(v);
      if (n === undefined || !Number.isInteger(n) || n < 1)
        this.fail(
          'workgroup_size',
          entry,
          `@workgroup_size(${String(wg.value)}): ${String(v)} must be a positive integer literal, const or override`,
        );
      return n;
    });
    const workgroupSize = [sizes[0] ?? 1, sizes[1] ?? 1, sizes[2] ?? 1] as [number, number, number];

    // user functions: signatures first (calls may come before definitions), then bodies
    for (const f of fnNodes) {
      if (f.attributes?.some((a: AstNode) => ['compute', 'vertex', 'fragment'].includes(a.name)))
        continue; // another entry point: not part of this kernel
      this.#scopes = [new Map()];
      this.functions.set(f.name, {
        name: f.name,
        params: (f.args as AstNode[]).map((a) => ({ name: a.name, type: this.type(a.type, a) })),
        returnType: f.returnType ? this.type(f.returnType, f) : VOID,
        node: f,
      });
    }
    for (const f of this.functions.values()) this.functionBody(f, false);

    // the entry point
    const builtins: BuiltinParam[] = [];
    this.#scopes = [new Map()];
    for (const a of entry.args as AstNode[]) {
      const builtin = (a.attributes ?? []).find((x: AstNode) => x.name === 'builtin');
      if (!builtin) this.fail(a.name, a, 'entry point parameters must be @builtin values');
      const name = builtin.value as string;
      if (!(name in BUILTIN_INPUTS))
        this.fail(
          name,
          a,
          `@builtin(${name}) is not portable (${Object.keys(BUILTIN_INPUTS).join(', ')} are)`,
        );
      const type = BUILTIN_INPUTS[name as BuiltinInput];
      const declared = this.type(a.type, a);
      if (!sameType(declared, type))
        this.fail(a.name, a, `@builtin(${name}) is ${wgslName(type)}, not ${wgslName(declared)}`);
      builtins.push({ name: a.name, builtin: name as BuiltinInput, type });
      const kind = name === 'global_invocation_id' ? 'gid' : 'param';
      this.declare(a.name, { type, kind }, a);
    }
    this.#inEntry = true;
    this.#returnType = VOID;
    this.block(entry.body, false);
    this.#inEntry = false;

    const bindings = [...this.bindings.values()]
      .filter((b) => this.usedBindings.has(b.name))
      .sort((a, b) => a.group - b.group || a.binding - b.binding);
    return {
      label: this.label,
      code: this.code,
      entryPoint,
      workgroupSize,
      bindings,
      declared: [
        ...this.bindings.keys(),
        ...unreached
          .filter(
            (n) =>
              n.astNodeType === 'var' && n.attributes?.some((a: AstNode) => a.name === 'binding'),
          )
          .map((n) => n.name as string),
      ],
      structs: [...this.structs.values()],
      constants: this.constants,
      functions: this.orderedFunctions(),
      entry,
      builtins,
      scatter: this.scatter,
      slots: Object.fromEntries(
        bindings
          .filter((b) => b.space === 'storage' && b.access !== 'read')
          .map((b) => {
            const site = this.sites.get(b.name);
            return [b.name, Math.max(1, (site?.own ? 1 : 0) + (site?.other ?? 0))];
          }),
      ),
      types: this.types,
      storageAccess: this.storageAccess,
      lengthsUsed: this.lengthsUsed,
      refs: this.refs,
      shadows: this.shadows,
      baseTypes: this.baseTypes,
    };
  }

  constantValue(name: string): number | undefined {
    const c = this.constants.find((x) => x.name === name);
    return c ? evaluateInteger(c.value, (n) => this.constantValue(n)) : undefined;
  }

  /** Every key of `options.constants` names an override of the module (by name or `@id`). */
  checkConstantNames(ast: AstNode[]): void {
    const given = Object.keys(this.options.constants ?? {});
    if (!given.length) return;
    const overrides = ast.filter((n) => n.astNodeType === 'override');
    const names = new Set(
      overrides.flatMap((n) => [
        n.name as string,
        ...(n.attributes ?? [])
          .filter((a: AstNode) => a.name === 'id')
          .map((a: AstNode) => String(a.value)),
      ]),
    );
    const unknown = given.filter((k) => !names.has(k));
    if (unknown.length)
      throw new KernelError(
        this.label,
        `constants ${unknown.join(', ')}: the shader has no such override (overrides: ${overrides.map((n) => n.name).join(', ') || 'none'})`,
      );
  }

  /** The value `options.constants` gives override `node` (by name, or by its `@id`). */
  overrideValue(node: AstNode): number | boolean | undefined {
    const constants = this.options.constants ?? {};
    const id = (node.attributes ?? []).find((a: AstNode) => a.name === 'id')?.value;
    const v = constants[node.name] ?? (id !== undefined ? constants[String(id)] : undefined);
    return v;
  }

  /** A literal node of type `t` holding a user's override value (checked against the type). */
  literalOf(node: AstNode, t: WType, v: number | boolean): AstNode {
    const s = scalarOf(t);
    const ok =
      t.kind === 'scalar' &&
      (s === 'bool'
        ? typeof v === 'boolean'
        : typeof v === 'number' &&
          Number.isFinite(v) &&
          (s === 'f32' ||
            (Number.isInteger(v) &&
              (s === 'u32' ? v >= 0 && v <= 0xffffffff : v >= -0x80000000 && v <= 0x7fffffff))));
    if (!ok)
      throw new KernelError(
        this.label,
        `constants.${node.name} is ${String(v)}, not a value of override ${node.name}'s type ${wgslName(t)}`,
      );
    const literal = {
      astNodeType: 'literalExpr',
      line: node.line,
      start: node.start,
      value: { data: [typeof v === 'boolean' ? Number(v) : v], typeInfo: { name: s } },
      postfix: null,
    };
    this.types.set(literal, t);
    return literal;
  }

  moduleVar(node: AstNode): void {
    const storage: string = node.storage ?? '';
    if (storage === 'workgroup')
      this.fail('var<workgroup>', node, 'workgroup memory is not portable', 'workgroup');
    if (storage === 'private' || storage === '')
      if (!node.attributes?.some((a: AstNode) => a.name === 'binding'))
        this.fail(
          `var<${storage || 'private'}>`,
          node,
          'module-scope var<private> is not portable yet (use a local var)',
          'var',
        );
    const attr = (n: string): number => {
      const a = (node.attributes ?? []).find((x: AstNode) => x.name === n);
      return a ? Number(a.value) : 0;
    };
    const line = node.line as number;
    if (node.type?.name === 'texture_2d' && node.type.format?.name === 'f32') {
      const b: Binding = {
        name: node.name,
        group: attr('group'),
        binding: attr('binding'),
        space: 'texture',
        access: 'read',
        type: VOID,
        offset: 0,
        line,
      };
      this.bindings.set(node.name, b);
      this.globals.set(node.name, { type: VOID, kind: 'binding', binding: b });
      return;
    }
    if (node.type?.astNodeType === 'sampler' || /^(texture|sampler)/.test(node.type?.name ?? ''))
      this.fail(
        node.type.name,
        node,
        `textures and samplers (${node.type.name}) are not portable: a texture_2d<f32> read with textureLoad is`,
      );
    const type = this.type(node.type, node);
    if (storage === 'uniform') {
      if (!isHostShareable(type))
        this.fail(
          node.name,
          node,
          `uniform ${node.name} of type ${wgslName(type)} cannot live in a buffer`,
        );
      const b: Binding = {
        name: node.name,
        group: attr('group'),
        binding: attr('binding'),
        space: 'uniform',
        access: 'read',
        type,
        offset: 0,
        line,
      };
      this.bindings.set(node.name, b);
      this.globals.set(node.name, { type, kind: 'binding', binding: b });
      return;
    }
    if (storage === 'storage') {
      const access = (node.access || 'read') as Binding['access'];
      const single = type.kind !== 'array' || type.count !== 0;
      if (single && access !== 'read')
        this.fail(
          node.name,
          node,
          `writable storage ${node.name} of type ${wgslName(type)}: a portable kernel writes elements of runtime-sized arrays (array<T>); a single ${access} value is not portable`,
        );
      if (!isHostShareable(type))
        this.fail(node.name, node, `${wgslName(type)} cannot live in a buffer`);
      const array = single ? makeArray(type, 1) : type;
      const header = node.header ? this.header(node) : undefined;
      const b: Binding = {
        name: node.name,
        group: attr('group'),
        binding: attr('binding'),
        space: 'storage',
        access,
        type: array,
        element: (array as { element: WType }).element,
        offset: header?.offset ?? 0,
        ...(header ? { header: header.type } : {}),
        ...(single ? { single: true } : {}),
        line,
      };
      this.bindings.set(node.name, b);
      this.globals.set(node.name, { type, kind: 'binding', binding: b });
      return;
    }
    this.fail(`var<${storage}>`, node, `var<${storage}> is not portable`, 'var');
  }

  /**
   * The members a storage struct declares before its runtime-sized array (unwrap.ts), as a struct
   * of their own, and the byte offset of the array's first element (WGSL's layout of the member).
   */
  header(node: AstNode): { type: WType; offset: number } {
    const h = node.header as { name: string; members: AstNode[]; array: AstNode };
    const members = h.members.map((m): [string, WType] => {
      if (m.attributes?.length)
        this.fail(
          `@${m.attributes[0].name}`,
          m,
          'member attributes (@align, @size) are not portable',
          m.attributes[0].name,
        );
      const t = this.type(m.type, m);
      if (t.kind === 'array' && t.count === 0)
        this.fail(
          'array',
          m,
          'only the last member of a struct may be a runtime-sized array',
          m.name,
        );
      return [m.name, t];
    });
    const element = this.type(h.array.type.format, h.array);
    const whole = makeStruct(h.name, [...members, [h.array.name, makeArray(element, 0)]]);
    const type = makeStruct(`_${h.name}`, members);
    this.structs.set(`_${h.name}`, type);
    const last = whole.kind === 'struct' ? whole.members[whole.members.length - 1] : undefined;
    return { type, offset: last?.offset ?? 0 };
  }

  orderedFunctions(): PortableFunction[] {
    const out: PortableFunction[] = [];
    const seen = new Set<string>();
    const visit = (f: PortableFunction, stack: string[]): void => {
      if (seen.has(f.name)) return;
      if (stack.includes(f.name))
        this.fail(
          f.name,
          f.node,
          `recursion (${[...stack, f.name].join(' → ')}) is not allowed in WGSL`,
        );
      for (const callee of calleesOf(f.node)) {
        const g = this.functions.get(callee);
        if (g) visit(g, [...stack, f.name]);
      }
      seen.add(f.name);
      out.push(f);
    };
    for (const f of this.functions.values()) visit(f, []);
    return out;
  }

  functionBody(f: PortableFunction, entry: boolean): void {
    this.#scopes = [new Map()];
    for (const p of f.params) this.declare(p.name, { type: p.type, kind: 'param' }, f.node);
    this.#inEntry = entry;
    this.#returnType = f.returnType;
    this.block(f.node.body, false);
  }

  // ---------------------------------------------------------------- statements

  block(statements: AstNode[] | null, scoped = true): void {
    if (scoped) this.#scopes.push(new Map());
    for (const s of statements ?? []) this.statement(s);
    if (scoped) this.#scopes.pop();
  }

  statement(s: AstNode): void {
    if (!s) return;
    if (Array.isArray(s)) return this.block(s); // a bare { … } block: a scope of its own
    switch (s.astNodeType) {
      case 'let':
      case 'var':
      case 'const': {
        if (s.storage && s.storage !== 'function')
          this.fail(
            `var<${s.storage}>`,
            s,
            `var<${s.storage}> inside a function is not portable`,
            'var',
          );
        const declared = s.type ? this.type(s.type, s) : undefined;
        if (!s.value && s.astNodeType !== 'var')
          this.fail(s.name, s, `${s.astNodeType} ${s.name} needs a value`);
        if (!s.value && !declared) this.fail(s.name, s, `var ${s.name} needs a type or a value`);
        let t = declared;
        if (s.value) {
          const hint = declared ? scalarOf(declared) : undefined;
          let v = this.expr(s.value, hint);
          if (v.kind === 'abstract-int') v = this.expr(s.value, hint ?? 'i32');
          if (declared && !sameType(declared, v))
            this.fail(
              s.name,
              s,
              `${s.name} is declared ${wgslName(declared)} but its value is ${wgslName(v)}`,
            );
          t = v;
        }
        this.types.set(s, t as WType);
        const own = s.astNodeType !== 'var' && s.value ? this.isOwnIndex(s.value) : false;
        this.declare(s.name, { type: t as WType, kind: s.astNodeType, own }, s);
        return;
      }
      case 'assign': {
        const target = this.lvalue(s.variable, s);
        const t = this.expr(s.value, scalarOf(target));
        if (s.operator === '=') {
          if (!sameType(target, t))
            this.fail('=', s, `cannot assign ${wgslName(t)} to ${wgslName(target)}`, '=');
        } else if (!isNumeric(target))
          this.fail(s.operator, s, `${s.operator} on ${wgslName(target)}`);
        return;
      }
      case 'increment': {
        const t = this.lvalue(s.variable, s);
        if (t.kind !== 'scalar' || t.scalar === 'f32' || t.scalar === 'bool')
          this.fail(
            s.operator,
            s,
            `${s.operator} needs an i32 or u32 variable (got ${wgslName(t)})`,
          );
        return;
      }
      case 'call':
        this.types.set(s, this.call(s, undefined));
        return;
      case 'if':
        this.condition(s.condition, s);
        this.block(s.body);
        for (const e of s.elseif ?? []) {
          this.condition(e.condition, e);
          this.block(e.body);
        }
        if (s.else) this.block(s.else);
        return;
      case 'for':
        this.#scopes.push(new Map());
        if (s.init) this.statement(s.init);
        if (s.condition) this.condition(s.condition, s);
        this.#loops++;
        if (s.increment) this.statement(s.increment);
        this.block(s.body);
        this.#loops--;
        this.#scopes.pop();
        return;
      case 'while':
        this.condition(s.condition, s);
        this.#loops++;
        this.block(s.body);
        this.#loops--;
        return;
      case 'loop':
        this.#scopes.push(new Map());
        this.#loops++;
        this.block(
          (s.body as AstNode[]).filter((b) => b.astNodeType !== 'continuing'),
          false,
        );
        if (s.continuing) this.block(s.continuing.body);
        this.#loops--;
        this.#scopes.pop();
        return;
      case 'break':
        if (s.condition) this.condition(s.condition, s);
        return;
      case 'continue':
      case 'staticAssert':
        return;
      case 'switch': {
        const t = this.expr(s.condition, undefined);
        const c = t.kind === 'abstract-int' ? this.expr(s.condition, 'i32') : t;
        if (c.kind !== 'scalar' || (c.scalar !== 'i32' && c.scalar !== 'u32'))
          this.fail('switch', s, `switch needs an i32 or u32 selector (got ${wgslName(c)})`);
        for (const k of s.cases) {
          for (const sel of k.selectors ?? []) this.expr(sel, c.scalar);
          this.block(k.body);
        }
        return;
      }
      case 'return': {
        if (s.value?.astNodeType === 'createExpr' && !s.value.type) {
          if (this.#returnType.kind !== 'void') this.fail('return', s, 'return needs a value');
          return;
        }
        if (!s.value) return;
        const t = this.expr(s.value, scalarOf(this.#returnType));
        if (!sameType(t, this.#returnType))
          this.fail(
            'return',
            s,
            `returns ${wgslName(t)} from a function declared ${wgslName(this.#returnType)}`,
          );
        return;
      }
      case 'discard':
        return this.fail('discard', s, 'discard is not allowed in a compute shader');
      default:
        return this.fail(s.astNodeType, s, `the statement ${s.astNodeType} is not portable`);
    }
  }

  condition(e: AstNode, at: AstNode): void {
    if (!e) this.fail('condition', at, 'expected a condition');
    const t = this.expr(e, undefined);
    if (t.kind !== 'scalar' || t.scalar !== 'bool')
      this.fail('condition', at, `a condition must be bool (got ${wgslName(t)})`);
  }

  /** The type of an assignable expression, checking storage writes. */
  lvalue(e: AstNode, at: AstNode): WType {
    if (e?.astNodeType !== 'varExpr')
      this.fail('assignment', at, 'expected a variable on the left of the assignment', '=');
    const sym = this.lookup(e.name);
    if (!sym) this.fail(e.name, at, `unknown variable ${e.name}`);
    if (sym.kind === 'let' || sym.kind === 'const' || sym.kind === 'param' || sym.kind === 'gid')
      this.fail(e.name, at, `cannot assign to ${sym.kind} ${e.name}`);
    if (sym.kind === 'binding') {
      const b = sym.binding as Binding;
      if (b.space === 'uniform' || b.access === 'read')
        this.fail(
          e.name,
          at,
          `${e.name} is read-only (${b.space === 'uniform' ? 'uniform' : 'storage, read'})`,
        );
    }
    this.#target = e;
    try {
      return this.expr(e, undefined, at);
    } finally {
      this.#target = null;
    }
  }

  isOwnIndex(e: AstNode): boolean {
    if (!e) return false;
    if (e.astNodeType === 'varExpr') {
      const sym = this.lookup(e.name);
      if (sym?.kind === 'gid')
        return (
          e.postfix?.astNodeType === 'stringExpr' && e.postfix.value === 'x' && !e.postfix.postfix
        );
      return !!sym?.own && !e.postfix;
    }
    if (e.astNodeType === 'createExpr' && e.args?.length === 1 && !e.postfix)
      return ['u32', 'i32'].includes(e.type?.name) && this.isOwnIndex(e.args[0]);
    return false;
  }

  // ---------------------------------------------------------------- expressions

  /** Types `e` (recording every node's type); `hint` is the scalar an abstract int literal takes. */
  expr(e: AstNode, hint: Scalar | undefined, at?: AstNode): WType {
    const t = this.#expr(e, hint, at ?? e);
    this.types.set(e, t);
    return t;
  }

  #expr(e: AstNode, hint: Scalar | undefined, at: AstNode): WType {
    if (!e)
      return this.fail('expression', at, 'expected an expression (the WGSL does not parse here)');
    switch (e.astNodeType) {
      case 'literalExpr': {
        const name: string = e.value?.typeInfo?.name ?? e.type?.name;
        const base =
          name === 'x32'
            ? hint && hint !== 'bool'
              ? scalar(hint)
              : ABSTRACT_INT
            : name === 'f32' || name === 'i32' || name === 'u32' || name === 'bool'
              ? scalar(name)
              : this.fail(name, at, `the literal type ${name} is not portable`);
        return this.postfix(base, e.postfix, at, e);
      }
      case 'varExpr': {
        const sym = this.lookup(e.name);
        if (!sym) {
          if (this.functions.has(e.name))
            this.fail(e.name, at, `${e.name} is a function, not a value`);
          return this.fail(e.name, at, `unknown identifier ${e.name}`);
        }
        this.refs.set(e, sym.kind);
        if (sym.shadow) this.shadows.set(e, sym.shadow);
        if (sym.kind === 'binding') return this.storageRead(e, sym.binding as Binding, at);
        return this.postfix(sym.type, e.postfix, at, e);
      }
      case 'createExpr':
        return this.postfix(this.construct(e, at), e.postfix, at, e);
      case 'callExpr':
        return this.postfix(this.call(e, hint), e.postfix, at, e);
      case 'bitcastExpr': {
        const to = this.type(e.type, at);
        const from = this.expr(e.value, undefined);
        const f = from.kind === 'abstract-int' ? this.expr(e.value, 'i32') : from;
        const width = (t: WType): number =>
          t.kind === 'vec' ? t.n : t.kind === 'scalar' && t.scalar !== 'bool' ? 1 : 0;
        if (!width(to) || width(to) !== width(f))
          this.fail('bitcast', at, `bitcast<${wgslName(to)}> of ${wgslName(f)}`);
        return this.postfix(to, e.postfix, at, e);
      }
      case 'unaryOp': {
        if (e.operator === '&' || e.operator === '*')
          this.fail(
            e.operator,
            at,
            `pointers (${e.operator}) are not portable (only arrayLength(&array))`,
            e.operator,
          );
        const t = this.expr(e.right, hint);
        if (e.operator === '!' && scalarOf(t) !== 'bool')
          this.fail('!', at, `! needs bool (got ${wgslName(t)})`, '!');
        if (e.operator === '-' && !isNumeric(t) && t.kind !== 'abstract-int')
          this.fail('-', at, `- on ${wgslName(t)}`);
        if (e.operator === '-' && scalarOf(t) === 'u32') this.fail('-', at, 'unary - on u32');
        if (e.operator === '~' && (scalarOf(t) === 'f32' || scalarOf(t) === 'bool'))
          this.fail('~', at, `~ on ${wgslName(t)}`);
        return this.postfix(t, e.postfix, at, e);
      }
      case 'binaryOp':
        return this.postfix(this.binary(e, hint, at), e.postfix, at, e);
      case 'constExpr': {
        // a module-scope const: a scalar is inlined (an abstract literal takes its context's
        // type, as in WGSL); a vector, array or struct is named, with its member and index chain
        const sym = this.globals.get(e.name);
        if (
          sym?.kind === 'const' &&
          (e.postfix || (sym.type.kind !== 'scalar' && sym.type.kind !== 'abstract-int'))
        ) {
          this.refs.set(e, 'const');
          return this.postfix(sym.type, e.postfix, at, e);
        }
        return this.expr(e.initializer, hint, at);
      }
      default:
        return this.fail(
          e.astNodeType || 'expression',
          at,
          `the expression ${e.astNodeType} is not portable`,
        );
    }
  }

  binary(e: AstNode, hint: Scalar | undefined, at: AstNode): WType {
    const op: string = e.operator;
    const comparison = ['<', '>', '<=', '>=', '==', '!='].includes(op);
    const logical = op === '&&' || op === '||';
    const shift = op === '<<' || op === '>>';
    let l = this.expr(e.left, undefined);
    let r = this.expr(e.right, shift ? 'u32' : undefined);
    if (shift) {
      if (l.kind === 'abstract-int')
        l = this.expr(e.left, hint && hint !== 'bool' && hint !== 'f32' ? hint : 'i32');
      if (scalarOf(r) !== 'u32')
        this.fail(op, at, `the shift amount must be u32 (got ${wgslName(r)})`, op);
      if (scalarOf(l) !== 'u32' && scalarOf(l) !== 'i32')
        this.fail(op, at, `${op} on ${wgslName(l)}`, op);
      return l;
    }
    if (l.kind === 'abstract-int' && r.kind !== 'abstract-int') l = this.expr(e.left, scalarOf(r));
    if (r.kind === 'abstract-int' && l.kind !== 'abstract-int') r = this.expr(e.right, scalarOf(l));
    if (l.kind === 'abstract-int' && r.kind === 'abstract-int') {
      const s =
        comparison || logical || !hint || hint === 'bool'
          ? comparison || logical
            ? 'i32'
            : undefined
          : hint;
      if (!s) return ABSTRACT_INT;
      l = this.expr(e.left, s);
      r = this.expr(e.right, s);
    }
    if (logical) {
      if (!sameType(l, BOOL) || !sameType(r, BOOL))
        this.fail(op, at, `${op} needs bool operands (got ${wgslName(l)} and ${wgslName(r)})`, op);
      return BOOL;
    }
    const ls = scalarOf(l);
    const rs = scalarOf(r);
    if (ls !== rs || !ls)
      this.fail(
        op,
        at,
        `${op} between ${wgslName(l)} and ${wgslName(r)} (WGSL converts nothing implicitly)`,
        op,
      );
    const n = l.kind === 'vec' ? l.n : r.kind === 'vec' ? r.n : 0;
    if (l.kind === 'vec' && r.kind === 'vec' && l.n !== r.n)
      this.fail(op, at, `${op} between ${wgslName(l)} and ${wgslName(r)}`, op);
    if (comparison) {
      if (l.kind !== r.kind)
        this.fail(op, at, `${op} between ${wgslName(l)} and ${wgslName(r)}`, op);
      if (ls === 'bool' && op !== '==' && op !== '!=') this.fail(op, at, `${op} on bool`, op);
      return n ? vec(n as 2 | 3 | 4, 'bool') : BOOL;
    }
    if (op === '&' || op === '|' || op === '^') {
      if (ls === 'f32') this.fail(op, at, `${op} on f32`, op);
      if (l.kind !== r.kind)
        this.fail(op, at, `${op} between ${wgslName(l)} and ${wgslName(r)}`, op);
      return l;
    }
    if (!['+', '-', '*', '/', '%'].includes(op))
      this.fail(op, at, `the operator ${op} is not portable`, op);
    if (ls === 'bool') this.fail(op, at, `${op} on bool`, op);
    return n ? vec(n as 2 | 3 | 4, ls) : l;
  }

  /** Member access, swizzles and indexing after a value of type `t`. */
  postfix(t: WType, p: AstNode, at: AstNode, owner: AstNode): WType {
    this.baseTypes.set(owner, t);
    let type = t;
    for (let q = p; q; q = q.postfix) {
      if (q.astNodeType === 'stringExpr') {
        const name: string = q.value;
        if (type.kind === 'struct') {
          const m = type.members.find((x) => x.name === name);
          if (!m) this.fail(name, at, `${type.name} has no member ${name}`);
          type = m.type;
        } else if (type.kind === 'vec') {
          if (
            !/^([xyzw]{1,4}|[rgba]{1,4})$/.test(name) ||
            [...name].some((c) => 'xyzwrgba'.indexOf(c) % 4 >= (type as { n: number }).n)
          )
            this.fail(name, at, `invalid swizzle .${name} of ${wgslName(type)}`);
          type =
            name.length === 1 ? scalar(type.scalar) : vec(name.length as 2 | 3 | 4, type.scalar);
        } else this.fail(name, at, `.${name} on ${wgslName(type)}`);
      } else if ('index' in q) {
        let i = this.expr(q.index, undefined);
        if (i.kind === 'abstract-int') i = this.expr(q.index, 'i32');
        if (i.kind !== 'scalar' || (i.scalar !== 'i32' && i.scalar !== 'u32'))
          this.fail('[]', at, `an index must be i32 or u32 (got ${wgslName(i)})`);
        if (type.kind === 'array') type = type.element;
        else if (type.kind === 'vec') type = scalar(type.scalar);
        else this.fail('[]', at, `indexing ${wgslName(type)}`);
      } else this.fail('postfix', at, 'unsupported postfix expression');
      this.types.set(q, type);
    }
    return type;
  }

  /** `textureLoad(t, coords, level)` → vec4f and `textureDimensions(t[, level])` → vec2u. */
  textureCall(e: AstNode, args: AstNode[]): WType {
    const name: string = e.name;
    const t = args[0];
    const sym = t?.astNodeType === 'varExpr' && !t.postfix ? this.lookup(t.name) : undefined;
    if (sym?.binding?.space !== 'texture')
      this.fail(name, e, `${name}(t, …) needs a texture_2d<f32> binding as its first argument`);
    this.usedBindings.add(t.name);
    this.refs.set(t, 'binding');
    const integer = (a: AstNode, what: string, n: 0 | 2): void => {
      let v = this.expr(a, undefined);
      if (v.kind === 'abstract-int') v = this.expr(a, 'i32');
      const ok =
        (n === 0 ? v.kind === 'scalar' : v.kind === 'vec' && v.n === 2) &&
        (scalarOf(v) === 'i32' || scalarOf(v) === 'u32');
      if (!ok)
        this.fail(
          name,
          e,
          `${name}'s ${what} must be ${n ? 'vec2<i32> or vec2<u32>' : 'i32 or u32'} (got ${wgslName(v)})`,
        );
    };
    if (name === 'textureLoad') {
      if (args.length !== 3)
        this.fail(name, e, 'textureLoad(t, coords, level) takes three arguments for a texture_2d');
      integer(args[1], 'coordinates', 2);
      integer(args[2], 'level', 0);
      return vec(4, 'f32');
    }
    if (args.length > 2)
      this.fail(name, e, 'textureDimensions(t[, level]) takes one or two arguments');
    if (args[1]) integer(args[1], 'level', 0);
    return vec(2, 'u32');
  }

  storageRead(e: AstNode, b: Binding, at: AstNode): WType {
    this.usedBindings.add(b.name);
    if (b.space === 'texture')
      this.fail(
        b.name,
        at,
        `texture ${b.name} is read with textureLoad(${b.name}, coords, level) or measured with textureDimensions(${b.name}); it is no value of its own`,
      );
    if (b.space === 'uniform') return this.postfix(b.type, e.postfix, at, e);
    if (b.single) {
      this.storageAccess.set(e, { binding: b, own: false, part: 'single' });
      return this.postfix(b.element as WType, e.postfix, at, e);
    }
    if (e.header && b.header) {
      this.storageAccess.set(e, { binding: b, own: false, part: 'header' });
      if (b.access !== 'read' && this.#target === e)
        this.fail(
          e.postfix?.value ?? b.name,
          at,
          `${b.name}.${e.postfix?.value}: a portable kernel writes the elements of ${b.name}'s array, not the members before it`,
        );
      return this.postfix(b.header, e.postfix, at, e);
    }
    const index = e.postfix;
    if (!index || !('index' in index))
      this.fail(
        b.name,
        at,
        `storage array ${b.name} must be indexed (${b.name}[i]); whole-array values are not portable`,
      );
    const own = this.isOwnIndex(index.index);
    if (b.access !== 'read') {
      if (!this.#inEntry)
        this.fail(
          b.name,
          at,
          `writable storage ${b.name} is used in a helper function; portable kernels touch writable arrays only in the entry point`,
        );
      // an index the invocation computes: the ping-pong path scatters (portable-compute.ts)
      if (!own) this.scatter = true;
      if (this.#target === e) {
        if (!own && this.#loops > 0)
          this.fail(
            b.name,
            at,
            `${b.name}[…] is written inside a loop at an index the invocation computes; the fallback paths give each write site one element per invocation (write the element once, after the loop, or index it with global_invocation_id.x)`,
          );
        const site = this.sites.get(b.name) ?? { own: false, other: 0 };
        if (own) site.own = true;
        else site.other++;
        this.sites.set(b.name, site);
      }
    }
    this.storageAccess.set(e, { binding: b, own, part: 'element' });
    return this.postfix(b.type, index, at, e);
  }

  /**
   * The type of a vector constructor written without its element type (`vec4(1.0, 2.0, 3.0, 4.0)`,
   * `vec3(v.xy, 1.0)`): WGSL infers it from the arguments — the first concrete scalar among them,
   * else i32 for abstract integers. Null when the type is spelled out.
   */
  inferredVector(type: AstNode, args: AstNode[], at: AstNode): WType | null {
    const m = /^vec([234])$/.exec(type?.name ?? '');
    if (!m || type.format || args.length === 0) return null;
    let inferred: Scalar | undefined;
    for (const a of args) {
      const v = this.expr(a, undefined);
      if (v.kind === 'scalar' || v.kind === 'vec') {
        inferred = v.scalar;
        break;
      }
      if (v.kind !== 'abstract-int')
        this.fail(type.name, at, `${type.name}(…) built from ${wgslName(v)}`);
    }
    return vec(Number(m[1]) as 2 | 3 | 4, inferred ?? 'i32');
  }

  /** `array(a, b, c)` without its element type: WGSL infers it from the values, as for vectors. */
  inferredArray(type: AstNode, args: AstNode[], at: AstNode): WType | null {
    if (type?.name !== 'array' || type.format || args.length === 0) return null;
    let element: WType | undefined;
    for (const a of args) {
      const v = this.expr(a, undefined);
      if (v.kind !== 'abstract-int') {
        element = v;
        break;
      }
    }
    if (element?.kind === 'void') this.fail('array', at, 'array(…) of no value');
    return makeArray(element ?? I32, args.length);
  }

  construct(e: AstNode, at: AstNode): WType {
    const args: AstNode[] = e.args ?? [];
    const t =
      this.inferredVector(e.type, args, at) ??
      this.inferredArray(e.type, args, at) ??
      this.type(e.type, at);
    if (t.kind === 'struct') {
      if (args.length === 0) return t;
      if (args.length !== t.members.length)
        this.fail(t.name, at, `${t.name}(…) takes ${t.members.length} values, got ${args.length}`);
      args.forEach((a, i) => {
        const m = t.members[i] as { name: string; type: WType };
        const v = this.expr(a, scalarOf(m.type));
        if (!sameType(v, m.type))
          this.fail(t.name, at, `${t.name}.${m.name} is ${wgslName(m.type)}, got ${wgslName(v)}`);
      });
      return t;
    }
    if (t.kind === 'array') {
      args.forEach((a) => {
        const v = this.expr(a, scalarOf(t.element));
        if (!sameType(v, t.element))
          this.fail('array', at, `array element ${wgslName(v)} in array<${wgslName(t.element)}>`);
      });
      if (args.length && args.length !== t.count)
        this.fail('array', at, `array<…, ${t.count}> built from ${args.length} values`);
      return t;
    }
    if (t.kind === 'scalar') {
      if (args.length > 1) this.fail(wgslName(t), at, `${wgslName(t)}(…) takes one value`);
      if (args.length === 1) {
        let v = this.expr(args[0], t.scalar);
        if (v.kind === 'abstract-int') v = this.expr(args[0], t.scalar);
        if (v.kind !== 'scalar') this.fail(wgslName(t), at, `${wgslName(t)}(${wgslName(v)})`);
      }
      return t;
    }
    if (t.kind === 'vec') {
      let total = 0;
      for (const a of args) {
        const v = this.expr(a, t.scalar);
        if (v.kind === 'vec') {
          total += v.n;
          if (v.scalar !== t.scalar && args.length > 1)
            this.fail(wgslName(t), at, `${wgslName(t)} built from ${wgslName(v)}`);
        } else if (v.kind === 'scalar') {
          total += 1;
          if (v.scalar !== t.scalar && args.length > 1)
            this.fail(wgslName(t), at, `${wgslName(t)} built from ${wgslName(v)}`);
        } else this.fail(wgslName(t), at, `${wgslName(t)} built from ${wgslName(v)}`);
      }
      if (args.length > 1 && total !== t.n)
        this.fail(wgslName(t), at, `${wgslName(t)} built from ${total} components`);
      if (args.length === 1) {
        const v = this.types.get(args[0]) as WType;
        if (v.kind === 'vec' && v.n !== t.n)
          this.fail(wgslName(t), at, `${wgslName(t)}(${wgslName(v)})`);
      }
      return t;
    }
    return this.fail(wgslName(t), at, `cannot construct ${wgslName(t)}`);
  }

  call(e: AstNode, hint: Scalar | undefined): WType {
    const name: string = e.name;
    const args: AstNode[] = e.args ?? [];
    const rejected = REJECTED_CALLS[name];
    if (rejected) this.fail(name, e, `${name}(): ${rejected} are not portable`);
    if (name.startsWith('atomic')) this.fail(name, e, `${name}(): atomics are not portable`);
    if (name === 'textureLoad' || name === 'textureDimensions') return this.textureCall(e, args);
    if (name.startsWith('textureSample'))
      this.fail(
        name,
        e,
        `${name}(): sampling (filtering, mip selection, derivatives) is not portable; read texels with textureLoad(t, vec2i(x, y), 0)`,
      );
    if (name.startsWith('texture'))
      this.fail(name, e, `${name}(): not portable (textureLoad and textureDimensions are)`);
    // a struct or type constructor spelled as a call
    const asType = BUILTIN_TYPES[name] ?? this.structs.get(name);
    if (asType) return this.construct({ ...e, type: { name, astNodeType: 'type' } }, e);
    const f = this.functions.get(name);
    if (f) {
      if (args.length !== f.params.length)
        this.fail(name, e, `${name} takes ${f.params.length} arguments, got ${args.length}`);
      args.forEach((a, i) => {
        const p = f.params[i] as { name: string; type: WType };
        const v = this.expr(a, scalarOf(p.type));
        if (!sameType(v, p.type))
          this.fail(
            name,
            e,
            `argument ${p.name} of ${name} is ${wgslName(p.type)}, got ${wgslName(v)}`,
          );
      });
      return f.returnType;
    }
    if (name === 'arrayLength') {
      const a = args[0];
      const target = a?.astNodeType === 'unaryOp' && a.operator === '&' ? a.right : undefined;
      const sym = target?.astNodeType === 'varExpr' ? this.lookup(target.name) : undefined;
      if (!sym?.binding || sym.binding.space !== 'storage' || target.postfix)
        this.fail(name, e, 'arrayLength(&array) needs a storage array binding');
      this.usedBindings.add(sym.binding.name);
      this.lengthsUsed.add(sym.binding.name);
      return U32;
    }
    if (!PORTABLE_BUILTINS.has(name))
      this.fail(name, e, `${name}() is not a portable built-in (see docs/compute.md for the list)`);
    // unify the argument types: abstract literals take the first concrete argument's scalar
    let types = args.map((a) => this.expr(a, undefined));
    const concrete = types.find((t) => t.kind !== 'abstract-int');
    const s = concrete ? scalarOf(concrete) : (hint ?? 'i32');
    types = args.map((a, i) =>
      (types[i] as WType).kind === 'abstract-int'
        ? this.expr(a, s === 'bool' ? 'i32' : s)
        : (types[i] as WType),
    );
    if (name === 'select') {
      if (args.length !== 3) this.fail(name, e, 'select(f, t, cond) takes three arguments');
      const [f, t, c] = types as [WType, WType, WType];
      if (!sameType(f, t)) this.fail(name, e, `select between ${wgslName(f)} and ${wgslName(t)}`);
      if (scalarOf(c) !== 'bool' || (c.kind === 'vec' && (f.kind !== 'vec' || f.n !== c.n)))
        this.fail(
          name,
          e,
          `select's condition must be bool or a bool vector of the same size (got ${wgslName(c)})`,
        );
      return f;
    }
    if (name === 'any' || name === 'all') {
      if (scalarOf(types[0] as WType) !== 'bool') this.fail(name, e, `${name}() needs bool values`);
      return BOOL;
    }
    const first = types[0];
    if (!first) return this.fail(name, e, `${name}() needs arguments`);
    if (FLOAT_ONLY.has(name) && types.some((t) => scalarOf(t) !== 'f32'))
      this.fail(name, e, `${name}() takes f32 values here (got ${types.map(wgslName).join(', ')})`);
    if (name === 'length') return F32;
    if (name === 'distance' || name === 'dot') {
      if (!sameType(first, types[1] as WType))
        this.fail(name, e, `${name} of ${types.map(wgslName).join(' and ')}`);
      return scalar(scalarOf(first) as Scalar);
    }
    if (name === 'cross') return vec(3, 'f32');
    // component-wise: every vector argument the same type; mix/step/smoothstep/clamp accept scalars too
    const vecArg = types.find((t) => t.kind === 'vec');
    for (const t of types)
      if (scalarOf(t) !== scalarOf(first) || (t.kind === 'vec' && vecArg && !sameType(t, vecArg)))
        this.fail(name, e, `${name}() of ${types.map(wgslName).join(', ')}`);
    if (
      vecArg &&
      types.some((t) => t.kind === 'scalar') &&
      !['mix', 'step', 'smoothstep', 'clamp', 'min', 'max'].includes(name)
    )
      this.fail(name, e, `${name}() mixes vectors and scalars`);
    return vecArg && name !== 'step' ? vecArg : name === 'step' ? (types[1] as WType) : first;
  }
}

function isHostShareable(t: WType): boolean {
  if (t.kind === 'scalar') return t.scalar !== 'bool';
  if (t.kind === 'vec') return t.scalar !== 'bool';
  if (t.kind === 'struct') return t.members.every((m) => isHostShareable(m.type));
  if (t.kind === 'array') return isHostShareable(t.element);
  return false;
}

/** Names of the functions `fn` calls. */
function calleesOf(fn: AstNode): Set<string> {
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

/** Parses and checks `code`; the result is what the emitters translate. */
export function analyzeKernel(
  label: string,
  code: string,
  entryPoint = 'main',
  options: AnalyzeOptions = {},
): PortableModule {
  if (typeof code !== 'string' || !code.trim())
    throw new KernelError(label, 'code must be a WGSL string');
  let ast: AstNode[];
  const parser = new WgslParser();
  try {
    ast = parser.parse(parseable(code));
  } catch (err) {
    // wgsl_reflect's parser recurses forever on recursive functions: name the cycle ourselves
    const cycle = err instanceof RangeError ? recursionIn(code) : null;
    if (cycle) {
      const at = code.indexOf(`fn ${cycle[0]}`);
      const before = code.slice(0, at);
      const line = before.split('\n').length;
      const column = at - before.lastIndexOf('\n');
      throw new PortableKernelError(
        label,
        cycle[0] as string,
        line,
        column,
        `recursion (${cycle.join(' → ')}) is not allowed in WGSL`,
        code,
      );
    }
    const message = (err as Error).message.replace(/\.?\. Line: \d+$/, '');
    const [line, column] = parsePosition(parser, code, message);
    throw new PortableKernelError(
      label,
      'syntax',
      line,
      column,
      `WGSL does not parse: ${message}`,
      code,
    );
  }
  unfoldConstants(ast, code);
  return new Analyzer(label, code, options).module(unwrapStorageStructs(ast), entryPoint);
}
