/**
 * Module-scope constants as written. wgsl_reflect folds a module-scope `const` into a literal —
 * scalars stay usable, but a folded vector or array (`const up = vec3f(0.0, 1.0, 0.0);`, `const
 * weights = array(0.25, 0.5, 0.25);`) loses its type's spelling. Each module-scope `const` is
 * parsed again as the value of a `let`, which the parser keeps as an expression, and that
 * expression replaces the folded literal.
 */
import { WgslParser } from 'wgsl_reflect/wgsl_reflect.module.js';
import type { AstNode } from './analyze.js';

/** `const name … = value;` declarations at brace depth 0 of `code`, comments removed. */
function moduleConstants(code: string): Map<string, string> {
  const text = code
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/\/\/[^\n]*/g, '');
  const out = new Map<string, string>();
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (
      depth === 0 &&
      /\bconst\s/y.test(text.slice(i, i + 6)) &&
      (i === 0 || /[\s;}]/.test(text[i - 1] as string))
    ) {
      const m = /^const\s+(\w+)\s*(?::[^=]+)?=([^;]+);/.exec(text.slice(i));
      if (m) out.set(m[1] as string, (m[2] as string).trim());
    }
  }
  return out;
}

/** Every node under `node`, not following `parent`. */
function each(node: unknown, visit: (n: AstNode) => void, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) return node.forEach((n) => each(n, visit, seen));
  visit(node);
  for (const [k, v] of Object.entries(node)) if (k !== 'parent') each(v, visit, seen);
}

/**
 * Replaces the folded value of each module-scope `const` whose literal is not a scalar by the
 * expression it was written as (positions: the declaration's line).
 */
export function unfoldConstants(ast: AstNode[], code: string): void {
  const folded = ast.filter(
    (n) =>
      n.astNodeType === 'const' &&
      n.value?.astNodeType === 'literalExpr' &&
      !['f32', 'i32', 'u32', 'bool', 'x32', 'f16'].includes(n.value.value?.typeInfo?.name ?? ''),
  );
  if (!folded.length) return;
  const written = moduleConstants(code);
  for (const node of folded) {
    const expression = written.get(node.name);
    if (expression === undefined) continue;
    let value: AstNode;
    try {
      const [fn] = new WgslParser().parse(
        `fn _ignis_const() { let _ignis_value = ${expression}; }`,
      ) as AstNode[];
      value = fn?.body?.[0]?.value;
    } catch {
      continue; // the analysis names the folded literal
    }
    if (!value) continue;
    each(value, (n) => {
      if (typeof n.line === 'number') n.line = node.line;
      if (typeof n.start === 'number') n.start = -1;
    });
    node.value = value;
  }
}
