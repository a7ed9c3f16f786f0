/**
 * The vertex state against the vertex shader's inputs (WebGPU's "validating GPUVertexState"): every
 * `@location` input of the entry point is fed by an attribute at that `shaderLocation`, of a format
 * whose type is the input's — a float format (float, unorm, snorm) feeds f32/f16, a uint format
 * u32, a sint format i32. WebGPU refuses the pipeline otherwise; WebGL2 would draw with a default
 * or reinterpreted attribute, so core checks it for both. WGSL modules only (GLSL's `in`s are the
 * author's to match).
 */
import { ValidationError } from '../errors.js';
import type { RenderPipelineDescriptor } from '../descriptors.js';

type ScalarKind = 'f' | 'u' | 'i';

/** A vertex shader input: its location, name and type as written, and the type's scalar kind. */
export interface VertexInput {
  readonly location: number;
  readonly name: string;
  readonly type: string;
  /** null: a type the reflection does not know (an alias): not checked. */
  readonly kind: ScalarKind | null;
}

/** Splits at the commas that are not inside (), <> or []. */
function splitTop(list: string, separators = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i] as string;
    if (c === '(' || c === '<' || c === '[') depth++;
    else if (c === ')' || c === '>' || c === ']') depth--;
    else if (depth === 0 && separators.includes(c)) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The scalar kind of a WGSL numeric type (f32, vec3f, vec4<u32>, …), null when unknown. */
function kindOf(type: string): ScalarKind | null {
  const t = type.replace(/\s+/g, '');
  const m = /^(?:vec[234](?:<(\w+)>|([fhiu]))|(\w+))$/.exec(t);
  if (!m) return null;
  const scalar = m[1] ?? m[2] ?? m[3];
  switch (scalar) {
    case 'f32':
    case 'f16':
    case 'f':
    case 'h':
      return 'f';
    case 'u32':
    case 'u':
      return 'u';
    case 'i32':
    case 'i':
      return 'i';
    default:
      return null;
  }
}

/** `@location(n) name: type` members or parameters of a list; the others (builtins) are skipped. */
function locations(list: string[]): Array<{ location: number; name: string; type: string }> {
  const out: Array<{ location: number; name: string; type: string }> = [];
  for (const item of list) {
    const loc = /@location\s*\(\s*(\d+)\s*[ui]?\s*\)/.exec(item);
    const decl = /([A-Za-z_]\w*)\s*:\s*([^]+)$/.exec(
      item.replace(/@\w+\s*(\([^)]*\))?/g, ' ').trim(),
    );
    if (!loc || !decl) continue;
    out.push({
      location: Number(loc[1]),
      name: decl[1] as string,
      type: (decl[2] as string).trim(),
    });
  }
  return out;
}

/** The `@location` inputs of vertex entry point `entryPoint` in WGSL `source`; null if not found. */
export function wgslVertexInputs(source: string, entryPoint: string): VertexInput[] | null {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const fn = new RegExp(`\\bfn\\s+${entryPoint}\\s*\\(`).exec(code);
  if (!fn) return null;
  let depth = 1;
  let end = fn.index + fn[0].length;
  for (; end < code.length && depth > 0; end++) {
    if (code[end] === '(') depth++;
    else if (code[end] === ')') depth--;
  }
  const params = splitTop(code.slice(fn.index + fn[0].length, end - 1));
  const found: Array<{ location: number; name: string; type: string }> = [];
  for (const param of params) {
    if (/@location/.test(param)) {
      found.push(...locations([param]));
      continue;
    }
    if (/@builtin/.test(param)) continue;
    // a struct parameter: its @location members
    const type = /:\s*([A-Za-z_]\w*)\s*$/.exec(param)?.[1];
    if (!type) continue;
    const struct = new RegExp(`\\bstruct\\s+${type}\\s*\\{([^}]*)\\}`).exec(code);
    if (struct) found.push(...locations(splitTop(struct[1] as string, ',;')));
  }
  return found.map((x) => ({ ...x, kind: kindOf(x.type) }));
}

const KIND_NAMES: Record<ScalarKind, string> = {
  f: 'a float (f32/f16)',
  u: 'an unsigned integer (u32)',
  i: 'a signed integer (i32)',
};

/** The scalar kind a vertex format feeds. */
function formatKind(format: string): ScalarKind {
  return format.startsWith('uint') ? 'u' : format.startsWith('sint') ? 'i' : 'f';
}

/** Every input of the vertex entry point is fed by an attribute of its type (WGSL modules). */
export function checkVertexInputs(
  desc: RenderPipelineDescriptor,
  entryPoint: string,
  label: string | undefined,
): void {
  const inputs = wgslVertexInputs(desc.vertex.module.code, entryPoint);
  if (!inputs) return;
  const fed = new Map<number, { where: string; format: string }>();
  (desc.vertex.buffers ?? []).forEach((b, i) =>
    b.attributes.forEach((a, j) =>
      fed.set(a.shaderLocation, {
        where: `vertex.buffers[${i}].attributes[${j}]`,
        format: a.format,
      }),
    ),
  );
  for (const input of inputs) {
    const what = `@location(${input.location}) ${input.name}: ${input.type}`;
    const attribute = fed.get(input.location);
    if (!attribute)
      throw new ValidationError(
        'pipeline-vertex-input',
        `the vertex shader reads ${what}, and no attribute of vertex.buffers has shaderLocation ${input.location} (WebGPU needs one for every input)`,
        label,
        { location: input.location },
      );
    if (input.kind !== null && formatKind(attribute.format) !== input.kind)
      throw new ValidationError(
        'pipeline-vertex-input-type',
        `${attribute.where} (${attribute.format}) feeds ${what}: the format gives ${KIND_NAMES[formatKind(attribute.format)]}, the input is ${KIND_NAMES[input.kind]}`,
        label,
        { location: input.location, format: attribute.format },
      );
  }
}
