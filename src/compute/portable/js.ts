/**
 * Portable kernel → JavaScript, for the CPU path. The result is the body of a factory taking the
 * run-time library (runtime.ts) and returning `run(ctx)`, which runs every invocation of the grid
 * in order (x fastest). Writable arrays are in the scatter form: an invocation keeps each element
 * it writes (loaded from the arrays as they were before the dispatch), and stores them when it
 * ends; reads see its own writes, else the contents before the dispatch — what the ping-pong path
 * computes. u32 hashes give the GPU's bits; f32 rounds as the GPU does for + − × ÷.
 */
import type { AstNode, Binding, PortableModule } from './analyze.js';
import { Emitter, scalarName } from './emit.js';
import { columnStride, indexBound, scalar, type Scalar, type WType } from './types.js';
import { ATOMICS, BARRIERS, calleesOf } from './analysis-types.js';
import type { DecodedTexture, SamplerState, StorageImage } from './texels.js';

const F = (n: string): string => (n.startsWith('_') ? `vu${n}` : `v_${n}`);
const VIEW: Record<Scalar, string> = { f32: 'F', u32: 'U', i32: 'I', bool: 'U' };
const COMPONENT: Record<string, number> = { x: 0, y: 1, z: 2, w: 3, r: 0, g: 1, b: 2, a: 3 };

/** What `run` receives: per storage binding its words and element count, per uniform its words. */
export interface JsRunContext {
  /** Invocations in x, y and z: whole workgroups, as WebGPU launches them. */
  invocations: readonly [number, number, number];
  storage: Record<string, { F: Float32Array; U: Uint32Array; I: Int32Array; length: number }>;
  /** Sampled textures, decoded (texels.ts). */
  textures?: Record<string, DecodedTexture>;
  /** Storage textures, as copies of their bytes the kernel's `textureStore` writes (texels.ts). */
  images?: Record<string, StorageImage>;
  /** Samplers' filtering and addressing (texels.ts). */
  samplers?: Record<string, SamplerState>;
  uniforms: Record<string, { F: Float32Array; U: Uint32Array; I: Int32Array }>;
}

function zero(t: WType): string {
  switch (t.kind) {
    case 'scalar':
      return t.scalar === 'bool' ? 'false' : '0';
    case 'vec':
      return `[${Array(t.n)
        .fill(t.scalar === 'bool' ? 'false' : '0')
        .join(', ')}]`;
    case 'mat':
      return `[${Array(t.cols)
        .fill(zero({ kind: 'vec', n: t.rows, scalar: 'f32' }))
        .join(', ')}]`;
    case 'struct':
      return `{ ${t.members.map((m) => `${m.name}: ${zero(m.type)}`).join(', ')} }`;
    case 'array':
      return `[${Array.from({ length: t.count }, () => zero(t.element)).join(', ')}]`;
    default:
      return '0';
  }
}

/** A JS expression reading a value of type `t` from views `v` at word `base + offset/4`. */
function load(t: WType, v: string, base: string, offset: number): string {
  if (t.kind === 'atomic') return load(scalar(t.scalar), v, base, offset);
  switch (t.kind) {
    case 'scalar':
      return `${v}${VIEW[t.scalar]}[${base} + ${offset / 4}]`;
    case 'vec':
      return `[${Array.from({ length: t.n }, (_, i) => `${v}${VIEW[t.scalar]}[${base} + ${offset / 4 + i}]`).join(', ')}]`;
    case 'mat':
      return `[${Array.from({ length: t.cols }, (_, c) => load({ kind: 'vec', n: t.rows, scalar: 'f32' }, v, base, offset + c * columnStride(t.rows))).join(', ')}]`;
    case 'struct':
      return `{ ${t.members.map((m) => `${m.name}: ${load(m.type, v, base, offset + m.offset)}`).join(', ')} }`;
    case 'array':
      return `[${Array.from({ length: t.count }, (_, i) => load(t.element, v, base, offset + i * t.stride)).join(', ')}]`;
    default:
      return '0';
  }
}

