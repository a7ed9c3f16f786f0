/**
 * The part of a WGSL module an entry point reaches. A file written for WebGPU often holds a whole
 * sample: the compute entry point beside the vertex and fragment stages, the matrices and textures
 * they use, workgroup variables of other kernels. Only what the chosen entry point names — the
 * functions it calls, the module-scope variables, constants and types they mention, transitively —
 * is analysed; the rest never reaches an emitter and cannot make a portable kernel fail.
 */
import type { AstNode } from './analyze.js';

/** Every identifier named under `node` (values, calls and type names), not following `parent`. */
function namesUnder(node: unknown, out: Set<string>, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const n of node) namesUnder(n, out, seen);
    return;
  }
  const n = node as AstNode;
  if (typeof n.name === 'string') out.add(n.name);
  // a workgroup size or another attribute naming a constant
  if (Array.isArray(n.value)) for (const v of n.value) if (typeof v === 'string') out.add(v);
  if (typeof n.value === 'string' && n.name !== 'builtin') out.add(n.value);
  for (const [k, v] of Object.entries(n)) if (k !== 'parent') namesUnder(v, out, seen);
}

/** The name a module-scope declaration introduces (functions, vars, constants, structs, aliases). */
const declared = (n: AstNode): string | undefined =>
  typeof n?.name === 'string' &&
  ['function', 'var', 'const', 'override', 'let', 'struct', 'alias'].includes(n.astNodeType)
    ? n.name
    : undefined;

/**
 * The declarations of `ast` that `entryPoint` reaches, in their original order, and the others'
 * names (for a `buffers` entry that names a binding the entry point does not use).
 */
export function reachable(
  ast: AstNode[],
  entryPoint: string,
): { kept: AstNode[]; unreached: AstNode[] } {
  const byName = new Map<string, AstNode[]>();
  for (const n of ast) {
    const name = declared(n);
    if (name) byName.set(name, [...(byName.get(name) ?? []), n]);
  }
  const entry = ast.find((n) => n.astNodeType === 'function' && n.name === entryPoint);
  if (!entry) return { kept: ast, unreached: [] }; // the analysis names the missing entry point
  const kept = new Set<AstNode>([entry]);
  const queue: AstNode[] = [entry];
  while (queue.length) {
    const node = queue.pop();
    const names = new Set<string>();
    namesUnder(node, names);
    for (const name of names)
      for (const d of byName.get(name) ?? [])
        if (!kept.has(d)) {
          kept.add(d);
          queue.push(d);
        }
  }
  // directives and assertions stay: they are about the whole module
  const always = new Set(['enable', 'requires', 'diagnostic', 'staticAssert']);
  return {
    kept: ast.filter((n) => kept.has(n) || always.has(n.astNodeType)),
    unreached: ast.filter((n) => !kept.has(n) && !always.has(n.astNodeType)),
  };
}
