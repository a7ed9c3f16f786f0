/** The analyser's calls: built-in and user functions, constructors (with inferred types), texture reads. */
import {
  BOOL,
  F32,
  I32,
  U32,
  VOID,
  makeArray,
  mat,
  sameType,
  scalar,
  scalarOf,
  vec,
  wgslName,
  type Scalar,
  type WType,
} from './types.js';
import type { AstNode, Binding, PortableFunction } from './analysis-types.js';
import { BUILTIN_TYPES, FLOAT_ONLY, PORTABLE_BUILTINS, REJECTED_CALLS } from './analysis-types.js';
import { MORE_BUILTINS } from './analyze-builtins.js';
import { CooperativeAnalyzer } from './analyze-cooperative.js';
export abstract class CallAnalyzer extends CooperativeAnalyzer {
  /**
   * `textureLoad(t, coords, level)` → vec4f, `textureStore(s, coords, value)` of a storage texture
   * and `textureDimensions(t[, level])` → vec2u.
   */
  textureCall(e: AstNode, args: AstNode[]): WType {
    const name: string = e.name;
    const t = args[0];
    const sym = t?.astNodeType === 'varExpr' && !t.postfix ? this.lookup(t.name) : undefined;
    const space = sym?.binding?.space;
    if (space !== 'texture' && space !== 'storage-texture')
      this.fail(
        name,
        e,
        `${name}(t, …) needs a texture_2d<f32> or texture_storage_2d binding as its first argument`,
      );
    if (space === 'storage-texture' ? name === 'textureLoad' : name === 'textureStore')
      this.fail(
        name,
        e,
        space === 'storage-texture'
          ? `textureLoad(${String(t.name)}, …): a write-only storage texture cannot be read`
          : `textureStore(${String(t.name)}, …) needs a texture_storage_2d<format, write>; ${String(t.name)} is a texture_2d<f32>`,
      );
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
    if (name === 'textureStore') {
      if (args.length !== 3)
        this.fail(
          name,
          e,
          'textureStore(t, coords, value) takes three arguments for a texture_storage_2d',
        );
      integer(args[1], 'coordinates', 2);
      if (!this.isOwnTexel(args[1]))
        this.limit(
          name,
          e,
          `${name}(${String(t.name)}, …) at coordinates other than the invocation's own (global_invocation_id.xy) is not portable`,
        );
      const v = this.expr(args[2], 'f32');
      if (!(v.kind === 'vec' && v.n === 4 && scalarOf(v) === 'f32'))
        this.fail(
          name,
          e,
          `textureStore's value must be vec4<f32> for ${sym?.binding?.format ?? 'a float format'} (got ${wgslName(v)})`,
        );
      return VOID;
    }
    if (space === 'storage-texture' && args.length !== 1)
      this.fail(name, e, 'textureDimensions(t) of a storage texture takes one argument');
    if (args.length > 2)
      this.fail(name, e, 'textureDimensions(t[, level]) takes one or two arguments');
    if (args[1]) integer(args[1], 'level', 0);
    return vec(2, 'u32');
  }

