/** The analyser's expressions: every node typed (operators, member and index access, storage reads). */
import {
  ABSTRACT_INT,
  BOOL,
  holdsAtomic,
  indexBound,
  isNumeric,
  mat,
  sameType,
  scalar,
  scalarOf,
  vec,
  wgslName,
  type Scalar,
  type WType,
} from './types.js';
import type { AstNode, Binding } from './analysis-types.js';
import { AnalyzerBase } from './analyze-base.js';
export abstract class ExpressionAnalyzer extends AnalyzerBase {
  /** A type constructor or conversion (analyze-calls.ts). */
  abstract construct(e: AstNode, at: AstNode): WType;
  /** The pointer parameter being passed on as a whole (`f(p)`), which is no read of it. */
  pointerUse: AstNode = null;

  /** A call of a built-in or user function (analyze-calls.ts). */
  abstract call(e: AstNode, hint: Scalar | undefined): WType;

  /** Types `e` (recording every node's type); `hint` is the scalar an abstract int literal takes. */
  /** Set while typing the place an atomic built-in names (`&a[i]`): atomics are no values elsewhere. */
  protected atomicPlace = false;

  expr(e: AstNode, hint: Scalar | undefined, at?: AstNode): WType {
    const t = this.typeExpression(e, hint, at ?? e);
    if (holdsAtomic(t) && !this.atomicPlace)
      this.fail(
        wgslName(t),
        at ?? e,
        `${wgslName(t)} is read and written with the atomic built-ins (atomicLoad, atomicStore, atomicAdd…), not as a value`,
        e?.name,
      );
    this.types.set(e, t);
    return t;
  }

