// `npm start`, `npm test` and every other npm script must work on a fresh clone, before anything is
// installed. Their entry points may import only Node built-ins and scripts/setup.mjs until setup has
// run (regression: `npm start` failed with ERR_MODULE_NOT_FOUND: puppeteer-core on a fresh clone).
// tests/gpu/fresh-clone.gpu.test.ts proves the same end to end on a copy without node_modules.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Module specifiers of the static `import … from '…'` / `import '…'` statements of a source file. */
function staticImports(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  return [...source.matchAll(/^\s*import\s+(?:[^'"();]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  );
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const entries = [
  ...new Set(
    Object.values(pkg.scripts).flatMap((cmd) =>
      [...cmd.matchAll(/node ((?:scripts|bench)\/[\w.-]+\.mjs)/g)].map((m) => m[1] as string),
    ),
  ),
];

/** Modules the entry points may import before setup: their own imports are Node built-ins only. */
const SAFE = ['scene-args.mjs', 'entries.mjs', 'chart.mjs'];

describe('npm script entry points', () => {
  it('are found in package.json (start, test and bench among them)', () => {
    expect(entries).toEqual(
      expect.arrayContaining([
        'bench/start.mjs',
        'scripts/test.mjs',
        'bench/main.mjs',
        'scripts/setup.mjs',
      ]),
    );
  });

  for (const file of entries) {
    it(`${file} imports only Node built-ins and setup.mjs before setup has run`, () => {
      // (resolved: an entry point in bench/ reaches setup.mjs as ../scripts/setup.mjs)
      const allowed =
        file === 'scripts/setup.mjs'
          ? []
          : ['setup.mjs', ...SAFE].map((f) => path.join(ROOT, 'scripts', f));
      const offending = staticImports(file).filter(
        (s) =>
          !s.startsWith('node:') && !allowed.includes(path.resolve(ROOT, path.dirname(file), s)),
      );
      expect(
        offending,
        `${file} imports ${offending.join(', ')} statically; load it with await import() after ensureSetup()`,
      ).toEqual([]);
    });
  }

  for (const file of SAFE)
    it(`scripts/${file}, which entry points may import before setup, imports only Node built-ins`, () => {
      expect(staticImports(`scripts/${file}`).filter((s) => !s.startsWith('node:'))).toEqual([]);
    });

  it('the import scanner sees the imports that broke a fresh clone', () => {
    // the shape of the old scripts/start.mjs → bench.mjs → browser.mjs chain
    expect(staticImports('scripts/browser.mjs')).toContain('puppeteer-core');
    expect(staticImports('bench/cli.mjs')).toContain('../scripts/browser.mjs');
  });
});
