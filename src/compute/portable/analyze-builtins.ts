/**
 * The analyser's integer-bit, packing and remaining numeric built-ins (WGSL §17.5–17.6, §17.10):
 * functions whose arguments are not simply "the same type, component-wise". Each returns its result
 * type or fails naming the call and what it was given.
 */
import { F32, I32, U32, makeStruct, sameType, scalarOf, vec, wgslName } from './types.js';
import type { Scalar, WType } from './types.js';
import type { AstNode } from './analysis-types.js';
import { ExpressionAnalyzer } from './analyze-expressions.js';

/** Integer built-ins of one argument whose result has the argument's type. */
export const BIT_BUILTINS = new Set([
  'countOneBits',
  'countLeadingZeros',
  'countTrailingZeros',
  'firstLeadingBit',
  'firstTrailingBit',
  'reverseBits',
]);

/** Packing built-ins: the argument types and the result. */
const V4F = vec(4, 'f32');
const V2F = vec(2, 'f32');
export const PACKING: Record<string, { readonly args: readonly WType[]; readonly result: WType }> =
  {
    pack4x8snorm: { args: [V4F], result: U32 },
    pack4x8unorm: { args: [V4F], result: U32 },
    pack2x16snorm: { args: [V2F], result: U32 },
    pack2x16unorm: { args: [V2F], result: U32 },
    pack2x16float: { args: [V2F], result: U32 },
    unpack4x8snorm: { args: [U32], result: V4F },
    unpack4x8unorm: { args: [U32], result: V4F },
    unpack2x16snorm: { args: [U32], result: V2F },
    unpack2x16unorm: { args: [U32], result: V2F },
    unpack2x16float: { args: [U32], result: V2F },
    pack4xI8: { args: [vec(4, 'i32')], result: U32 },
    pack4xU8: { args: [vec(4, 'u32')], result: U32 },
    pack4xI8Clamp: { args: [vec(4, 'i32')], result: U32 },
    pack4xU8Clamp: { args: [vec(4, 'u32')], result: U32 },
    unpack4xI8: { args: [U32], result: vec(4, 'i32') },
    unpack4xU8: { args: [U32], result: vec(4, 'u32') },
    dot4U8Packed: { args: [U32, U32], result: U32 },
    dot4I8Packed: { args: [U32, U32], result: I32 },
  };

/** Float built-ins whose arguments differ in shape (refract's ratio, ldexp's exponent) or whose result is a struct. */
export const OTHER_FLOAT = new Set([
  'refract',
  'faceForward',
  'ldexp',
  'modf',
  'frexp',
  'quantizeToF16',
]);

export const MORE_BUILTINS = new Set([
  ...BIT_BUILTINS,
  'extractBits',
  'insertBits',
  ...Object.keys(PACKING),
  ...OTHER_FLOAT,
]);

/**
 * The struct `modf` or `frexp` returns for an f32 scalar or vector (WGSL names it
 * `__modf_result_f32`, `__frexp_result_vec3_f32`…; a shader cannot spell it, only use its members).
 */
export function resultStruct(fn: 'modf' | 'frexp', t: WType): WType {
  const shape = t.kind === 'vec' ? `vec${t.n}_f32` : 'f32';
  const second: WType = fn === 'modf' ? t : t.kind === 'vec' ? vec(t.n, 'i32') : I32;
  return makeStruct(`__${fn}_result_${shape}`, [
    ['fract', t],
    [fn === 'modf' ? 'whole' : 'exp', second],
  ]);
}

export abstract class BuiltinAnalyzer extends ExpressionAnalyzer {
  /** An argument typed with `s` for its abstract literals. */
  private arg(a: AstNode, s: Scalar): WType {
    const t = this.expr(a, undefined);
    return t.kind === 'abstract-int' ? this.expr(a, s) : t;
  }

