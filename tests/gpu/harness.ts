// Node side of the GPU tier: each case module becomes one describe block, each (case, backend)
// one test. A case whose needs a backend lacks is skipped with the reason in its name.
import { describe, inject, it } from 'vitest';
import puppeteer, { type Page } from 'puppeteer-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface BackendInfo {
  backend: 'webgpu' | 'webgl2';
  available: boolean;
  reason: string;
  features: Record<string, boolean>;
}

interface IgnisPage {
  list(module: string): Promise<Array<{ name: string; needs: string[]; cross: boolean }>>;
  run(
    module: string,
    name: string,
    backend: string,
  ): Promise<{ ok: boolean; message?: string; artifacts?: Record<string, string> }>;
  backends(): Promise<BackendInfo[]>;
}
declare const window: { __ignis: IgnisPage; __ignisReady?: boolean };

let pagePromise: Promise<Page> | null = null;

/**
 * Errors the page reported (uncaught exceptions, unhandled rejections, console.error) since the
 * last check. A case that expects an error catches it or listens with `device.onError`; anything
 * that reaches here fails the test that was running.
 */
const pageErrors: string[] = [];

export async function testPage(): Promise<Page> {
  pagePromise ??= (async () => {
    const browser = await puppeteer.connect({
      browserWSEndpoint: inject('wsEndpoint'),
      protocolTimeout: 600_000,
    });
    const page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(`page error: ${(e as Error).message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`console.error: ${m.text()}`);
      else if (m.type() === 'log') console.log(`[page] ${m.text()}`);
    });
    await page.goto(`${inject('baseUrl')}/tests/gpu/index.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__ignisReady === true, { timeout: 60_000 });
    return page;
  })();
  return pagePromise;
}

function saveArtifacts(
  module: string,
  name: string,
  backend: string,
  artifacts: Record<string, string>,
): string {
  const dir = path.resolve('test-output', module, `${name.replace(/[^\w-]+/g, '_')}-${backend}`);
  mkdirSync(dir, { recursive: true });
  for (const [file, dataUrl] of Object.entries(artifacts)) {
    writeFileSync(path.join(dir, file), Buffer.from(dataUrl.replace(/^data:[^,]*,/, ''), 'base64'));
  }
  return dir;
}

/** Declares the tests of `tests/gpu/cases/<module>.ts`. Call with top-level await. */
export async function gpuCases(module: string): Promise<void> {
  const page = await testPage();
  const cases = await page.evaluate((m) => window.__ignis.list(m), module);
  const backends = await page.evaluate(() => window.__ignis.backends());
  const runOne = async (name: string, backend: string): Promise<void> => {
    pageErrors.length = 0;
    const result = await page.evaluate(
      (m, n, b) => window.__ignis.run(m, n, b),
      module,
      name,
      backend,
    );
    // a late rejection (a fence polled after the device was destroyed) lands a few tasks later
    await new Promise((r) => setTimeout(r, 20));
    if (!result.ok) {
      const saved = result.artifacts
        ? `\n(images saved in ${saveArtifacts(module, name, backend, result.artifacts)})`
        : '';
      throw new Error(`${result.message ?? 'failed'}${saved}`);
    }
    const unexpected = pageErrors.splice(0);
    if (unexpected.length > 0)
      throw new Error(
        `the page reported ${unexpected.length} unexpected error(s):\n${unexpected.join('\n')}`,
      );
  };
  describe(module, () => {
    for (const c of cases) {
      if (c.cross) {
        const missing = backends.filter((b) => !b.available);
        if (missing.length > 0)
          it.skip(`${c.name} — skipped: ${missing.map((b) => `${b.backend} unavailable (${b.reason})`).join('; ')}`, () => {});
        else it(c.name, () => runOne(c.name, 'cross'));
        continue;
      }
      for (const b of backends) {
        const lacking = c.needs.filter((n) => !b.features[n]);
        const title = `${c.name} [${b.backend}]`;
        if (!b.available)
          it.skip(`${title} — skipped: ${b.backend} unavailable (${b.reason})`, () => {});
        else if (lacking.length > 0)
          it.skip(`${title} — skipped: caps.features.${lacking.join(', ')} is false`, () => {});
        else it(title, () => runOne(c.name, b.backend));
      }
    }
  });
}