/** Statements writing value `r` of type `t` into views `v` at word `base + offset/4`. */
function store(t: WType, v: string, base: string, offset: number, r: string): string[] {
  if (t.kind === 'atomic') return store(scalar(t.scalar), v, base, offset, r);
  switch (t.kind) {
    case 'scalar':
      return [`${v}${VIEW[t.scalar]}[${base} + ${offset / 4}] = ${r};`];
    case 'vec':
      return Array.from(
        { length: t.n },
        (_, i) => `${v}${VIEW[t.scalar]}[${base} + ${offset / 4 + i}] = ${r}[${i}];`,
      );
    case 'mat':
      return Array.from({ length: t.cols }, (_, c) =>
        store(
          { kind: 'vec', n: t.rows, scalar: 'f32' },
          v,
          base,
          offset + c * columnStride(t.rows),
          `${r}[${c}]`,
        ),
      ).flat();
    case 'struct':
      return t.members.flatMap((m) => store(m.type, v, base, offset + m.offset, `${r}.${m.name}`));
    case 'array':
      return Array.from({ length: t.count }, (_, i) =>
        store(t.element, v, base, offset + i * t.stride, `${r}[${i}]`),
      ).flat();
    default:
      return [];
  }
}

const composite = (t: WType): boolean =>
  t.kind === 'vec' || t.kind === 'mat' || t.kind === 'struct' || t.kind === 'array';

class JsEmitter extends Emitter {
  /**
   * Functions that reach a barrier: generators, whose invocation yields at each barrier so that
   * the others of its workgroup catch up (the entry point's name when it does).
   */
  yields: ReadonlySet<string> = new Set();

  declare(kind: 'let' | 'var' | 'const', name: string, type: WType, value: string | null): string {
    const n = name.startsWith('_') ? name : F(name);
    return `${kind === 'var' ? 'let' : 'const'} ${n} = ${value ?? zero(type)};`;
  }

  /** Composite values have value semantics in WGSL: a stored copy of a variable is a copy. */
  stored(e: AstNode): string {
    const code = this.expr(e);
    const t = this.typeOf(e);
    // a read-only storage element is loaded fresh: nothing else holds it
    const fresh = this.m.storageAccess.get(e)?.binding.access === 'read';
    // a module-scope constant is one array for every invocation: a variable gets its own copy
    const named =
      e.astNodeType === 'varExpr' ||
      (e.astNodeType === 'unaryOp' && e.operator === '*') ||
      (e.astNodeType === 'constExpr' && this.m.refs.get(e) === 'const');
    return composite(t) && named && !fresh ? `$.clone(${code})` : code;
  }

  assign(target: string, targetType: WType, op: string, value: string, valueType: WType): string {
    if (op === '=') return `${target} = ${value};`;
    return `${target} = ${this.binary(op.slice(0, -1), target, targetType, value, valueType)};`;
  }

  literal(value: number, type: WType): string {
    const s = scalarName(type);
    if (s === 'bool') return value ? 'true' : 'false';
    if (s === 'u32') return String(value >>> 0);
    if (s === 'i32') return String(value | 0);
    if (Number.isNaN(value)) return 'NaN';
    return Number.isFinite(value) ? `${value}` : value > 0 ? 'Infinity' : '-Infinity';
  }

  construct(type: WType, args: AstNode[]): string {
    if (args.length === 0) return zero(type);
    const a = args.map((x) => this.stored(x));
    switch (type.kind) {
      case 'scalar':
        return this.convert(type.scalar, a[0] as string, this.typeOf(args[0]));
      case 'vec': {
        if (args.length === 1) {
          const from = this.typeOf(args[0]);
          if (from.kind === 'vec') {
            const c = this.convert(type.scalar, 'x', { kind: 'scalar', scalar: from.scalar });
            return c === 'x' ? `$.clone(${a[0]})` : `$.map(${a[0]}, (x) => ${c})`;
          }
          return `Array(${type.n}).fill(${this.convert(type.scalar, a[0] as string, from)})`;
        }
        const parts = args.map((x, i) => {
          const t = this.typeOf(x);
          return t.kind === 'vec' ? `...${a[i]}` : (a[i] as string);
        });
        return `[${parts.join(', ')}]`;
      }
      case 'mat': {
        // a matrix (already a copy), its columns, or its values column by column
        if (args.length === 1) return a[0] as string;
        if (args.length === type.cols) return `[${a.join(', ')}]`;
        const columns = Array.from({ length: type.cols }, (_, c) =>
          a.slice(c * type.rows, (c + 1) * type.rows).join(', '),
        );
        return `[${columns.map((c) => `[${c}]`).join(', ')}]`;
      }
      case 'struct':
        return `{ ${type.members.map((m, i) => `${m.name}: ${a[i]}`).join(', ')} }`;
      case 'array':
        return `[${a.join(', ')}]`;
      default:
        return 'undefined';
    }
  }