  /**
   * `textureSampleLevel(t, s, coords, level)` of a `texture_2d<f32>` with a `sampler` → vec4f.
   * The ping-pong samples a texture with one sampler (GLSL's texture units pair them): a texture
   * sampled with two is a limit.
   */
  sampleCall(e: AstNode, args: AstNode[]): WType {
    const name = 'textureSampleLevel';
    const [t, s] = args;
    const binding = (a: AstNode): Binding | undefined =>
      a?.astNodeType === 'varExpr' && !a.postfix ? this.lookup(a.name)?.binding : undefined;
    const texture = binding(t);
    const sampler = binding(s);
    if (texture?.space !== 'texture' || sampler?.space !== 'sampler')
      this.fail(
        name,
        e,
        `${name}(t, s, coords, level) needs a texture_2d<f32> binding and a sampler binding as its first two arguments`,
      );
    if (args.length !== 4)
      this.fail(
        name,
        e,
        `${name}(t, s, coords, level) takes four arguments here (an offset is not portable)`,
      );
    for (const b of [texture, sampler]) {
      this.usedBindings.add(b.name);
      this.refs.set(b === texture ? t : s, 'binding');
    }
    const coords = this.expr(args[2], 'f32');
    if (!(coords.kind === 'vec' && coords.n === 2 && scalarOf(coords) === 'f32'))
      this.fail(name, e, `${name}'s coordinates must be vec2<f32> (got ${wgslName(coords)})`);
    const level = this.expr(args[3], 'f32');
    if (!(level.kind === 'scalar' && level.scalar === 'f32'))
      this.fail(name, e, `${name}'s level must be f32 (got ${wgslName(level)})`);
    const paired = this.samplerOf.get(texture.name);
    if (paired !== undefined && paired !== sampler.name)
      this.limit(
        name,
        e,
        `${name}: texture ${texture.name} sampled with two samplers (${paired}, ${sampler.name}) is not portable`,
      );
    else this.samplerOf.set(texture.name, sampler.name);
    return vec(4, 'f32');
  }

  /**
   * An argument of pointer parameter `p`: `&v` of a variable of `p`'s address space (a local `var`
   * for `ptr<function, T>`, a module-scope `var<private>` for `ptr<private, T>`) or of a struct
   * member or array element inside it (`&s.n`, `&a[i]`, `&(*q).n`), or a pointer parameter of the
   * caller passed on. Two pointers into one variable in a call are refused (WGSL forbids the alias
   * where either is written; the check here does not look at the writes).
   */
  pointerArgument(
    fn: string,
    at: AstNode,
    a: AstNode,
    p: PortableFunction['params'][number],
    passed: Set<string>,
  ): void {
    const spelled = `ptr<${p.pointer}, ${wgslName(p.type)}>`;
    const address = a?.astNodeType === 'unaryOp' && a.operator === '&';
    const place = address ? a.right : a;
    // the variable the place is in: `v…`, or `(*q)…` through a pointer parameter
    const root =
      place?.astNodeType === 'varExpr'
        ? place
        : place?.astNodeType === 'unaryOp' && place.operator === '*' && address
          ? place.right
          : undefined;
    const sym =
      root?.astNodeType === 'varExpr' && (root === place || !root.postfix)
        ? this.lookup(root.name)
        : undefined;
    const variable = p.pointer === 'function' ? 'var' : 'private';
    const ok =
      sym &&
      (sym.kind === 'pointer'
        ? sym.space === p.pointer && (address ? place !== root || !!place.postfix : !place.postfix)
        : address && sym.kind === variable);
    if (!ok)
      this.fail(
        fn,
        at,
        `argument ${p.name} of ${fn} is a ${spelled}: pass &v of a ${p.pointer === 'function' ? 'function-scope var' : 'var<private>'} (or of a struct member or array element in one), or a pointer parameter of the caller`,
      );
    this.addressSteps(sym.type, place, (what) =>
      this.fail(fn, at, `argument ${p.name} of ${fn}: WGSL takes no address of a ${what}`),
    );
    if (passed.has(root.name))
      this.fail(
        fn,
        at,
        `${root.name} is passed to ${fn} twice by pointer: WGSL forbids the alias where either is written`,
      );
    passed.add(root.name);
    this.pointerUse = root;
    let type: WType;
    try {
      type = this.expr(place, undefined, at);
    } finally {
      this.pointerUse = null;
    }
    if (!sameType(type, p.type))
      this.fail(
        fn,
        at,
        `argument ${p.name} of ${fn} is a ${spelled}, got a pointer to ${wgslName(type)}`,
      );
    this.types.set(a, type);
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
    // `mat2x2(c, s, -s, c)`: a matrix's element type left to inference is f32 (WGSL's only
    // portable one)
    const inferredMatrix = /^mat([234])x([234])$/.exec(e.type?.name ?? '');
    const t =
      (inferredMatrix && !e.type.format && args.length
        ? mat(Number(inferredMatrix[1]) as 2 | 3 | 4, Number(inferredMatrix[2]) as 2 | 3 | 4)
        : null) ??
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
    if (t.kind === 'mat') {
      // WGSL's forms: no value (zero), a matrix of the shape, its columns, or its values by column
      const column = vec(t.rows, 'f32');
      const given = args.map((a) => this.expr(a, 'f32'));
      const all = (u: WType): boolean => given.every((v) => sameType(v, u));
      if (
        args.length > 0 &&
        !(args.length === 1 && all(t)) &&
        !(args.length === t.cols && all(column)) &&
        !(args.length === t.cols * t.rows && all(F32))
      )
        this.fail(
          wgslName(t),
          at,
          `${wgslName(t)}(…) takes a ${wgslName(t)}, ${t.cols} columns of ${wgslName(column)} or ${t.cols * t.rows} f32 values (got ${given.map(wgslName).join(', ')})`,
        );
      return t;
    }
    return this.fail(wgslName(t), at, `cannot construct ${wgslName(t)}`);
  }

