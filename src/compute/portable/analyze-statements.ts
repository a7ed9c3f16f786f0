/** The analyser's statements: the shape checks (writes, loops, control flow) of every function body. */
import { isNumeric, sameType, scalarOf, wgslName, type WType } from './types.js';
import type { AstNode, Binding, PortableFunction } from './analysis-types.js';
import { CallAnalyzer } from './analyze-calls.js';
export abstract class StatementAnalyzer extends CallAnalyzer {
  functionBody(f: PortableFunction, entry: boolean): void {
    this.scopes = [new Map()];
    for (const p of f.params)
      this.declare(
        p.name,
        p.pointer
          ? { type: p.type, kind: 'pointer', space: p.pointer }
          : { type: p.type, kind: 'param' },
        f.node,
      );
    this.inEntry = entry;
    this.returnType = f.returnType;
    this.block(f.node.body, false);
  }

  /** The type of declaration `node`'s value, which must be of its declared type where it has one. */
  initializer(node: AstNode, declared: WType | undefined): WType {
    const hint = declared ? scalarOf(declared) : undefined;
    let v = this.expr(node.value, hint);
    if (v.kind === 'abstract-int') v = this.expr(node.value, hint ?? 'i32');
    if (declared && !sameType(declared, v))
      this.fail(
        node.name,
        node,
        `${node.name} is declared ${wgslName(declared)} but its value is ${wgslName(v)}`,
      );
    return v;
  }

  // ---------------------------------------------------------------- statements

  block(statements: AstNode[] | null, scoped = true): void {
    if (scoped) this.scopes.push(new Map());
    for (const s of statements ?? []) this.statement(s);
    if (scoped) this.scopes.pop();
  }

  statement(s: AstNode): void {
    if (!s) return;
    if (Array.isArray(s)) return this.block(s); // a bare { … } block: a scope of its own
    switch (s.astNodeType) {
      case 'let':
      case 'var':
      case 'const': {
        if (
          s.astNodeType === 'let' &&
          s.value?.astNodeType === 'unaryOp' &&
          s.value.operator === '&'
        )
          return this.letPointer(s);
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
        const t = s.value ? this.initializer(s, declared) : declared;
        this.types.set(s, t as WType);
        const own = s.astNodeType !== 'var' && s.value ? this.isOwnIndex(s.value) : false;
        const ownTexel = s.astNodeType !== 'var' && s.value ? this.isOwnTexel(s.value) : false;
        this.declare(s.name, { type: t as WType, kind: s.astNodeType, own, ownTexel }, s);
        return;
      }
      case 'assign': {
        const target = this.lvalue(s.variable, s);
        const t = this.expr(s.value, scalarOf(target));
        if (s.operator === '=') {
          if (!sameType(target, t))
            this.fail('=', s, `cannot assign ${wgslName(t)} to ${wgslName(target)}`, '=');
        } else if (!isNumeric(target) && target.kind !== 'mat')
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
        this.scopes.push(new Map());
        if (s.init) this.statement(s.init);
        if (s.condition) this.condition(s.condition, s);
        this.loops++;
        if (s.increment) this.statement(s.increment);
        this.block(s.body);
        this.loops--;
        this.scopes.pop();
        return;
      case 'while':
        this.condition(s.condition, s);
        this.loops++;
        this.block(s.body);
        this.loops--;
        return;
      case 'loop':
        this.scopes.push(new Map());
        this.loops++;
        this.block(
          (s.body as AstNode[]).filter((b) => b.astNodeType !== 'continuing'),
          false,
        );
        if (s.continuing) this.block(s.continuing.body);
        this.loops--;
        this.scopes.pop();
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
          if (this.returnType.kind !== 'void') this.fail('return', s, 'return needs a value');
          return;
        }
        if (!s.value) return;
        const t = this.expr(s.value, scalarOf(this.returnType));
        if (!sameType(t, this.returnType))
          this.fail(
            'return',
            s,
            `returns ${wgslName(t)} from a function declared ${wgslName(this.returnType)}`,
          );
        return;
      }
      case 'discard':
        return this.fail('discard', s, 'discard is not allowed in a compute shader');
      default:
        return this.fail(s.astNodeType, s, `the statement ${s.astNodeType} is not portable`);
    }
  }

  /**
   * `let p = &place;`: a pointer held in a let, to a function-scope `var`, a `var<private>`, a
   * `var<workgroup>` or an element of a storage array (or a struct member or array element in one).
   * The CPU path only: JavaScript holds the place as an object whose `v` is it (GLSL has no
   * references).
   */
  letPointer(s: AstNode): void {
    const place = s.value.right;
    const sym = place?.astNodeType === 'varExpr' ? this.lookup(place.name) : undefined;
    const b = sym?.binding;
    const space =
      sym?.kind === 'var'
        ? 'function'
        : sym?.kind === 'private' || sym?.kind === 'workgroup'
          ? sym.kind
          : b?.space === 'storage' && !b.single && !place.header
            ? 'storage'
            : undefined;
    if (!space)
      this.fail(
        '&',
        s,
        `let ${s.name} = &…: a let holds a pointer to a function-scope var, a var<private>, a var<workgroup> or an element of a storage array${place?.name ? ` (${place.name} is none of them)` : ''}`,
        '&',
      );
    this.limit('&', s, `let ${s.name} = &…: a pointer held in a let is not portable`, '&');
    const root = space === 'storage' ? (b?.type as WType) : (sym?.type as WType);
    this.addressSteps(root, place, (what) =>
      this.fail('&', s, `let ${s.name} = &…: WGSL takes no address of a ${what}`, '&'),
    );
    // through the pointer the place may be written: a write site of its storage array
    const target = this.target;
    this.target = place;
    let type: WType;
    try {
      type = this.expr(place, undefined, s);
    } finally {
      this.target = target;
    }
    this.types.set(s.value, type);
    this.types.set(s, type);
    const readOnly = space === 'storage' && b?.access === 'read';
    this.declare(s.name, { type, kind: 'pointer', space, ...(readOnly ? { readOnly } : {}) }, s);
  }

  condition(e: AstNode, at: AstNode): void {
    if (!e) this.fail('condition', at, 'expected a condition');
    const t = this.expr(e, undefined);
    if (t.kind !== 'scalar' || t.scalar !== 'bool')
      this.fail('condition', at, `a condition must be bool (got ${wgslName(t)})`);
  }

  /** The type of an assignable expression, checking storage writes. */
  lvalue(e: AstNode, at: AstNode): WType {
    const root = e?.astNodeType === 'unaryOp' && e.operator === '*' ? e.right : e;
    const pointer = root?.astNodeType === 'varExpr' ? this.lookup(root.name) : undefined;
    if (pointer?.kind === 'pointer' && pointer.readOnly)
      this.fail(
        root.name,
        at,
        `${root.name} points into read-only storage: nothing is written through it`,
      );
    // through a pointer parameter: `*p = …`, `(*p).x += …`, `p.x = …`
    if (e?.astNodeType === 'unaryOp' && e.operator === '*') return this.expr(e, undefined, at);
    if (e?.astNodeType !== 'varExpr')
      this.fail('assignment', at, 'expected a variable on the left of the assignment', '=');
    if (this.lookup(e.name)?.kind === 'pointer') return this.expr(e, undefined, at);
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
    this.target = e;
    try {
      return this.expr(e, undefined, at);
    } finally {
      this.target = null;
    }
  }
}
