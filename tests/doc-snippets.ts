// The fenced TypeScript blocks of the README, DEVELOPING.md and docs/: type-checked by
// tests/node/docs.test.ts, run in the browser on every backend by tests/gpu/docs-run.gpu.test.ts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');

/** Files under `dir` (relative to the repository) whose names end with `ext`, as relative paths. */
export function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((f) => {
    const rel = path.join(dir, f);
    return statSync(path.join(ROOT, rel)).isDirectory()
      ? filesUnder(rel, ext)
      : f.endsWith(ext)
        ? [rel]
        : [];
  });
}

export function markdownFiles(): string[] {
  return ['README.md', 'DEVELOPING.md', 'CHANGELOG.md', ...filesUnder('docs', '.md')];
}

export interface Snippet {
  file: string;
  line: number;
  code: string;
}

/** Fenced ```ts / ```typescript blocks, with the line of the markdown they start on. */
export function snippets(file: string): Snippet[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const out: Snippet[] = [];
  let open: { line: number; indent: string; body: string[] } | null = null;
  lines.forEach((text, i) => {
    const fence = /^(\s*)```(\w*)\s*$/.exec(text);
    if (open) {
      if (fence && fence[1] === open.indent) {
        out.push({ file, line: open.line, code: open.body.join('\n') });
        open = null;
      } else open.body.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
    } else if (fence && (fence[2] === 'ts' || fence[2] === 'typescript'))
      open = { line: i + 2, indent: fence[1] ?? '', body: [] };
  });
  return out;
}
