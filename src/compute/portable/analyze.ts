/**
 * The front end of portable compute: parses an ordinary WGSL compute shader with `wgsl_reflect`,
 * checks that it has the gather shape, and types every expression, so that the emitters
 * (glsl.ts, js.ts) only translate.
 *
 * What is portable (docs/compute.md has the table): no storage textures or sampling, and pointers
 * only as function parameters to function-scope and private variables; workgroup memory, barriers
 * and atomics on the CPU path only (`options.cpu`: the module's `pingpongLimit` names the first).
 * Anything else is a `KernelError` naming the construct with its line and column, never a backend
 * compile error.
 */
import { WgslParser } from 'wgsl_reflect/wgsl_reflect.module.js';
import { KernelError } from '../kernel-error.js';
import { parseable, parsePosition, PortableKernelError, recursionIn } from './source.js';
import { unwrapStorageStructs } from './unwrap.js';
import { reachable } from './reach.js';
import { unfoldConstants } from './consts.js';
import { BUILTIN_INPUTS, type BuiltinInput } from './grid.js';
import { F32, VOID, sameType, scalarOf, wgslName } from './types.js';
import type { AstNode, BuiltinParam, AnalyzeOptions, PortableModule } from './analysis-types.js';
import { DeclarationAnalyzer } from './analyze-declarations.js';

export { locate, PortableKernelError, sourceExcerpt } from './source.js';
export { PORTABLE_BUILTINS } from './analysis-types.js';
export type {
  AstNode,
  Binding,
  BuiltinParam,
  StorageAccess,
  AnalyzeOptions,
  PortableFunction,
  PortableModule,
  Symbol,
} from './analysis-types.js';

class Analyzer extends DeclarationAnalyzer {
  module(all: AstNode[], entryPoint: string): PortableModule {
    let entry: AstNode | undefined;
    const fnNodes: AstNode[] = [];
    this.checkConstantNames(all);
    // WebGPU's compiler refuses a reserved name anywhere in the module, reached or not
    for (const node of all) {
      if (!['struct', 'alias', 'const', 'override', 'var', 'function'].includes(node.astNodeType))
        continue;
      this.notReserved(node.name, node);
      for (const m of node.astNodeType === 'struct' ? node.members : [])
        this.notReserved(m.name, m);
    }
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
          this.scopes = [new Map()];
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
      this.scopes = [new Map()];
      this.functions.set(f.name, {
        name: f.name,
        params: (f.args as AstNode[]).map((a) => this.parameter(a)),
        returnType: f.returnType ? this.type(f.returnType, f) : VOID,
        node: f,
      });
    }
    for (const f of this.functions.values()) this.functionBody(f, false);

    // the entry point
    const builtins: BuiltinParam[] = [];
    this.scopes = [new Map()];
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
    this.inEntry = true;
    this.returnType = VOID;
    this.block(entry.body, false);
    this.inEntry = false;

    const bindings = [...this.bindings.values()]
      .filter((b) => this.usedBindings.has(b.name))
      .sort((a, b) => a.group - b.group || a.binding - b.binding);
    // the ping-pong's image form draws into the storage textures only: a kernel that also writes
    // buffers is one the CPU path runs
    const image = bindings.find((b) => b.space === 'storage-texture');
    const written = bindings.find((b) => b.space === 'storage' && b.access !== 'read');
    if (image && written)
      this.limit(
        'texture_storage_2d',
        { line: image.line },
        `a kernel writing storage texture ${image.name} and storage buffer ${written.name} is not portable`,
      );
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
      privates: this.privates,
      functions: this.orderedFunctions(),
      entry,
      builtins,
      scatter: this.scatter,
      pingpongLimit: this.pingpongLimit,
      cooperative: this.cooperative,
      samplerOf: Object.fromEntries(this.samplerOf),
      workgroups: this.workgroups,
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