  convert(to: Scalar, code: string, from: WType): string {
    const f = scalarName(from);
    if (f === to) return code;
    if (to === 'f32') return f === 'bool' ? `(${code} ? 1 : 0)` : `$.fr(${code})`;
    if (to === 'bool') return `(${code} !== 0)`;
    if (f === 'bool') return `(${code} ? 1 : 0)`;
    if (f === 'f32') return to === 'u32' ? `$.f2u(${code})` : `$.f2i(${code})`;
    return to === 'u32' ? `(${code} >>> 0)` : `(${code} | 0)`;
  }

  call(name: string, args: AstNode[]): string {
    if (name === 'textureLoad')
      return `$.tload($t_${args[0].name}, ${this.expr(args[1])}, ${this.expr(args[2])})`;
    if (name === 'textureSampleLevel')
      return `$.tsample($t_${args[0].name}, $s_${args[1].name}, ${this.expr(args[2])}, ${this.expr(args[3])})`;
    if (name === 'textureStore')
      return `$.tstore($t_${args[0].name}, ${this.expr(args[1])}, ${this.expr(args[2])})`;
    if (name === 'textureDimensions')
      return `[$t_${args[0].name}.width, $t_${args[0].name}.height]`;
    if (BARRIERS.has(name)) {
      // the invocation's writes reach memory, then the others of its workgroup run to here
      const wait = '$flush(), yield';
      if (name !== 'workgroupUniformLoad') return `(${wait})`;
      const v = this.expr(args[0].right);
      return `(${wait}, ${composite(this.typeOf(args[0])) ? `$.clone(${v})` : v})`;
    }
    if (name in ATOMICS) return this.atomic(name, args);
    const fn = this.m.functions.find((f) => f.name === name);
    if (fn) {
      const call = `${F(name)}(${args.map((x) => this.expr(x)).join(', ')})`;
      return this.yields.has(name) ? `(yield* ${call})` : call;
    }
    if (name === 'arrayLength') return `$len_${args[0].right.name}`;
    const a = args.map((x) => this.expr(x));
    switch (name) {
      case 'select':
        return `$.sel(${a.join(', ')})`;
      case 'any':
      case 'all':
        return `$.${name}(${a[0]})`;
      default:
        // the built-in's table is the argument's scalar type (the result's may differ: length)
        return `$.B.${scalarName(this.typeOf(args[0]))}.${name}(${a.join(', ')})`;
    }
  }

  /**
   * An atomic built-in on its place (a workgroup variable's element, or a storage element the
   * invocation holds until its next barrier): invocations take turns, so a read-modify-write of
   * the place is atomic.
   */
  atomic(name: string, args: AstNode[]): string {
    const t = this.typeOf(args[0]) as { scalar: 'u32' | 'i32' };
    const place = this.targetOf(args[0].right);
    const v = args.slice(1).map((a) => this.expr(a));
    switch (name) {
      case 'atomicLoad':
        return place;
      case 'atomicStore':
        return `(${place} = ${v[0]})`;
      case 'atomicCompareExchangeWeak':
        return `((o, c, w) => (o === c ? ((${place} = w), { old_value: o, exchanged: true }) : { old_value: o, exchanged: false }))(${place}, ${v[0]}, ${v[1]})`;
      default:
        return `((o, x) => ((${place} = $.AT.${t.scalar}.${name.slice(6).toLowerCase()}(o, x)), o))(${place}, ${v[0]})`;
    }
  }

  bitcast(to: WType, value: AstNode): string {
    const f = scalarName(this.typeOf(value));
    const t = scalarName(to);
    const code = this.expr(value);
    if (f === t) return code;
    const one = (x: string): string => {
      if (f === 'f32') return t === 'u32' ? `$.fbits(${x})` : `$.fibits(${x})`;
      if (t === 'f32') return f === 'u32' ? `$.ufloat(${x})` : `$.ifloat(${x})`;
      return t === 'u32' ? `(${x} >>> 0)` : `(${x} | 0)`;
    };
    return to.kind === 'vec' ? `$.map(${code}, (x) => ${one('x')})` : one(code);
  }

  unary(op: string, value: string, type: WType): string {
    const s = scalarName(type);
    const scalarOp = (x: string): string =>
      op === '!'
        ? `(!${x})`
        : op === '~'
          ? s === 'u32'
            ? `((~${x}) >>> 0)`
            : `(~${x})`
          : s === 'i32'
            ? `((-${x}) | 0)`
            : `(-${x})`;
    if (type.kind === 'mat') return `$.M.each(${value}, 0, (x) => -x)`;
    return type.kind === 'vec' ? `$.map(${value}, (x) => ${scalarOp('x')})` : scalarOp(value);
  }