  typeExpression(e: AstNode, hint: Scalar | undefined, at: AstNode): WType {
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
        if (sym.kind === 'pointer' && !e.postfix && this.pointerUse !== e)
          this.fail(
            e.name,
            at,
            `${e.name} is a pointer: read what it points to with *${e.name} (or ${e.name}.x, ${e.name}[i])`,
          );
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
        if (e.operator === '*') {
          // what a pointer parameter points to
          const p = e.right;
          const sym = p?.astNodeType === 'varExpr' && !p.postfix ? this.lookup(p.name) : undefined;
          if (sym?.kind !== 'pointer')
            this.fail(
              '*',
              at,
              '* reads through a pointer parameter (ptr<function, T> or ptr<private, T>)',
              '*',
            );
          this.refs.set(p, 'pointer');
          if (sym.shadow) this.shadows.set(p, sym.shadow);
          this.types.set(p, sym.type);
          return this.postfix(sym.type, e.postfix, at, e);
        }
        if (e.operator === '&')
          this.fail(
            '&',
            at,
            "&v is passed to a function's pointer parameter, to arrayLength or an atomic, or held in a let (let p = &v;)",
            '&',
          );
        const t = this.expr(e.right, hint);
        if (e.operator === '!' && scalarOf(t) !== 'bool')
          this.fail('!', at, `! needs bool (got ${wgslName(t)})`, '!');
        if (e.operator === '-' && !isNumeric(t) && t.kind !== 'abstract-int' && t.kind !== 'mat')
          this.fail('-', at, `- on ${wgslName(t)}`);
        if (e.operator === '-' && scalarOf(t) === 'u32') this.fail('-', at, 'unary - on u32');
        if (e.operator === '~' && (scalarOf(t) === 'f32' || scalarOf(t) === 'bool'))
          this.fail('~', at, `~ on ${wgslName(t)}`);
        return this.postfix(t, e.postfix, at, e);
      }
      case 'binaryOp':
        return this.postfix(this.binary(e, hint, at), e.postfix, at, e);
      case 'constExpr': {
        // the parser resolves a name to a module-scope const even where a local shadows it
        // (`let k = k * 3u; … k`): the local is what WGSL names
        const local = this.scopes.some((x) => x.has(e.name)) ? this.lookup(e.name) : undefined;
        if (local) {
          this.refs.set(e, local.kind);
          if (local.shadow) this.shadows.set(e, local.shadow);
          return this.postfix(local.type, e.postfix, at, e);
        }
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
    if (l.kind === 'mat' || r.kind === 'mat') return this.matrixOp(op, l, r, at);
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

  /**
   * WGSL's matrix arithmetic: `m * v` (a vector of its rows), `v * m` (of its columns), `m * m`,
   * `m * s` and `s * m`, `m + m` and `m - m` of one shape.
   */
  matrixOp(op: string, l: WType, r: WType, at: AstNode): WType {
    const bad = (): never =>
      this.fail(op, at, `${op} between ${wgslName(l)} and ${wgslName(r)}`, op);
    const isF32 = (t: WType): boolean => t.kind === 'scalar' && t.scalar === 'f32';
    if (op === '+' || op === '-') return sameType(l, r) ? l : bad();
    if (op !== '*') return bad();
    if (l.kind === 'mat' && isF32(r)) return l;
    if (r.kind === 'mat' && isF32(l)) return r;
    if (l.kind === 'mat' && r.kind === 'vec')
      return r.scalar === 'f32' && r.n === l.cols ? vec(l.rows, 'f32') : bad();
    if (l.kind === 'vec' && r.kind === 'mat')
      return l.scalar === 'f32' && l.n === r.rows ? vec(r.cols, 'f32') : bad();
    if (l.kind === 'mat' && r.kind === 'mat')
      return l.cols === r.rows ? mat(r.cols, l.rows) : bad();
    return bad();
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
        const n = indexBound(type);
        const literal =
          q.index.astNodeType === 'literalExpr' ? Number(q.index.value?.data?.[0]) : NaN;
        if (n && (literal < 0 || literal >= n))
          this.fail(
            '[]',
            at,
            `index ${literal} is out of bounds of ${wgslName(type)} (WebGPU refuses a constant one)`,
          );
        if (type.kind === 'array') type = type.element;
        else if (type.kind === 'vec') type = scalar(type.scalar);
        else if (type.kind === 'mat')
          type = vec(type.rows, 'f32'); // a column
        else this.fail('[]', at, `indexing ${wgslName(type)}`);
      } else this.fail('postfix', at, 'unsupported postfix expression');
      this.types.set(q, type);
    }
    return type;
  }

  storageRead(e: AstNode, b: Binding, at: AstNode): WType {
    this.usedBindings.add(b.name);
    if (b.space === 'texture' || b.space === 'storage-texture')
      this.fail(
        b.name,
        at,
        b.space === 'texture'
          ? `texture ${b.name} is read with textureLoad(${b.name}, coords, level) or measured with textureDimensions(${b.name}); it is no value of its own`
          : `storage texture ${b.name} is written with textureStore(${b.name}, coords, value) or measured with textureDimensions(${b.name}); it is no value of its own`,
      );
    if (b.space === 'uniform') return this.postfix(b.type, e.postfix, at, e);
    if (b.single) {
      this.storageAccess.set(e, { binding: b, own: false, part: 'single' });
      return this.postfix(b.element as WType, e.postfix, at, e);
    }
    if (e.header && b.header) {
      this.storageAccess.set(e, { binding: b, own: false, part: 'header' });
      if (b.access !== 'read' && this.target === e)
        this.limit(
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
      if (!this.inEntry)
        this.limit(
          b.name,
          at,
          `writable storage ${b.name} is used in a helper function; portable kernels touch writable arrays only in the entry point`,
        );
      // an index the invocation computes: the ping-pong path scatters (portable-compute.ts)
      if (!own) this.scatter = true;
      if (this.target === e) {
        if (!own && this.loops > 0)
          this.limit(
            b.name,
            at,
            `${b.name}[…] is written inside a loop at an index the invocation computes; the ping-pong path gives each write site one element per invocation (write the element once, after the loop, or index it with global_invocation_id.x)`,
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
}