  call(e: AstNode, hint: Scalar | undefined): WType {
    const name: string = e.name;
    const args: AstNode[] = e.args ?? [];
    const rejected = REJECTED_CALLS[name];
    if (rejected) this.fail(name, e, `${name}(): ${rejected} are not portable`);
    if (this.isCooperative(name)) return this.cooperativeCall(name, e, args);
    if (name.startsWith('atomic'))
      this.fail(name, e, `${name}() is not an atomic built-in of WGSL`);
    if (name === 'textureLoad' || name === 'textureDimensions' || name === 'textureStore')
      return this.textureCall(e, args);
    if (name === 'textureSampleLevel') return this.sampleCall(e, args);
    if (name.startsWith('textureSample'))
      this.fail(
        name,
        e,
        `${name}(): not portable; sample with textureSampleLevel(t, s, coords, level) (a compute shader has no derivatives) or read texels with textureLoad`,
      );
    if (name.startsWith('texture'))
      this.fail(
        name,
        e,
        `${name}(): not portable (textureLoad, textureStore and textureDimensions are)`,
      );
    // a struct or type constructor spelled as a call
    const asType = BUILTIN_TYPES[name] ?? this.structs.get(name);
    if (asType) return this.construct({ ...e, type: { name, astNodeType: 'type' } }, e);
    const f = this.functions.get(name);
    if (f) {
      if (args.length !== f.params.length)
        this.fail(name, e, `${name} takes ${f.params.length} arguments, got ${args.length}`);
      const passed = new Set<string>();
      args.forEach((a, i) => {
        const p = f.params[i] as PortableFunction['params'][number];
        if (p.pointer) return this.pointerArgument(name, e, a, p, passed);
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
    if (MORE_BUILTINS.has(name)) return this.moreBuiltin(name, e, args, hint);
    if (!PORTABLE_BUILTINS.has(name))
      this.fail(name, e, `${name}() is not a portable built-in (see docs/compute.md for the list)`);
    if (name === 'transpose' || name === 'determinant') {
      const m = args.length === 1 ? this.expr(args[0], 'f32') : undefined;
      if (m?.kind !== 'mat') return this.fail(name, e, `${name}(m) takes one matrix`);
      if (name === 'transpose') return mat(m.rows, m.cols);
      if (m.cols !== m.rows)
        this.fail(name, e, `determinant() of a square matrix (got ${wgslName(m)})`);
      return F32;
    }
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
    if (types.some((t) => t.kind === 'mat'))
      this.fail(
        name,
        e,
        `${name}() of ${types.map(wgslName).join(', ')}: WGSL takes no matrix there`,
      );
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
