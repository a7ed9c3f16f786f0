/**
 * The analyser's state and its lowest layer: what it records about a module, the types it knows,
 * the scopes of names. The layers above (expressions, calls, statements, declarations, analyze.ts's
 * module) each add one concern.
 */
import { WGSL_RESERVED_WORDS } from './reserved.js';
import { locate, PortableKernelError } from './source.js';
import { VOID, makeArray, makeStruct, mat, vec, wgslName, type WType } from './types.js';
import type {
  AstNode,
  Binding,
  StorageAccess,
  AnalyzeOptions,
  PortableFunction,
  Symbol,
} from './analysis-types.js';
import { BUILTIN_TYPES } from './analysis-types.js';

export abstract class AnalyzerBase {
  readonly types = new Map<AstNode, WType>();
  readonly storageAccess = new Map<AstNode, StorageAccess>();
  scatter = false;
  readonly shadows = new Map<AstNode, number>();
  protected shadowCount = 0;
  /** Write sites per writable array: whether one is the own element, and how many are not. */
  readonly sites = new Map<string, { own: boolean; other: number }>();
  /** Loops around the statement being checked. */
  protected loops = 0;
  readonly lengthsUsed = new Set<string>();
  readonly refs = new Map<AstNode, Symbol['kind']>();
  readonly baseTypes = new Map<AstNode, WType>();
  readonly structs = new Map<string, WType>();
  readonly bindings = new Map<string, Binding>();
  readonly usedBindings = new Set<string>();
  /** The sampler each texture is sampled with (`textureSampleLevel`), by texture name. */
  readonly samplerOf = new Map<string, string>();
  readonly functions = new Map<string, PortableFunction>();
  readonly constants: Array<{ name: string; type: WType; value: AstNode }> = [];
  readonly privates: Array<{ name: string; type: WType; value: AstNode | null }> = [];
  readonly globals = new Map<string, Symbol>();
  protected scopes: Array<Map<string, Symbol>> = [];
  /** The function being checked: writable storage may only be touched in the entry point. */
  protected inEntry = false;
  /** The variable an assignment writes (header members of writable storage are read-only). */
  protected target: AstNode = null;
  protected returnType: WType = VOID;

  constructor(
    readonly label: string,
    readonly code: string,
    readonly options: AnalyzeOptions = {},
  ) {}

  /** The first construct only the CPU path runs (`options.cpu`); see PortableModule.pingpongLimit. */
  pingpongLimit: PortableKernelError | null = null;
  /** Workgroup memory, a barrier or an atomic: the invocations cooperate. */
  cooperative = false;
  readonly workgroups: Array<{ name: string; type: WType }> = [];

  fail(construct: string, node: AstNode, message: string, token?: string): never {
    throw this.error(construct, node, message, token);
  }

  error(construct: string, node: AstNode, message: string, token?: string): PortableKernelError {
    const where = locate(this.code, node?.line ?? 1, token ?? construct, node?.start);
    const [line, column] = where.split(':').map(Number) as [number, number];
    return new PortableKernelError(this.label, construct, line, column, message, this.code);
  }

  /**
   * A construct the ping-pong path cannot run but the CPU path can: recorded (the first one) when
   * the analysis is for `createPortableCompute` (`options.cpu`), else refused as before.
   * `cooperative` constructs (workgroup memory, barriers, atomics) also change how the CPU runs it.
   */
  limit(
    construct: string,
    node: AstNode,
    message: string,
    token?: string,
    cooperative = false,
  ): void {
    if (!this.options.cpu) this.fail(construct, node, message, token);
    this.pingpongLimit ??= this.error(
      construct,
      node,
      `${message} on the ping-pong path (WebGL2); the CPU path runs this kernel`,
      token,
    );
    if (cooperative) this.cooperative = true;
  }

  /**
   * Walks the steps from a variable of type `t` to the place `&place` names: struct members and
   * array elements only — WGSL takes no address of a vector component or a matrix column, which
   * `refuse` is told.
   */
  addressSteps(t: WType, place: AstNode, refuse: (what: string) => never): void {
    for (let q = place.postfix; q; q = q.postfix) {
      if (q.astNodeType === 'stringExpr' && t.kind === 'struct')
        t = t.members.find((m) => m.name === q.value)?.type ?? t;
      else if (q.astNodeType !== 'stringExpr' && t.kind === 'array') t = t.element;
      else refuse(t.kind === 'mat' ? 'matrix column' : 'vector component');
    }
  }

  // ---------------------------------------------------------------- types