  binary(op: string, l: string, lt: WType, r: string, rt: WType): string {
    if (lt.kind === 'mat' || rt.kind === 'mat') {
      if (op === '*' && lt.kind === 'mat' && rt.kind === 'vec') return `$.M.mv(${l}, ${r})`;
      if (op === '*' && lt.kind === 'vec' && rt.kind === 'mat') return `$.M.vm(${l}, ${r})`;
      if (op === '*' && lt.kind === 'mat' && rt.kind === 'mat') return `$.M.mm(${l}, ${r})`;
      return `$.M.each(${l}, ${r}, $.OP.f32[${JSON.stringify(op)}])`; // + −, and × by a scalar
    }
    const s = scalarName(lt);
    const vec = lt.kind === 'vec' || rt.kind === 'vec';
    const cmp = ['<', '<=', '>', '>=', '==', '!='].includes(op);
    if (vec) {
      const table = cmp ? '$.OP.cmp' : `$.OP.${s}`;
      return `$.bin(${l}, ${r}, ${table}[${JSON.stringify(op)}])`;
    }
    if (cmp) return `(${l} ${op === '==' ? '===' : op === '!=' ? '!==' : op} ${r})`;
    if (op === '&&' || op === '||') return `(${l} ${op} ${r})`;
    if (s === 'f32') {
      if (op === '%') return `$.OP.f32['%'](${l}, ${r})`;
      return `$.fr(${l} ${op} ${r})`;
    }
    if (s === 'bool') return op === '^' ? `(${l} !== ${r})` : `(${l} ${op}${op} ${r})`;
    if (op === '*') return s === 'u32' ? `(Math.imul(${l}, ${r}) >>> 0)` : `Math.imul(${l}, ${r})`;
    if (op === '/' || op === '%') return `$.OP.${s}[${JSON.stringify(op)}](${l}, ${r})`;
    if (op === '<<') return s === 'u32' ? `((${l} << (${r} & 31)) >>> 0)` : `(${l} << (${r} & 31))`;
    if (op === '>>') return s === 'u32' ? `(${l} >>> (${r} & 31))` : `(${l} >> (${r} & 31))`;
    return s === 'u32' ? `((${l} ${op} ${r}) >>> 0)` : `((${l} ${op} ${r}) | 0)`;
  }

  /** A pointer parameter is an object whose `v` is the variable it points to. */
  pointee(pointer: string): string {
    return `${pointer}.v`;
  }

  address(v: AstNode): string {
    const access = this.m.storageAccess.get(v);
    if (access?.part === 'element') return this.storageAddress(access.binding, v);
    if (!v.postfix) {
      const place = this.expr(v);
      return `{ get v() { return ${place}; }, set v($v) { ${place} = $v; } }`;
    }
    // a member or element: its container and key evaluated once, as WGSL evaluates the pointer
    let holder = v;
    while (holder.postfix.postfix) holder = holder.postfix;
    const last = holder.postfix;
    const before = holder === v ? (this.m.baseTypes.get(v) ?? this.typeOf(v)) : this.typeOf(holder);
    holder.postfix = null;
    let container: string;
    try {
      container = this.expr(v);
    } finally {
      holder.postfix = last;
    }
    if (v.astNodeType === 'varExpr' && holder === v && this.m.refs.get(v) === 'pointer')
      container = this.pointee(container); // `&q.n` through a pointer parameter
    const key =
      last.astNodeType === 'stringExpr'
        ? JSON.stringify(last.value)
        : this.clamped(this.expr(last.index), indexBound(before));
    return `((o, k) => ({ get v() { return o[k]; }, set v($v) { o[k] = $v; } }))(${container}, ${key})`;
  }

  /**
   * `&a[i]…` of a storage array's element (a `let` pointer): its index and the keys of the steps
   * below it evaluated once; each access finds the element again — a writable one as the
   * invocation holds it until its next barrier (so every access through the pointer counts as a
   * write), a read-only one loaded fresh.
   */
  storageAddress(b: Binding, v: AstNode): string {
    const keys: string[] = [];
    const steps: string[] = [];
    let t = b.element as WType;
    for (let q = v.postfix.postfix; q; q = q.postfix) {
      if (q.astNodeType === 'stringExpr') steps.push(`.${q.value}`);
      else {
        steps.push(`[k${keys.length}]`);
        keys.push(this.clamped(this.expr(q.index), indexBound(t)));
      }
      t = this.typeOf(q);
    }
    const n = b.name;
    const chain = steps.join('');
    const params = ['i', ...keys.map((_, k) => `k${k}`)].join(', ');
    const args = [`${this.expr(v.postfix.index)} >>> 0`, ...keys].join(', ');
    const body =
      b.access === 'read'
        ? `get v() { return $ld_${n}(i)${chain}; }, set v($v) {}`
        : `get v() { return $W_${n}[$w_${n}(i)]${chain}; }, set v($v) { $W_${n}[$w_${n}(i)]${chain} = $v; }`;
    return `((${params}) => ({ ${body} }))(${args})`;
  }

