/** The analyser's module-scope declarations: constants, overrides, bindings and their header structs, the functions' order. */
import { KernelError } from '../kernel-error.js';
import { STORAGE_FORMATS } from '../../rhi/core/validate/texture.js';
import type { TextureFormat } from '../../rhi/core/formats.js';
import { evaluateInteger } from './source.js';
import { VOID, makeArray, makeStruct, scalarOf, wgslName, type WType } from './types.js';
import type { AstNode, Binding, PortableFunction } from './analysis-types.js';
import { isHostShareable, calleesOf } from './analysis-types.js';
import { StatementAnalyzer } from './analyze-statements.js';

/**
 * The first name in `value` that a constant expression cannot hold: a value other than a
 * module-scope constant (`refs` says what each name is).
 */
function nonConstantIn(value: AstNode, refs: (e: AstNode) => string | undefined): string | null {
  let found: string | null = null;
  const walk = (n: AstNode): void => {
    if (found || !n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    if (n.astNodeType === 'varExpr' && refs(n) !== 'const') found = n.name as string;
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'parent') walk(v);
  };
  walk(value);
  return found;
}

/** A matrix of two rows inside `t` (its uniform layout differs between WGSL and std140). */
function twoRowMatrixIn(t: WType): WType | undefined {
  if (t.kind === 'mat') return t.rows === 2 ? t : undefined;
  if (t.kind === 'array') return twoRowMatrixIn(t.element);
  if (t.kind === 'struct')
    for (const m of t.members) {
      const found = twoRowMatrixIn(m.type);
      if (found) return found;
    }
  return undefined;
}

export abstract class DeclarationAnalyzer extends StatementAnalyzer {
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

  /**
   * `var t: texture_storage_2d<format, write>`, written with `textureStore`: the CPU path writes the
   * texture's host copy and uploads it; the ping-pong path cannot (a limit).
   */
  storageTextureVar(node: AstNode, attr: (n: string) => number, line: number): void {
    const format = String(node.type.format ?? '') as TextureFormat;
    const access = String(node.type.access ?? '');
    if (!STORAGE_FORMATS.includes(format))
      this.fail(
        String(node.type.format),
        node,
        `storage texture ${node.name}: format ${String(node.type.format)} is not a storage format Ignis supports (${STORAGE_FORMATS.join(', ')})`,
      );
    if (access !== 'write')
      this.fail(
        access,
        node,
        `storage texture ${node.name}: access ${access} (Ignis's storage textures are write-only, as WebGPU's without the read-write language feature)`,
      );
    // createPortableCompute runs them (the ping-pong where each store is at the invocation's own
    // texel); defineKernel's kernels and particle looks do not
    if (!this.options.cpu)
      this.fail('texture_storage_2d', node, 'storage textures are not portable');
    this.resourceBinding(node, attr, line, 'storage-texture', format);
  }

  /** A binding that holds no buffer (a texture, a storage texture, a sampler): its `type` is void. */
  resourceBinding(
    node: AstNode,
    attr: (n: string) => number,
    line: number,
    space: 'texture' | 'storage-texture' | 'sampler',
    format?: TextureFormat,
  ): void {
    const b: Binding = {
      name: node.name,
      group: attr('group'),
      binding: attr('binding'),
      space,
      access: space === 'storage-texture' ? 'write' : 'read',
      type: VOID,
      ...(format ? { format } : {}),
      offset: 0,
      line,
    };
    this.bindings.set(node.name, b);
    this.globals.set(node.name, { type: VOID, kind: 'binding', binding: b });
  }

  moduleVar(node: AstNode): void {
    const storage: string = node.storage ?? '';
    if (storage === 'workgroup') return this.workgroupVar(node);
    if (storage === 'private') return this.privateVar(node);
    if (storage === '' && !node.attributes?.some((a: AstNode) => a.name === 'binding'))
      this.fail(
        'var',
        node,
        `module-scope var ${node.name} needs an address space (var<private> for a value each invocation keeps)`,
        'var',
      );
    const attr = (n: string): number => {
      const a = (node.attributes ?? []).find((x: AstNode) => x.name === n);
      return a ? Number(a.value) : 0;
    };
    const line = node.line as number;
    if (node.type?.name === 'texture_2d' && node.type.format?.name === 'f32') {
      return this.resourceBinding(node, attr, line, 'texture');
    }
    if (node.type?.name === 'texture_storage_2d') return this.storageTextureVar(node, attr, line);
    if (node.type?.name === 'sampler') {
      return this.resourceBinding(node, attr, line, 'sampler');
    }
    if (node.type?.astNodeType === 'sampler' || /^(texture|sampler)/.test(node.type?.name ?? ''))
      this.fail(
        node.type.name,
        node,
        `textures and samplers (${node.type.name}) are not portable: a texture_2d<f32> read with textureLoad or textureSampleLevel is, with a sampler, and a texture_storage_2d<format, write>`,
      );
    const type = this.type(node.type, node);
    if (storage === 'uniform') {
      if (!isHostShareable(type))
        this.fail(
          node.name,
          node,
          `uniform ${node.name} of type ${wgslName(type)} cannot live in a buffer`,
        );
      const twoRows = twoRowMatrixIn(type);
      if (twoRows)
        this.fail(
          wgslName(twoRows),
          node,
          `uniform ${node.name} holds a ${wgslName(twoRows)}: WGSL packs its columns 8 bytes apart in a uniform buffer, GLSL's std140 16, so WebGL2 would read other bytes (put it in var<storage, read>, or use a matrix of 3 or 4 rows)`,
          node.name,
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
        this.limit(
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
   * `var<private> seed: vec2f;` or `var<private> state: u32 = 1u;`: a value each invocation starts
   * with (its initializer, a constant expression as WGSL requires, or zero) and its functions read
   * and write — the state of a random number generator, most often.
   */
  privateVar(node: AstNode): void {
    const declared = node.type ? this.type(node.type, node) : undefined;
    if (!node.value && !declared)
      this.fail(node.name, node, `var<private> ${node.name} needs a type or a value`);
    let t = declared as WType;
    if (node.value) {
      this.scopes = [new Map()];
      t = this.initializer(node, declared);
      const named = nonConstantIn(node.value, (e) => this.refs.get(e));
      if (named)
        this.fail(
          named,
          node,
          `the initializer of var<private> ${node.name} must be a constant expression (it names ${named}): assign it in the entry point instead`,
          named,
        );
    }
    if (t.kind === 'array' && t.count === 0)
      this.fail('array', node, `var<private> ${node.name} cannot be a runtime-sized array`);
    this.types.set(node, t);
    this.privates.push({ name: node.name, type: t, value: node.value ?? null });
    this.globals.set(node.name, { type: t, kind: 'private' });
  }

  /**
   * `var<workgroup> tile: array<f32, 256>;`: a value each workgroup's invocations share, zero when
   * the workgroup starts (the CPU path only: a fragment pass has no shared memory).
   */
  workgroupVar(node: AstNode): void {
    this.limit('var<workgroup>', node, 'workgroup memory is not portable', 'workgroup', true);
    if (node.value)
      this.fail(node.name, node, `var<workgroup> ${node.name} cannot have an initializer`);
    const t = this.type(node.type, node);
    if (t.kind === 'array' && t.count === 0)
      this.fail('array', node, `var<workgroup> ${node.name} cannot be a runtime-sized array`);
    this.types.set(node, t);
    this.workgroups.push({ name: node.name, type: t });
    this.globals.set(node.name, { type: t, kind: 'workgroup' });
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
}
