import { groupLayout, type BindGroupLayout } from './bind-group.js';
import { Resource } from './resource.js';
import { ValidationError } from './errors.js';
import type { BindingLayoutEntry, ComputePipelineDescriptor } from './descriptors.js';
import type { Device } from './device.js';

/** A compute shader and its binding layout (`device.createComputePipeline`). */
export abstract class ComputePipeline extends Resource {
  readonly kind = 'compute-pipeline' as const;
  readonly descriptor: ComputePipelineDescriptor;
  readonly bindings: readonly BindingLayoutEntry[];
  /** `@workgroup_size` of the entry point, reflected from WGSL ([1, 1, 1] when not found). */
  readonly workgroupSize: readonly [number, number, number];
  constructor(device: Device, desc: ComputePipelineDescriptor, bindings: BindingLayoutEntry[]) {
    super(device, desc.label);
    this.descriptor = desc;
    this.bindings = bindings;
    this.workgroupSize = reflectWorkgroupSize(
      desc.compute.module.code,
      desc.compute.entryPoint,
      desc.compute.constants,
    );
  }

  /** The slots of group `index` of this pipeline's layout, for `device.createBindGroup`. */
  getBindGroupLayout(index: number): BindGroupLayout {
    return groupLayout(this.bindings, index, this.label);
  }
}

/**
 * Finds `@compute @workgroup_size(x, y, z) fn entry` in WGSL and evaluates each component: integer
 * literals, module-scope `const` and `override` declarations (with their initialisers) and `+ - * /`
 * with parentheses over them. Anything else is a `ValidationError` naming the expression: a guessed
 * size would make `dispatchThreads` launch the wrong number of workgroups.
 */
export function reflectWorkgroupSize(
  code: string,
  entryPoint?: string,
  constants?: Readonly<Record<string, number | boolean>>,
): [number, number, number] {
  const source = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const re = /@workgroup_size\s*\(\s*([^@]*?)\)\s*(?:@\w+\s*(?:\([^)]*\)\s*)?)*fn\s+(\w+)/g;
  for (const m of source.matchAll(re)) {
    if (entryPoint && m[2] !== entryPoint) continue;
    const args = m[1] ?? '';
    const parts = splitTopLevel(args).map((e) =>
      evaluateConstant(e, source, `@workgroup_size(${args.trim()})`, new Set(), constants),
    );
    return [parts[0] ?? 1, parts[1] ?? 1, parts[2] ?? 1];
  }
  return [1, 1, 1];
}

/** Splits "a, f(b, c), d" at the commas outside parentheses. */
function splitTopLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out.map((p) => p.trim()).filter((p) => p !== '');
}

/** Evaluates an integer expression of literals and module-scope constants, by recursive descent. */
function evaluateConstant(
  expression: string,
  source: string,
  where: string,
  seen: ReadonlySet<string> = new Set(),
  constants: Readonly<Record<string, number | boolean>> = {},
): number {
  const fail = (why: string): never => {
    throw new ValidationError(
      'workgroup-size',
      `${where}: cannot evaluate "${expression.trim()}": ${why}; write an integer literal or a const`,
      undefined,
      {
        expression: expression.trim(),
      },
    );
  };
  const tokens = expression.match(/\d+[iu]?|\w+|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const primary = (): number => {
    const t = tokens[i++];
    if (t === undefined) return fail('it ends early');
    if (t === '(') {
      const v = sum();
      if (tokens[i++] !== ')') fail('a parenthesis is not closed');
      return v;
    }
    if (t === '-') return -primary();
    if (/^\d+[iu]?$/.test(t)) return Number.parseInt(t, 10);
    if (/^[A-Za-z_]\w*$/.test(t)) {
      if (peek() === '(') fail(`"${t}(…)" is a function call`);
      if (seen.has(t)) fail(`"${t}" is defined in terms of itself`);
      const given = constants[t];
      if (given !== undefined && new RegExp(`\\boverride\\s+${t}\\b`).test(source))
        return Number(given);
      const decl = new RegExp(
        `(?:@id\\s*\\(\\s*\\d+\\s*\\)\\s*)?\\b(const|override)\\s+${t}\\b\\s*(?::\\s*\\w+\\s*)?(=\\s*([^;]+))?;`,
      ).exec(source);
      if (!decl) return fail(`"${t}" is not a module-scope const or override`);
      if (!decl[3]) {
        throw new ValidationError(
          'workgroup-size',
          `${where}: the override "${t}" has no value; give it an initialiser or use a literal`,
          undefined,
          {
            name: t,
          },
        );
      }
      return evaluateConstant(decl[3], source, where, new Set([...seen, t]), constants);
    }
    return fail(`unexpected "${t}"`);
  };
  const product = (): number => {
    let v = primary();
    while (peek() === '*' || peek() === '/')
      v = tokens[i++] === '*' ? v * primary() : Math.trunc(v / primary());
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-')
      v = tokens[i++] === '+' ? v + product() : v - product();
    return v;
  };
  const value = sum();
  if (i < tokens.length) fail(`unexpected "${tokens[i]}"`);
  if (!Number.isInteger(value) || value < 1) fail(`it is ${value}, not a positive integer`);
  return value;
}