  member(base: string, baseType: WType, name: string): string {
    if (baseType.kind === 'struct') return `${base}.${name}`;
    if (name.length === 1) return `${base}[${COMPONENT[name]}]`;
    return `$.sw(${base}, [${[...name].map((c) => COMPONENT[c]).join(', ')}])`;
  }

  index(base: string, _baseType: WType, index: string): string {
    return `${base}[${index}]`;
  }

  clamped(index: string, n: number): string {
    return `Math.min(${index} >>> 0, ${n - 1})`;
  }

  loadElement(b: Binding, index: string): string {
    return `$ld_${b.name}(${index})`;
  }

  ownElement(b: Binding): string {
    return `$own_${b.name}`;
  }

  trackedElement(b: Binding, index: string, write: boolean): string {
    return write ? `$W_${b.name}[$w_${b.name}(${index})]` : `$r_${b.name}(${index})`;
  }

  /** Written header members are kept as an element is (`$H_b`), and stored with the elements. */
  override trackedHeader(b: Binding, write: boolean): string {
    return write ? `$h_${b.name}()` : `$rh_${b.name}()`;
  }

  loadHeader(b: Binding): string {
    return `$hd_${b.name}()`;
  }

  /** `let sum = sum * 2.0` in an inner block: the inner `sum` is `v_sum$1` (a new binding in JS). */
  override local(node: AstNode, name: string): string {
    const n = this.m.shadows.get(node);
    return n ? `${name}$${n}` : name;
  }

  arrayLength(b: Binding): string {
    return `$len_${b.name}`;
  }

  name(name: string): string {
    return F(name);
  }
}

/** JavaScript computing the entry point's built-ins from the invocation's number `$inv`. */
function builtinPrologue(m: PortableModule): string[] {
  const [wx, wy, wz] = m.workgroupSize;
  const out = [
    '  const $gid = [$inv % $dx, Math.floor($inv / $dx) % $dy, Math.floor($inv / ($dx * $dy))];',
  ];
  for (const p of m.builtins) {
    const v = {
      global_invocation_id: '$gid.slice()',
      local_invocation_id: `[$gid[0] % ${wx}, $gid[1] % ${wy}, $gid[2] % ${wz}]`,
      workgroup_id: `[Math.floor($gid[0] / ${wx}), Math.floor($gid[1] / ${wy}), Math.floor($gid[2] / ${wz})]`,
      num_workgroups: `[$dx / ${wx}, $dy / ${wy}, $dz / ${wz}]`,
      local_invocation_index: `$gid[0] % ${wx} + ($gid[1] % ${wy}) * ${wx} + ($gid[2] % ${wz}) * ${wx * wy}`,
    }[p.builtin];
    out.push(`  const ${F(p.name)} = ${v};`);
  }
  return out;
}

/**
 * `var<private>` values: module-scope variables that `$privates()` sets to their initial values
 * (fresh composites each time); every invocation calls it first (`start`), as each WGSL
 * invocation starts with its own copy.
 */
function privates(m: PortableModule, e: JsEmitter): string[] {
  if (!m.privates.length) return [];
  return [
    `let ${m.privates.map((p) => F(p.name)).join(', ')};`,
    `function $privates() {\n${m.privates.map((p) => `  ${F(p.name)} = ${p.value ? e.stored(p.value) : zero(p.type)};`).join('\n')}\n}`,
  ];
}

const start = (m: PortableModule): string => (m.privates.length ? '  $privates();\n' : '');

/** The user functions (and the entry point, by its name) that reach a barrier. */
function yieldingFunctions(m: PortableModule): Set<string> {
  const out = new Set<string>();
  const yields = (node: AstNode): boolean =>
    [...calleesOf(node)].some((n) => BARRIERS.has(n) || out.has(n));
  for (const f of m.functions) if (yields(f.node)) out.add(f.name); // callees come first
  if (yields(m.entry)) out.add(m.entryPoint);
  return out;
}

/**
 * A cooperative kernel's module values and helpers: its `var<workgroup>` values and `$workgroup()`
 * zeroing them, `$flush()` storing the elements the invocation wrote, and for generators with
 * `var<private>` values the save and load of one invocation's copies between its turns.
 */