  /** A user function's parameter: a value, or a pointer to a function or private variable. */
  parameter(a: AstNode): { name: string; type: WType; pointer?: 'function' | 'private' } {
    const t = a.type;
    if (t?.astNodeType !== 'pointer') return { name: a.name, type: this.type(t, a) };
    const space: string = t.storage ?? '';
    if (space !== 'function' && space !== 'private')
      this.fail(
        `ptr<${space}>`,
        a,
        `${a.name}: a pointer into ${space || 'an unnamed'} memory is not portable (ptr<function, T> and ptr<private, T> are)`,
        'ptr',
      );
    return { name: a.name, type: this.type(t.type, a), pointer: space };
  }

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
          'a pointer is portable only as a function parameter, ptr<function, T> or ptr<private, T> (pass and return values otherwise)',
          'ptr',
        );
      case 'sampler':
        return this.fail(name, at, `textures and samplers (${name}) are not portable`);
      case 'template': {
        if (name === 'atomic') {
          this.limit('atomic', at, 'atomics are not portable', undefined, true);
          const s = node.format ? this.type(node.format, at) : undefined;
          if (s?.kind !== 'scalar' || (s.scalar !== 'u32' && s.scalar !== 'i32'))
            this.fail('atomic', at, 'an atomic holds u32 or i32 (atomic<u32>, atomic<i32>)');
          return { kind: 'atomic', scalar: s.scalar as 'u32' | 'i32' };
        }
        const mt = /^mat([234])x([234])$/.exec(name);
        if (mt) {
          const s = node.format ? this.type(node.format, at) : undefined;
          if (s?.kind !== 'scalar' || s.scalar !== 'f32')
            this.fail(
              name,
              at,
              s
                ? `${name}<${wgslName(s)}>: a portable matrix holds f32`
                : `${name} needs its element type here: ${name}<f32> (or ${name}f)`,
            );
          return mat(Number(mt[1]) as 2 | 3 | 4, Number(mt[2]) as 2 | 3 | 4);
        }
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
        if (/^(f16|vec[234]h|mat[234]x[234]h)$/.test(name))
          this.fail(name, at, `f16 (${name}) is not portable`);
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
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i]?.get(name);
      if (s) return s;
    }
    return this.globals.get(name);
  }

  /** A declared name (of a value, function, struct, member or alias) that WGSL reserves is refused. */
  notReserved(name: string, node: AstNode): void {
    if (WGSL_RESERVED_WORDS.has(name))
      this.fail(
        name,
        node,
        `"${name}" is a reserved word in WGSL: WebGPU's compiler refuses it (rename it)`,
        name,
      );
  }

  declare(name: string, sym: Symbol, node: AstNode): void {
    this.notReserved(name, node);
    const scope = this.scopes[this.scopes.length - 1] as Map<string, Symbol>;
    if (scope.has(name)) this.fail(name, node, `"${name}" is declared twice in one scope`);
    // a local shadowing one of an enclosing scope, or a module-scope constant or private value
    // (`let k = k * 2.0;`): numbered, for languages that cannot say it
    const global = this.globals.get(name)?.kind;
    const local = sym.kind === 'let' || sym.kind === 'var' || sym.kind === 'const';
    const outer =
      this.scopes.slice(0, -1).some((x) => x.has(name)) ||
      (local && (global === 'const' || global === 'private'));
    const shadow = outer ? ++this.shadowCount : 0;
    if (shadow) this.shadows.set(node, shadow);
    scope.set(name, shadow ? { ...sym, shadow } : sym);
  }

  // ---------------------------------------------------------------- module

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

  /**
   * Whether `e` is the invocation's own texel: `gid.xy`, `vec2(gid.x, gid.y)`, a conversion of
   * either to vec2<i32> or vec2<u32>, or a `let` holding one (what the ping-pong's image form draws).
   */
  isOwnTexel(e: AstNode): boolean {
    if (!e) return false;
    const component = (a: AstNode, c: 'x' | 'y'): boolean => {
      if (a?.astNodeType === 'createExpr' && a.args?.length === 1 && !a.postfix)
        return ['u32', 'i32'].includes(a.type?.name) && component(a.args[0], c);
      return (
        a?.astNodeType === 'varExpr' &&
        this.lookup(a.name)?.kind === 'gid' &&
        a.postfix?.astNodeType === 'stringExpr' &&
        a.postfix.value === c &&
        !a.postfix.postfix
      );
    };
    if (e.astNodeType === 'varExpr') {
      const sym = this.lookup(e.name);
      if (sym?.kind === 'gid')
        return (
          e.postfix?.astNodeType === 'stringExpr' && e.postfix.value === 'xy' && !e.postfix.postfix
        );
      return !!sym?.ownTexel && !e.postfix;
    }
    if (e.astNodeType !== 'createExpr' || e.postfix || e.type?.name !== 'vec2') return false;
    if (!['u32', 'i32'].includes(e.type.format?.name)) return false;
    if (e.args?.length === 1) return this.isOwnTexel(e.args[0]);
    return e.args?.length === 2 && component(e.args[0], 'x') && component(e.args[1], 'y');
  }

  // ---------------------------------------------------------------- expressions
}
