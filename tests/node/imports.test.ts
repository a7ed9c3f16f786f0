// The shape of the sources: no import cycle through value imports anywhere in src/, and none at all
// (type imports too) in src/particles — a module of the particle stack depends on the stack's
// types, never the other way round.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Files and the files they import (relative imports; `types`: type-only imports too). */
function graph(root: string, types: boolean): Map<string, string[]> {
  const files = new Set(sources(root));
  const g = new Map<string, string[]>();
  for (const f of files) {
    const deps: string[] = [];
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(
      /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(\.[^']+)'/g,
    )) {
      const names = (m[3] ?? '').trim();
      const typeOnly =
        !!m[2] ||
        (/^\{[^}]*\}$/s.test(names) &&
          names
            .replace(/[{}\s]/g, '')
            .split(',')
            .filter(Boolean)
            .every((s) => s.startsWith('type')));
      if (typeOnly && !types) continue;
      const target = path.normalize(
        path.join(path.dirname(f), (m[4] as string).replace(/\.js$/, '.ts')),
      );
      if (files.has(target)) deps.push(target);
    }
    g.set(f, deps);
  }
  return g;
}

/** The strongly connected components of more than one file (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('imports', () => {
  it('src/ has no cycle of value imports', () => {
    expect(cycles(graph('src', false))).toEqual([]);
  });
  it('src/particles has no import cycle at all', () => {
    expect(cycles(graph('src/particles', true))).toEqual([]);
  });
  it('the cycle finder finds a cycle (a.ts ↔ b.ts)', () => {
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['a.ts']],
          ['c.ts', ['a.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
  });
});