  /** The result of one of MORE_BUILTINS (the caller checked the name). */
  moreBuiltin(name: string, e: AstNode, args: AstNode[], hint: Scalar | undefined): WType {
    const got = (types: WType[]): string => types.map(wgslName).join(', ') || 'nothing';
    const arity = (n: number, spelled: string): void => {
      if (args.length !== n)
        this.fail(name, e, `${spelled} takes ${n} arguments, got ${args.length}`);
    };
    const integer = (t: WType): boolean =>
      (t.kind === 'scalar' || t.kind === 'vec') && (t.scalar === 'i32' || t.scalar === 'u32');
    const float = (t: WType): boolean =>
      (t.kind === 'scalar' || t.kind === 'vec') && t.scalar === 'f32';
    const intHint: Scalar = hint === 'u32' ? 'u32' : 'i32';

    if (BIT_BUILTINS.has(name) || name === 'extractBits' || name === 'insertBits') {
      const spelled =
        name === 'extractBits'
          ? 'extractBits(e, offset, count)'
          : name === 'insertBits'
            ? 'insertBits(e, newbits, offset, count)'
            : `${name}(e)`;
      arity(name === 'extractBits' ? 3 : name === 'insertBits' ? 4 : 1, spelled);
      const values = name === 'insertBits' ? 2 : 1;
      const t = this.arg(args[0], intHint);
      const types = [t];
      if (values === 2) types.push(this.arg(args[1], scalarOf(t) === 'u32' ? 'u32' : 'i32'));
      for (const a of args.slice(values)) types.push(this.arg(a, 'u32'));
      const ok =
        integer(t) &&
        (values === 1 || sameType(t, types[1] as WType)) &&
        types.slice(values).every((x) => sameType(x, U32));
      if (!ok)
        this.fail(
          name,
          e,
          `${spelled} takes ${values === 2 ? 'two values of one integer type (i32, u32 or a vector of them)' : 'an integer value (i32, u32 or a vector of them)'}${args.length > values ? ' and u32 offset and count' : ''} (got ${got(types)})`,
        );
      return t;
    }

    const packing = PACKING[name];
    if (packing) {
      arity(packing.args.length, `${name}()`);
      const types = args.map((a, i) => this.arg(a, scalarOf(packing.args[i] as WType) as Scalar));
      if (!types.every((t, i) => sameType(t, packing.args[i] as WType)))
        this.fail(name, e, `${name}() takes ${got([...packing.args])} (got ${got(types)})`);
      return packing.result;
    }

    // refract, faceForward, ldexp, modf, frexp, quantizeToF16
    if (name === 'ldexp') {
      arity(2, 'ldexp(e1, e2)');
      const t = this.arg(args[0], 'f32');
      const p = this.arg(args[1], 'i32');
      const shape = t.kind === 'vec' ? vec(t.n, 'i32') : I32;
      if (!float(t) || !sameType(p, shape))
        this.fail(
          name,
          e,
          `ldexp(e1, e2) takes an f32 value and an i32 exponent of its shape (got ${got([t, p])})`,
        );
      return t;
    }
    if (name === 'refract' || name === 'faceForward') {
      arity(3, `${name}(e1, e2, e3)`);
      const types = args.map((a) => this.arg(a, 'f32'));
      const [v, n, third] = types as [WType, WType, WType];
      const ok =
        v.kind === 'vec' &&
        v.scalar === 'f32' &&
        sameType(v, n) &&
        sameType(third, name === 'refract' ? F32 : v);
      if (!ok)
        this.fail(
          name,
          e,
          `${name}(e1, e2, e3) takes ${name === 'refract' ? 'two f32 vectors of one size and an f32 ratio' : 'three f32 vectors of one size'} (got ${got(types)})`,
        );
      return v;
    }
    arity(1, `${name}(e)`);
    const t = this.arg(args[0], 'f32');
    if (!float(t)) this.fail(name, e, `${name}(e) takes f32 or a vector of f32 (got ${got([t])})`);
    return name === 'modf' || name === 'frexp' ? resultStruct(name, t) : t;
  }
}
