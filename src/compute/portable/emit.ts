/**
 * What the GLSL and JavaScript emitters share: statements (both languages have C's control flow),
 * the walk over postfix chains and the lowering of storage accesses. A subclass says how
 * declarations, values and operators are spelled.
 */
import type { AstNode, Binding, PortableModule } from './analyze.js';
import { I32, BOOL, U32, indexBound, scalarOf, type Scalar, type WType } from './types.js';

export abstract class Emitter {
  /**
   * Writable arrays as tracked elements (the scatter form: each invocation keeps the elements it
   * writes, by index) rather than as the invocation's own element (the gather form).
   */
  tracked = false;
  /** The variable the statement being emitted assigns to. */
  #target: AstNode = null;

  constructor(readonly m: PortableModule) {}

  /** The type the analysis recorded for `node`. */
  typeOf(node: AstNode): WType {
    const t = this.m.types.get(node);
    if (!t) throw new Error(`internal: no type for ${node?.astNodeType} at line ${node?.line}`);
    return t.kind === 'abstract-int' ? I32 : t;
  }

  // ---------------------------------------------------------------- spelled by the language

  abstract declare(
    kind: 'let' | 'var' | 'const',
    name: string,
    type: WType,
    value: string | null,
  ): string;
  /** A value read from an expression that is about to be stored (JS copies composite values). */
  abstract stored(e: AstNode): string;
  abstract assign(
    target: string,
    targetType: WType,
    op: string,
    value: string,
    valueType: WType,
  ): string;
  abstract literal(value: number, type: WType): string;
  abstract construct(type: WType, args: AstNode[]): string;
  abstract call(name: string, args: AstNode[], result: WType): string;
  abstract bitcast(to: WType, value: AstNode): string;
  abstract unary(op: string, value: string, type: WType): string;
  abstract binary(op: string, l: string, lt: WType, r: string, rt: WType): string;
  abstract member(base: string, baseType: WType, name: string): string;
  abstract index(base: string, baseType: WType, index: string): string;
  /** An i32 or u32 index as a u32 no larger than `n - 1` (a negative i32 is a large u32). */
  abstract clamped(index: string, n: number): string;
  /** Element `index` of a read-only storage array (a loaded copy). */
  abstract loadElement(b: Binding, index: string): string;
  /** The invocation's own element of a writable array (a variable the kernel reads and writes). */
  abstract ownElement(b: Binding): string;
  /** Element `index` of a writable array in the scatter form: assignable when `write`. */
  abstract trackedElement(b: Binding, index: string, write: boolean): string;
  /** The members a storage struct declares before its array (read-only). */
  abstract loadHeader(b: Binding): string;
  /** The members before a writable array, as the scatter form keeps them: assignable when `write`. */
  trackedHeader(b: Binding, _write: boolean): string {
    return this.loadHeader(b);
  }
  abstract arrayLength(b: Binding): string;
  abstract name(name: string): string;
  /** What a pointer parameter (its emitted name) points to, as a value and as a place. */
  abstract pointee(pointer: string): string;
  /** `&v` passed to a pointer parameter (`v` a variable, or a struct member or array element in one). */
  abstract address(v: AstNode): string;

  // ---------------------------------------------------------------- expressions