function cooperativeParts(m: PortableModule, outputs: readonly Binding[]): string[] {
  const out: string[] = [];
  if (m.workgroups.length)
    out.push(
      `let ${m.workgroups.map((w) => F(w.name)).join(', ')};`,
      `function $workgroup() {\n${m.workgroups.map((w) => `  ${F(w.name)} = ${zero(w.type)};`).join('\n')}\n}`,
    );
  else out.push('function $workgroup() {}');
  out.push(
    `function $flush() {\n${outputs
      .map(
        (b) =>
          `  for (let j = 0; j < $n_${b.name}; j++) if ($i_${b.name}[j] < $len_${b.name}) $st_${b.name}($i_${b.name}[j], $W_${b.name}[j]);\n  $n_${b.name} = 0;${b.header ? `\n  $sh_${b.name}();` : ''}`,
      )
      .join('\n')}\n}`,
  );
  const names = m.privates.map((p) => F(p.name)).join(', ');
  out.push(
    `function $psave() { return [${names}]; }`,
    `function $pload(s) { ${names ? `[${names}] = s;` : ''} }`,
  );
  return out;
}

/**
 * The run loop of a cooperative kernel: workgroup by workgroup, its variables zero at the start;
 * with barriers every invocation is a generator and they take turns, each running to its next
 * barrier (and storing what it wrote) before the next one runs — WebGPU's barrier semantics, one
 * invocation at a time. The buffers are the live ones: an atomic or a barrier sees every write
 * made before it.
 */
function cooperativeLoop(m: PortableModule, generators: boolean): string {
  const [wx, wy, wz] = m.workgroupSize;
  const size = wx * wy * wz;
  const turns = generators
    ? `    for (let l = 0; l < ${size}; l++) { $gens[l] = $kernel(inv(l)); $priv[l] = null; }
    for (let live = ${size}; live > 0; ) {
      live = 0;
      let ended = -1;
      for (let l = 0; l < ${size}; l++) {
        const it = $gens[l];
        if (!it) continue;
        if ($priv[l]) $pload($priv[l]);
        const r = it.next();
        $flush();
        if (r.done) {
          $gens[l] = null;
          ended = l;
        } else {
          $priv[l] = $psave();
          live++;
        }
      }
      // a barrier some invocations of the workgroup reach and others do not (WebGPU's compiler
      // refuses the shader: its uniformity analysis)
      if (live > 0 && ended >= 0) throw new $.NonUniformBarrier(g, ended, $gens.findIndex((x) => x));
    }`
    : `    for (let l = 0; l < ${size}; l++) {
      $kernel(inv(l));
      $flush();
    }`;
  return `  const gx = $dx / ${wx}, gy = $dy / ${wy}, gz = $dz / ${wz};
  const $gens = [], $priv = [];
  for (let g = 0; g < gx * gy * gz; g++) {
    const ox = (g % gx) * ${wx}, oy = (Math.floor(g / gx) % gy) * ${wy}, oz = Math.floor(g / (gx * gy)) * ${wz};
    const inv = (l) => ox + (l % ${wx}) + (oy + (Math.floor(l / ${wx}) % ${wy})) * $dx + (oz + Math.floor(l / ${wx * wy})) * $dx * $dy;
    $workgroup();
${turns}
  }`;
}

