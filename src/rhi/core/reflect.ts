import type { BindingLayoutEntry, BindingType } from './descriptors.js';
import { slotOf } from './slots.js';

/** One `@group(g) @binding(b) var<…> name: type;` declaration found in WGSL source. */
export interface WgslBinding {
  readonly group: number;
  readonly binding: number;
  readonly name: string;
  readonly type: BindingType;
  readonly wgslType: string;
}

const DECLARATION =
  /((?:@(?:group|binding)\s*\(\s*\d+\s*\)\s*){2})var\s*(?:<\s*([\w\s,]+)\s*>)?\s*(\w+)\s*:\s*([^;]+);/g;

/**
 * Reflects the resource declarations of a WGSL module, so that slot binding and bind groups reach
 * every `@group(g) @binding(n)` of WGSL written for raw WebGPU without the user restating a layout.
 * Comments are stripped first; attribute order (`@group @binding` or `@binding @group`) is free.
 */
export function reflectWgslBindings(source: string): WgslBinding[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const out: WgslBinding[] = [];
  for (const m of code.matchAll(DECLARATION)) {
    const attrs = m[1] ?? '';
    const group = Number(/@group\s*\(\s*(\d+)/.exec(attrs)?.[1]);
    const binding = Number(/@binding\s*\(\s*(\d+)/.exec(attrs)?.[1]);
    const space = (m[2] ?? '').replace(/\s/g, '');
    const wgslType = (m[4] ?? '').trim();
    out.push({ group, binding, name: m[3] ?? '', type: bindingTypeOf(space, wgslType), wgslType });
  }
  return out;
}

function bindingTypeOf(space: string, wgslType: string): BindingType {
  if (space.startsWith('uniform')) return 'uniform';
  if (space.startsWith('storage'))
    return space.includes('read_write') ? 'storage' : 'read-only-storage';
  if (/^sampler/.test(wgslType)) return 'sampler';
  if (/^texture_storage/.test(wgslType)) return 'storage-texture';
  return 'texture';
}

/** Turns reflected declarations into the slot layout a pipeline uses (every group). */
export function layoutFromReflection(bindings: readonly WgslBinding[]): BindingLayoutEntry[] {
  return bindings
    .map((b): BindingLayoutEntry => {
      const entry: BindingLayoutEntry = { binding: b.binding, type: b.type, name: b.name };
      if (b.group !== 0) entry.group = b.group;
      if (b.type === 'texture' && /texture_depth/.test(b.wgslType)) entry.sampleType = 'depth';
      if (b.type === 'texture' && /<\s*u32\s*>/.test(b.wgslType)) entry.sampleType = 'uint';
      if (b.type === 'texture' && /<\s*i32\s*>/.test(b.wgslType)) entry.sampleType = 'sint';
      if (b.type === 'sampler' && /^sampler_comparison/.test(b.wgslType))
        entry.samplerType = 'comparison';
      if (b.type === 'storage-texture') {
        const fmt = /<\s*(\w+)/.exec(b.wgslType)?.[1];
        if (fmt) entry.format = fmt as BindingLayoutEntry['format'];
      }
      return entry;
    })
    .sort((a, b) => slotOf(a) - slotOf(b));
}

/** `textureSample*(texture, sampler, …)` calls of WGSL source: which sampler samples which texture. */
export function wgslSamplerUses(source: string): Array<{ texture: string; sampler: string }> {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  return [...code.matchAll(/\btextureSample\w*\s*\(\s*(\w+)\s*,\s*(\w+)/g)].map((m) => ({
    texture: m[1] as string,
    sampler: m[2] as string,
  }));
}

/**
 * Fills in `samplerType` where a layout leaves it out: `non-filtering` for a sampler that samples an
 * 'unfilterable-float' texture (in WGSL, found from the `textureSample*` calls; in GLSL, from the
 * textures whose `samplerBinding` names it), else `filtering`. WebGPU rejects a filtering sampler
 * used with an unfilterable texture, so the advice to sample float32 textures with a nearest
 * sampler only works with this.
 */
export function deriveSamplerTypes(
  entries: readonly BindingLayoutEntry[],
  wgslSources: readonly string[],
): BindingLayoutEntry[] {
  const byName = new Map(entries.filter((e) => e.name).map((e) => [e.name as string, e]));
  const uses = wgslSources.flatMap(wgslSamplerUses);
  return entries.map((e) => {
    if (e.type !== 'sampler' || e.samplerType) return e;
    const sampled = [
      ...uses.filter((u) => u.sampler === e.name).map((u) => byName.get(u.texture)),
      ...entries.filter(
        (t) =>
          t.type === 'texture' &&
          t.samplerBinding === e.binding &&
          (t.group ?? 0) === (e.group ?? 0),
      ),
    ];
    const unfilterable = sampled.some((t) => t?.sampleType === 'unfilterable-float');
    return { ...e, samplerType: unfilterable ? 'non-filtering' : 'filtering' };
  });
}

/**
 * The identifiers an entry point uses, directly or through the functions it calls — what WebGPU's
 * `layout: 'auto'` calls "statically used": a pipeline's layout holds only the module's resources
 * its entry points use, so one module can carry a vertex, a fragment and a compute entry point
 * with different resources. `null` when the function is not found (then every declaration counts).
 */
export function wgslStaticUse(source: string, entryPoint: string): Set<string> | null {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const bodies = new Map<string, string>();
  for (const m of code.matchAll(/\bfn\s+([A-Za-z_]\w*)\s*\(/g)) {
    const open = code.indexOf('{', m.index);
    if (open < 0) continue;
    let depth = 0;
    let end = open;
    for (; end < code.length; end++) {
      if (code[end] === '{') depth++;
      else if (code[end] === '}' && --depth === 0) break;
    }
    // the signature too: parameters and return types may name structs, never resources
    bodies.set(m[1] as string, code.slice(m.index, end + 1));
  }
  if (!bodies.has(entryPoint)) return null;
  const used = new Set<string>();
  const queue = [entryPoint];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const id of (bodies.get(name) as string).match(/[A-Za-z_]\w*/g) ?? []) {
      used.add(id);
      if (bodies.has(id) && !seen.has(id)) queue.push(id);
    }
  }
  return used;
}