  expr(e: AstNode): string {
    const recorded = this.m.baseTypes.get(e) ?? this.typeOf(e);
    const base = recorded.kind === 'abstract-int' ? I32 : recorded;
    switch (e.astNodeType) {
      case 'literalExpr':
        return this.postfix(this.literal(Number(e.value.data[0]), base), base, e.postfix);
      case 'varExpr': {
        const access = this.m.storageAccess.get(e);
        if (access) {
          const b = access.binding;
          if (access.part === 'header')
            return this.postfix(
              b.access === 'read' ? this.loadHeader(b) : this.trackedHeader(b, this.#target === e),
              b.header as WType,
              e.postfix,
            );
          if (access.part === 'single')
            return this.postfix(
              b.access === 'read'
                ? this.loadElement(b, this.literal(0, U32))
                : this.trackedElement(b, this.literal(0, U32), this.#target === e),
              b.element as WType,
              e.postfix,
            );
          const idx = e.postfix;
          const element =
            b.access === 'read'
              ? this.loadElement(b, this.expr(idx.index))
              : access.own && !this.tracked
                ? this.ownElement(b)
                : this.trackedElement(b, this.expr(idx.index), this.#target === e);
          return this.postfix(element, b.element as WType, idx.postfix);
        }
        const name = this.name(this.local(e, e.name));
        // a pointer parameter read or written through a member or index (`p.x`, `p[i]`)
        if (this.m.refs.get(e) === 'pointer' && e.postfix)
          return this.postfix(this.pointee(name), base, e.postfix);
        return this.postfix(name, base, e.postfix);
      }
      case 'createExpr':
        return this.postfix(this.construct(base, e.args ?? []), base, e.postfix);
      case 'callExpr':
        return this.postfix(this.call(e.name, e.args ?? [], base), base, e.postfix);
      case 'bitcastExpr':
        return this.postfix(this.bitcast(base, e.value), base, e.postfix);
      case 'unaryOp':
        if (e.operator === '*')
          return this.postfix(this.pointee(this.expr(e.right)), base, e.postfix);
        if (e.operator === '&') return this.address(e.right);
        return this.postfix(
          this.unary(e.operator, this.expr(e.right), this.typeOf(e.right)),
          base,
          e.postfix,
        );
      case 'binaryOp': {
        const l = this.typeOf(e.left);
        const r = this.typeOf(e.right);
        return this.postfix(
          this.binary(e.operator, this.expr(e.left), l, this.expr(e.right), r),
          base,
          e.postfix,
        );
      }
      case 'constExpr': {
        const ref = this.m.refs.get(e);
        if (ref === 'const') return this.postfix(this.name(e.name), base, e.postfix);
        // a local shadowing the module-scope constant the parser resolved the name to
        if (ref) return this.postfix(this.name(this.local(e, e.name)), base, e.postfix);
        return this.expr(e.initializer);
      }
      default:
        throw new Error(`internal: cannot emit ${e.astNodeType}`);
    }
  }

  postfix(code: string, type: WType, p: AstNode): string {
    let out = code;
    let t = type;
    for (let q = p; q; q = q.postfix) {
      if (q.astNodeType === 'stringExpr') out = this.member(out, t, q.value);
      else {
        // a computed index stays inside the array, vector or matrix, as WebGPU's robust access
        // clamps it (GLSL leaves it undefined, JavaScript would read undefined); a literal one
        // the analysis has checked
        const n = indexBound(t);
        const i = this.expr(q.index);
        out = this.index(
          out,
          t,
          n && q.index.astNodeType !== 'literalExpr' ? this.clamped(i, n) : i,
        );
      }
      t = this.typeOf(q);
    }
    return out;
  }

  // ---------------------------------------------------------------- statements

  block(statements: AstNode[] | null, indent: string): string {
    return (statements ?? [])
      .filter((s) => s.astNodeType !== 'continuing')
      .map((s) => this.statement(s, indent))
      .filter(Boolean)
      .join('\n');
  }

  statement(s: AstNode, indent: string): string {
    const inner = `${indent}  `;
    if (Array.isArray(s)) return `${indent}{\n${this.block(s, inner)}\n${indent}}`;
    switch (s.astNodeType) {
      case 'let':
      case 'var':
      case 'const':
        return `${indent}${this.declare(s.astNodeType, this.local(s, s.name), this.typeOf(s), s.value ? this.stored(s.value) : null)}`;
      case 'assign': {
        const target = this.targetOf(s.variable);
        return `${indent}${this.assign(target, this.typeOf(s.variable), s.operator, this.stored(s.value), this.typeOf(s.value))}`;
      }
      case 'increment': {
        const t = this.typeOf(s.variable);
        const one = this.literal(1, t);
        return `${indent}${this.assign(this.targetOf(s.variable), t, s.operator === '++' ? '+=' : '-=', one, t)}`;
      }
      case 'call':
        return `${indent}${this.call(s.name, s.args ?? [], this.m.types.get(s) ?? { kind: 'void' })};`;
      case 'if': {
        let out = `${indent}if (${this.expr(s.condition)}) {\n${this.block(s.body, inner)}\n${indent}}`;
        for (const e of s.elseif ?? [])
          out += ` else if (${this.expr(e.condition)}) {\n${this.block(e.body, inner)}\n${indent}}`;
        if (s.else) out += ` else {\n${this.block(s.else, inner)}\n${indent}}`;
        return out;
      }
      case 'for': {
        const init = s.init ? this.statement(s.init, '').replace(/;$/, '') : '';
        const cond = s.condition ? this.expr(s.condition) : '';
        const incr = s.increment ? this.statement(s.increment, '').replace(/;$/, '') : '';
        return `${indent}for (${init}; ${cond}; ${incr}) {\n${this.block(s.body, inner)}\n${indent}}`;
      }
      case 'while':
        return `${indent}while (${this.expr(s.condition)}) {\n${this.block(s.body, inner)}\n${indent}}`;
      case 'loop': {
        // loop { body; continuing { C } } runs C after every iteration, `continue` included
        const first = this.loopFlag();
        const cont = s.continuing ? this.block(s.continuing.body, `${inner}  `) : '';
        const head = s.continuing ? `${inner}if (!${first}) {\n${cont}\n${inner}}\n` : '';
        return `${indent}for (${this.declare('var', first, BOOL, 'true').replace(/;$/, '')}; ; ${first} = false) {\n${head}${this.block(s.body, inner)}\n${indent}}`;
      }
      case 'break':
        return s.condition
          ? `${indent}if (${this.expr(s.condition)}) { break; }`
          : `${indent}break;`;
      case 'continue':
        return `${indent}continue;`;
      case 'return':
        return s.value && !(s.value.astNodeType === 'createExpr' && !s.value.type)
          ? `${indent}return ${this.stored(s.value)};`
          : `${indent}return;`;
      case 'switch': {
        const cases = (s.cases as AstNode[])
          .map((k) => {
            const labels =
              k.astNodeType === 'default' || !k.selectors
                ? 'default:'
                : (k.selectors as AstNode[])
                    .map((x) =>
                      x.astNodeType === 'defaultSelector' || x.astNodeType === ''
                        ? 'default:'
                        : `case ${this.expr(x)}:`,
                    )
                    .join(' ');
            return `${inner}${labels} {\n${this.block(k.body, `${inner}  `)}\n${inner}  break;\n${inner}}`;
          })
          .join('\n');
        return `${indent}switch (${this.expr(s.condition)}) {\n${cases}\n${indent}}`;
      }
      case 'staticAssert':
        return '';
      default:
        throw new Error(`internal: cannot emit statement ${s.astNodeType}`);
    }
  }

  /** The name a local is spelled with (a language without C's shadowing numbers shadowing ones). */
  local(_node: AstNode, name: string): string {
    return name;
  }

  /** The code of an assignment's target (a tracked element is assignable there). */
  targetOf(e: AstNode): string {
    this.#target = e;
    try {
      return this.expr(e);
    } finally {
      this.#target = null;
    }
  }

  #loops = 0;
  loopFlag(): string {
    return `_first${this.#loops++}`;
  }
}

/** The WGSL scalar behind a type, for spelling operators (abstract ints are i32 by now). */
export const scalarName = (t: WType): Scalar => scalarOf(t) ?? 'f32';
