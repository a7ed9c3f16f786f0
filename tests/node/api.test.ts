// The public surface is deliberate: api/report.md lists every name each entry point exports (with
// its kind and signature); this test regenerates it from the sources and fails when it differs.
// After an intended change: `npm run api`, and commit the report with the change.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain .mjs script without declarations
import { apiReport, ENTRIES, REPORT } from '../../scripts/api-report.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, unknown>;
};

describe('public API', () => {
  it('the report covers every entry point of package.json "exports"', () => {
    const entries = Object.keys(ENTRIES as Record<string, string>).map((e) =>
      e === 'ignis-rhi' ? '.' : e.replace('ignis-rhi', '.'),
    );
    expect(entries.sort()).toEqual(Object.keys(pkg.exports).sort());
  });

  it('api/report.md is what the sources export (run `npm run api` after a deliberate change)', async () => {
    const { markdown } = (await apiReport()) as { markdown: string };
    expect(markdown).toEqual(readFileSync(REPORT as string, 'utf8'));
  }, 60_000);

  it('every exported name has a doc comment', async () => {
    const { undocumented } = (await apiReport()) as { undocumented: string[] };
    expect(undocumented).toEqual([]);
  }, 60_000);

  it('internals stay out of the package root', async () => {
    const { markdown } = (await apiReport()) as { markdown: string };
    const root = markdown.split('\n## ignis-rhi/')[0] as string;
    for (const internal of [
      'unreachable',
      'outsidePass',
      'Command',
      'PassRecorder',
      'toWgsl',
      'pcg',
      'NullDevice',
    ])
      expect(root, internal).not.toMatch(new RegExp(`\`${internal}[\`(]`));
  }, 60_000);

  it('`npm run docs` builds the API reference from the doc comments (TypeDoc, warnings are errors)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-typedoc-'));
    try {
      const root = path.resolve(__dirname, '../..');
      execFileSync(path.join(root, 'node_modules/.bin/typedoc'), ['--out', out], {
        cwd: root,
        stdio: 'pipe',
      });
      for (const entry of Object.keys(ENTRIES as Record<string, string>))
        expect(
          existsSync(path.join(out, 'modules', `${entry.replace('/', '_')}.html`)),
          entry,
        ).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
