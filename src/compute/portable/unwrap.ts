/**
 * Storage declarations as most WGSL writes them: a struct that only names its runtime-sized array
 * (`struct Particles { particles: array<Particle> }` bound as `var<storage> particlesA:
 * Particles`, the webgpu-samples flock). Its memory is the array's (the member is at offset 0),
 * so before analysis the binding is retyped as the array, `particlesA.particles[i]` becomes
 * `particlesA[i]` and `arrayLength(&particlesA.particles)` becomes `arrayLength(&particlesA)`;
 * the WGSL that WebGPU compiles is the user's, unchanged.
 *
 * A struct with members before its runtime-sized array (`struct Data { count: u32, items:
 * array<Item> }`) is retyped the same way, with the members before the array kept on the
 * declaration as its `header` (`d.count` reads the header, `d.items[i]` the array, whose first
 * element sits where WGSL's layout puts the member).
 */
import type { AstNode } from './analyze.js';

/** A struct declaration whose last member is a runtime-sized array: that member, else null. */
function wrappedArray(struct: AstNode): AstNode | null {
  if (struct?.astNodeType !== 'struct' || !struct.members?.length) return null;
  const m = struct.members[struct.members.length - 1];
  const t = m.type;
  const runtimeSized =
    t?.astNodeType === 'array' || t?.name === 'array' ? !t.count && !t.attributes?.length : false;
  return runtimeSized && !m.attributes?.length ? m : null;
}

/** Every AST node under `node` (wgsl_reflect's nodes link back through `parent`: not followed). */
function walk(node: unknown, visit: (n: AstNode) => void, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit, seen);
    return;
  }
  visit(node);
  for (const [k, v] of Object.entries(node)) if (k !== 'parent') walk(v, visit, seen);
}

/**
 * Rewrites `ast` in place as described above and returns it without the wrapper structs that no
 * other declaration uses (a wrapper used elsewhere stays, and the analysis reports it).
 */
export function unwrapStorageStructs(ast: AstNode[]): AstNode[] {
  const members = new Map<string, string>(); // binding name → array member
  const headers = new Map<string, Set<string>>(); // binding name → the members before the array
  const wrappers = new Set<AstNode>();
  for (const node of ast) {
    if (node.astNodeType !== 'var' || node.storage !== 'storage') continue;
    const member = wrappedArray(node.type);
    if (!member) continue;
    wrappers.add(node.type);
    members.set(node.name, member.name);
    const before = (node.type.members as AstNode[]).slice(0, -1);
    if (before.length) {
      node.header = { name: node.type.name, members: before, array: member };
      headers.set(node.name, new Set(before.map((m) => m.name as string)));
    }
    node.type = member.type;
  }
  if (members.size === 0) return ast;
  const functions = ast.filter((n) => n.astNodeType === 'function');
  walk(functions, (n) => {
    const member = typeof n.name === 'string' ? members.get(n.name) : undefined;
    if (member === undefined || !n.postfix || 'index' in n.postfix) return;
    if (n.postfix.value === member) n.postfix = n.postfix.postfix;
    else if (headers.get(n.name)?.has(n.postfix.value)) n.header = true;
  });
  // a wrapper still named anywhere else (a function's parameter, another struct) stays declared
  const stillUsed = new Set<AstNode>();
  walk(
    ast.filter((n) => !wrappers.has(n)),
    (n) => {
      if (wrappers.has(n)) stillUsed.add(n);
    },
  );
  return ast.filter((n) => !wrappers.has(n) || stillUsed.has(n));
}
