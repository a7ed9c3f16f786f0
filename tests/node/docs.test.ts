// Docs that run: every ```ts block in the README, DEVELOPING.md and docs/ is a complete program
// (its imports, the variables it uses) and type-checks against the library; every relative link
// points at a file in the repository; the CHANGELOG has a section for package.json's version.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

import { ROOT, filesUnder, markdownFiles, snippets, type Snippet } from '../doc-snippets.js';

describe('docs that run', () => {
  const files = markdownFiles();
  const all = files.flatMap(snippets);

  it('finds the code blocks (README, docs/compute.md and docs/particles.md among them)', () => {
    const where = new Set(all.map((s) => s.file));
    for (const f of ['README.md', 'docs/compute.md', 'docs/particles.md'])
      expect(where.has(f), f).toBe(true);
  });

  it(
    'every ts block is a complete program that type-checks against the library',
    { timeout: 60_000 },
    () => {
      const dir = path.join(ROOT, 'test-output', 'doc-snippets');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const byFile = new Map<string, Snippet>();
      for (const s of all) {
        const name = path.join(dir, `${s.file.replace(/[/.]/g, '_')}_L${s.line}.ts`);
        // a snippet that says where it lives (`// file: tests/gpu/cases/example.ts`) keeps its
        // relative imports: they are resolved from that place
        const home = /^\/\/ file: (\S+)/.exec(s.code)?.[1];
        const code = home
          ? s.code.replace(
              /(from\s+')(\.\.?\/[^']+)'/g,
              (_, from: string, rel: string) =>
                `${from}${path.resolve(ROOT, path.dirname(home), rel)}'`,
            )
          : s.code;
        // `export {}` keeps each snippet a module of its own even where it imports nothing
        writeFileSync(name, `${code}\nexport {};\n`);
        byFile.set(name, s);
      }
      const program = ts.createProgram([...byFile.keys()], {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: ['@webgpu/types', 'vite/client'],
        typeRoots: [path.join(ROOT, 'node_modules', '@types'), path.join(ROOT, 'node_modules')],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        baseUrl: ROOT,
        paths: {
          'ignis-rhi': ['src/index.ts'],
          'ignis-rhi/compute': ['src/compute/index.ts'],
          'ignis-rhi/portable': ['src/compute/portable/index.ts'],
          'ignis-rhi/particles': ['src/particles/index.ts'],
          'ignis-rhi/postfx': ['src/postfx/index.ts'],
          'ignis-rhi/effects': ['src/effects/index.ts'],
          'ignis-rhi/testing': ['src/testing.ts'],
        },
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file && byFile.has(path.normalize(d.file.fileName)))
        .map((d) => {
          const s = byFile.get(path.normalize(d.file!.fileName))!;
          const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
          return `${s.file}:${s.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
        });
      expect(problems, problems.join('\n')).toEqual([]);
    },
  );

  it('every relative link points at a file or folder in the repository', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = (m[1] as string).split('#')[0] as string;
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(path.resolve(path.join(ROOT, path.dirname(file)), target)))
          broken.push(`${file}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the CHANGELOG has a section for the version in package.json', () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?( |$)`, 'm'),
    );
  });
  it('docs/errors.md lists every validation rule the source throws', () => {
    const rules = new Set<string>();
    for (const file of filesUnder('src', '.ts'))
      for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(
        /new ValidationError\(\s*'([a-z0-9-]+)'/g,
      ))
        rules.add(m[1] as string);
    const doc = readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8');
    expect(rules.size).toBeGreaterThan(100);
    expect([...rules].filter((r) => !doc.includes(`\`${r}\``))).toEqual([]);
  });
});