/** The factory body: `new Function('$', code)($)` returns `run(ctx: JsRunContext)`. */
export function emitJs(m: PortableModule): string {
  const e = new JsEmitter(m);
  e.tracked = true;
  e.yields = yieldingFunctions(m);
  const star = (name: string): string => (e.yields.has(name) ? '*' : '');
  const storage = m.bindings.filter((b) => b.space === 'storage');
  const outputs = storage.filter((b) => b.access !== 'read');
  const uniforms = m.bindings.filter((b) => b.space === 'uniform');
  const out: string[] = ['"use strict";', 'let $dx = 1, $dy = 1, $dz = 1;'];
  for (const b of storage) out.push(`let $v_${b.name}, $len_${b.name} = 0;`);
  for (const u of uniforms) out.push(`let ${F(u.name)};`);
  const textures = m.bindings.filter((b) => b.space === 'texture');
  const images = m.bindings.filter((b) => b.space === 'storage-texture');
  for (const t of [...textures, ...images]) out.push(`let $t_${t.name};`);
  const samplers = m.bindings.filter((b) => b.space === 'sampler');
  for (const s of samplers) out.push(`let $s_${s.name};`);
  for (const b of storage) {
    const el = b.element as WType;
    const stride = (b.type as { stride: number }).stride / 4;
    out.push(
      `function $ld_${b.name}(i) {\n  const b = ${b.offset / 4} + Math.min(i >>> 0, Math.max($len_${b.name}, 1) - 1) * ${stride};\n  const v = $v_${b.name};\n  return ${load(el, 'v.', 'b', 0)};\n}`,
    );
    if (b.header)
      out.push(
        `function $hd_${b.name}() {\n  const v = $v_${b.name};\n  return ${load(b.header, 'v.', '0', 0)};\n}`,
      );
  }
  // the scatter form: the elements an invocation writes, by index, stored when it ends (or, in a
  // cooperative kernel, at its next barrier)
  for (const b of outputs) {
    const stride = (b.type as { stride: number }).stride / 4;
    const n = b.name;
    out.push(
      `let $out_${n}; const $W_${n} = [], $i_${n} = []; let $n_${n} = 0;`,
      `function $w_${n}(i) {\n  i >>>= 0;\n  for (let j = 0; j < $n_${n}; j++) if ($i_${n}[j] === i) return j;\n  $i_${n}[$n_${n}] = i;\n  $W_${n}[$n_${n}] = $ld_${n}(i);\n  return $n_${n}++;\n}`,
      `function $r_${n}(i) {\n  i >>>= 0;\n  for (let j = 0; j < $n_${n}; j++) if ($i_${n}[j] === i) return $W_${n}[j];\n  return $ld_${n}(i);\n}`,
      ...(b.header
        ? [
            `let $H_${n} = null;`,
            `function $h_${n}() { return ($H_${n} ??= $hd_${n}()); }`,
            `function $rh_${n}() { return $H_${n} ?? $hd_${n}(); }`,
            `function $sh_${n}() {\n  if (!$H_${n}) return;\n  const v = $out_${n}, r = $H_${n};\n${store(
              b.header,
              'v.',
              '0',
              0,
              'r',
            )
              .map((x) => `  ${x}`)
              .join('\n')}\n  $H_${n} = null;\n}`,
          ]
        : []),
      `function $st_${n}(i, r) {\n  const b = ${b.offset / 4} + i * ${stride};\n  const v = $out_${n};\n${store(
        b.element as WType,
        'v.',
        'b',
        0,
        'r',
      )
        .map((x) => `  ${x}`)
        .join('\n')}\n}`,
    );
  }
  for (const c of m.constants) out.push(`const ${F(c.name)} = ${e.expr(c.value)};`);
  out.push(...privates(m, e));
  if (m.cooperative) out.push(...cooperativeParts(m, outputs));
  for (const f of m.functions)
    out.push(
      `function${star(f.name)} ${F(f.name)}(${f.params.map((p) => F(p.name)).join(', ')}) {\n${e.block(f.node.body, '  ')}\n}`,
    );
  out.push(
    `function${star(m.entryPoint)} $kernel($inv) {\n${start(m)}${builtinPrologue(m).join('\n')}\n${e.block(m.entry.body, '  ')}\n}`,
  );
  // writable arrays are read from a copy of their contents before the dispatch; a cooperative
  // kernel's invocations see each other's writes (after a barrier), so it reads the live ones
  const bindViews = storage.map((b) =>
    b.access === 'read'
      ? `  $v_${b.name} = ctx.storage.${b.name}; $len_${b.name} = $v_${b.name}.length;`
      : `  $out_${b.name} = ctx.storage.${b.name}; $v_${b.name} = ${m.cooperative ? `$out_${b.name}` : `$.snapshot($out_${b.name})`}; $len_${b.name} = $out_${b.name}.length;`,
  );
  const bindUniforms = [
    ...uniforms.map((u) => `  ${F(u.name)} = ${load(u.type, `ctx.uniforms.${u.name}.`, '0', 0)};`),
    ...textures.map((t) => `  $t_${t.name} = ctx.textures.${t.name};`),
    ...images.map((t) => `  $t_${t.name} = ctx.images.${t.name};`),
    ...samplers.map((s) => `  $s_${s.name} = ctx.samplers.${s.name};`),
  ];
  const loop = m.cooperative
    ? cooperativeLoop(m, e.yields.has(m.entryPoint))
    : `  const total = $dx * $dy * $dz;
  for (let inv = 0; inv < total; inv++) {
${outputs.map((b) => `    $n_${b.name} = 0;`).join('\n')}
    $kernel(inv);
${outputs.map((b) => `    for (let j = 0; j < $n_${b.name}; j++) if ($i_${b.name}[j] < $len_${b.name}) $st_${b.name}($i_${b.name}[j], $W_${b.name}[j]);${b.header ? ` $sh_${b.name}();` : ''}`).join('\n')}
  }`;
  out.push(`return function run(ctx) {
${[...bindViews, ...bindUniforms].join('\n')}
  [$dx, $dy, $dz] = ctx.invocations;
${loop}
};`);
  return out.join('\n');
}

