// Docs that run, in the browser: every ```ts block of the README, DEVELOPING.md and docs/ that
// opens a device is loaded as a page's program (tests/gpu/docs/index.html) on WebGPU and, with
// navigator.gpu hidden, on the WebGL2 fallback; it runs for a few seconds and must report no
// error (uncaught, unhandled rejection, console.error), and a snippet with an animation loop must
// have run frames. tests/node/docs.test.ts type-checks the same blocks.
import { describe, expect, inject, it } from 'vitest';
import puppeteer from 'puppeteer-core';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, markdownFiles, snippets } from '../doc-snippets.js';

/**
 * How long a snippet runs after its top level finished: a few frames of a 100k-particle loop; a
 * snippet without a loop, long enough for a late rejection to land.
 */
const LOOP_MS = 3000;
const ONCE_MS = 300;

interface DocRun {
  settled: boolean;
  errors: string[];
  frames: number;
}

const dir = path.join(ROOT, 'test-output', 'doc-pages');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const runnable = markdownFiles()
  .flatMap(snippets)
  .filter((s) => /\bcreateDevice\(/.test(s.code));

const browser = await puppeteer.connect({
  browserWSEndpoint: inject('wsEndpoint'),
  protocolTimeout: 600_000,
});

async function runSnippet(
  file: string,
  backend: 'webgpu' | 'webgl2',
  runMs: number,
): Promise<DocRun> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 256, height: 256 });
    const q = new URLSearchParams({ snippet: `/test-output/doc-pages/${file}`, backend });
    await page.goto(`${inject('baseUrl')}/tests/gpu/docs/index.html?${q}`, { waitUntil: 'load' });
    await page.waitForFunction(
      () => {
        const d = (window as unknown as { __doc?: DocRun }).__doc;
        return d !== undefined && (d.settled || d.errors.length > 0);
      },
      { timeout: 120_000, polling: 100 },
    );
    await new Promise((r) => setTimeout(r, runMs));
    return await page.evaluate(() => {
      const d = (window as unknown as { __doc: DocRun }).__doc;
      return { settled: d.settled, errors: [...d.errors], frames: d.frames };
    });
  } finally {
    await page.close();
  }
}

describe('docs snippets run [chromium]', () => {
  it('finds the README particle loop among the snippets that open a device', () => {
    expect(
      runnable.some((s) => s.file === 'README.md' && /requestAnimationFrame/.test(s.code)),
    ).toBe(true);
  });
  for (const s of runnable) {
    const file = `${s.file.replace(/[/.]/g, '_')}_L${s.line}.ts`;
    writeFileSync(path.join(dir, file), `${s.code}\nexport {};\n`);
    const loop = /requestAnimationFrame/.test(s.code);
    // a snippet that asks for WebGPU by name shows a WebGPU-only feature: its WebGL2 run is the
    // typed WebGPUUnavailableError, not the snippet
    const webgpuOnly = /backend: 'webgpu'/.test(s.code);
    for (const backend of ['webgpu', 'webgl2'] as const) {
      const title = `${s.file}:${s.line} [chromium:${backend}]`;
      if (backend === 'webgl2' && webgpuOnly) {
        it.skip(`${title} — skipped: the snippet asks for backend 'webgpu'`, () => {});
        continue;
      }
      it(title, { timeout: 150_000 }, async () => {
        const r = await runSnippet(file, backend, loop ? LOOP_MS : ONCE_MS);
        expect(r.errors, `${s.file}:${s.line} on ${backend}`).toEqual([]);
        expect(r.settled).toBe(true);
        if (loop) expect(r.frames).toBeGreaterThan(1);
      });
    }
  }
});
