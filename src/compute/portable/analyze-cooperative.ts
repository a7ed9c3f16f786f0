/**
 * The analyser's cooperative built-ins: the barriers and the atomics. The ping-pong path cannot
 * run them (a fragment pass has neither shared memory nor an order between its fragments), so
 * each is a `limit` (analyze-base.ts): the CPU path runs the kernel workgroup by workgroup, its
 * invocations taking turns between barriers (js.ts).
 */
import {
  BOOL,
  VOID,
  holdsAtomic,
  makeStruct,
  sameType,
  scalar,
  wgslName,
  type WType,
} from './types.js';
import type { AstNode } from './analysis-types.js';
import { ATOMICS, BARRIERS } from './analysis-types.js';
import { BuiltinAnalyzer } from './analyze-builtins.js';

/** The struct `atomicCompareExchangeWeak` returns (WGSL's `__atomic_compare_exchange_result_u32`). */
export function exchangeResult(s: 'u32' | 'i32'): WType {
  return makeStruct(`__atomic_compare_exchange_result_${s}`, [
    ['old_value', scalar(s)],
    ['exchanged', BOOL],
  ]);
}

export abstract class CooperativeAnalyzer extends BuiltinAnalyzer {
  /** Whether `name` is a barrier or an atomic built-in (this layer types it). */
  isCooperative(name: string): boolean {
    return BARRIERS.has(name) || name in ATOMICS;
  }

  cooperativeCall(name: string, e: AstNode, args: AstNode[]): WType {
    if (name === 'workgroupBarrier' || name === 'storageBarrier') {
      this.limit(name, e, `${name}(): barriers are not portable`, undefined, true);
      if (args.length) this.fail(name, e, `${name}() takes no arguments`);
      return VOID;
    }
    if (name === 'workgroupUniformLoad') {
      this.limit(name, e, `${name}(): barriers are not portable`, undefined, true);
      const place = this.addressOf(name, e, args, 1);
      if (this.lookup(place.name)?.kind !== 'workgroup')
        this.fail(name, e, `${name}(&v) reads a var<workgroup>`);
      const t = this.placeType(place, e, false);
      this.types.set(args[0], t);
      if (t.kind === 'atomic') return scalar(t.scalar);
      if (holdsAtomic(t))
        this.fail(name, e, `${name}(&v) of ${wgslName(t)}: WGSL loads no value holding atomics`);
      return t;
    }
    this.limit(name, e, `${name}(): atomics are not portable`, undefined, true);
    const values = ATOMICS[name] as number;
    const place = this.addressOf(name, e, args, values + 1);
    const sym = this.lookup(place.name);
    const storage =
      sym?.kind === 'binding' && sym.binding?.space === 'storage' && sym.binding.access !== 'read';
    if (sym?.kind !== 'workgroup' && !storage)
      this.fail(
        name,
        e,
        `${name}(&a, …) needs an atomic in a var<workgroup> or a read_write storage buffer (${place.name} is neither)`,
      );
    const t = this.placeType(place, e, true);
    if (t.kind !== 'atomic')
      return this.fail(
        name,
        e,
        `${name}(&a, …) needs an atomic<u32> or atomic<i32> (got ${wgslName(t)})`,
      );
    this.types.set(args[0], t);
    const s = scalar(t.scalar);
    for (const a of args.slice(1)) {
      let v = this.expr(a, t.scalar);
      if (v.kind === 'abstract-int') v = this.expr(a, t.scalar);
      if (!sameType(v, s))
        this.fail(
          name,
          e,
          `${name} on ${wgslName(t)} takes ${t.scalar} values (got ${wgslName(v)})`,
        );
    }
    if (name === 'atomicStore') return VOID;
    if (name === 'atomicCompareExchangeWeak') return exchangeResult(t.scalar);
    return s;
  }

  /**
   * The type at `place`, atomics allowed; when `write`, the place counts as written (a write site
   * of its storage array, as an assignment's target is).
   */
  private placeType(place: AstNode, e: AstNode, write: boolean): WType {
    const target = this.target;
    this.atomicPlace = true;
    if (write) this.target = place;
    try {
      return this.expr(place, undefined, e);
    } finally {
      this.atomicPlace = false;
      this.target = target;
    }
  }

  /** The place `&place` names in a built-in's first argument (a variable, maybe indexed). */
  private addressOf(name: string, e: AstNode, args: AstNode[], arity: number): AstNode {
    if (args.length !== arity)
      this.fail(
        name,
        e,
        `${name} takes ${arity} argument${arity > 1 ? 's' : ''}, got ${args.length}`,
      );
    const a = args[0];
    const place = a?.astNodeType === 'unaryOp' && a.operator === '&' ? a.right : undefined;
    if (place?.astNodeType !== 'varExpr')
      return this.fail(
        name,
        e,
        `${name}'s first argument is the address of a variable: &v, &a[i], &s.m`,
      );
    return place;
  }
}