/**
 * An element-wise kernel's CPU form (src/compute/kernel.ts): the factory body returns
 * `step(state, count, params)`, which runs `ignisUpdate(index, s)` over every element of `state`
 * (4 floats per element per attribute) in place. `params` are the step's uniforms by name.
 */
export function emitJsElementwise(
  m: PortableModule,
  attributes: readonly string[],
  gather = false,
  sceneDepth = false,
  source: readonly string[] = [],
): string {
  const e = new JsEmitter(m);
  const params = m.bindings.find((b) => b.space === 'uniform') as Binding;
  const struct = params.type as { members: ReadonlyArray<{ name: string; type: WType }> };
  const convert = (name: string, t: WType): string => {
    const v = `params[${JSON.stringify(name)}]`;
    if (t.kind === 'vec') return t.scalar === 'f32' ? `Array.from(${v}, $.fr)` : `Array.from(${v})`;
    const s = (t as { scalar: Scalar }).scalar;
    return s === 'f32' ? `$.fr(${v})` : s === 'u32' ? `(${v} >>> 0)` : `(${v} | 0)`;
  };
  const out: string[] = [
    '"use strict";',
    `let ${F(params.name)};`,
    attributes.map((_, i) => `let P${i};`).join(' '),
    'let D;',
    'let Q;',
  ];
  for (const c of m.constants) out.push(`const ${F(c.name)} = ${e.expr(c.value)};`);
  out.push(...privates(m, e));
  for (const f of m.functions)
    if (sceneDepth && f.name === 'ignisSceneDepth')
      // the step's depth array (inputs.sceneDepth), clamped to its edges; far where there is none
      out.push(
        `function ${F('ignisSceneDepth')}(x, y) {\n  if (!D) return 1;\n  const cx = Math.min(Math.max(x, 0), D.width - 1);\n  const cy = Math.min(Math.max(y, 0), D.height - 1);\n  return D.data[cy * D.width + cx];\n}`,
      );
    else if (source.length > 0 && f.name === 'ignisSource')
      // element j of the source runner's arrays (inputs.source.host), as the step starts
      out.push(
        `function ${F('ignisSource')}(j) {\n  const b = 4 * j;\n  return { ${source.map((a) => `${a}: [Q[${JSON.stringify(a)}][b], Q[${JSON.stringify(a)}][b + 1], Q[${JSON.stringify(a)}][b + 2], Q[${JSON.stringify(a)}][b + 3]]`).join(', ')} };\n}`,
      );
    else if (gather && f.name === 'ignisElement')
      // element j before this step: from the copies made at the start of the step
      out.push(
        `function ${F('ignisElement')}(j) {\n  const b = 4 * j;\n  return { ${attributes.map((a, i) => `${a}: [P${i}[b], P${i}[b + 1], P${i}[b + 2], P${i}[b + 3]]`).join(', ')} };\n}`,
      );
    else
      out.push(
        `function ${F(f.name)}(${f.params.map((p) => F(p.name)).join(', ')}) {\n${e.block(f.node.body, '  ')}\n}`,
      );
  const fields = struct.members
    .map((mb) =>
      mb.name === 'count'
        ? 'count: count >>> 0'
        : mb.name === 'width'
          ? 'width: 0'
          : mb.name === 'sourceWidth'
            ? 'sourceWidth: 0'
            : `${mb.name}: ${convert(mb.name, mb.type)}`,
    )
    .join(', ');
  out.push(`return function step(state, count, params, inputs) {
  ${F(params.name)} = { ${fields} };
  D = inputs && inputs.sceneDepth;
  Q = inputs && inputs.source && inputs.source.host;
${attributes.map((a, i) => `  const A${i} = state[${JSON.stringify(a)}];${gather ? ` P${i} = A${i}.slice();` : ''}`).join('\n')}
  for (let i = 0; i < count; i++) {
${start(m)}    const b = 4 * i;
    const s = ${F('ignisUpdate')}(i, { ${attributes.map((a, i) => `${a}: [A${i}[b], A${i}[b + 1], A${i}[b + 2], A${i}[b + 3]]`).join(', ')} });
${attributes.map((a, i) => `    A${i}[b] = s.${a}[0]; A${i}[b + 1] = s.${a}[1]; A${i}[b + 2] = s.${a}[2]; A${i}[b + 3] = s.${a}[3];`).join('\n')}
  }
};`);
  return out.join('\n');
}
