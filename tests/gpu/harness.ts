// Node side of the GPU tier: each case module becomes one describe block, each (case, backend)
// one test. A case whose needs a backend lacks is skipped with the reason in its name.
import { describe, inject, it } from 'vitest';
import puppeteer from 'puppeteer-core';
import { isFromScript } from '../../scripts/engines.mjs';
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

/**
 * What the harness needs of a page in any engine (scripts/engines.mjs: puppeteer for Chromium and
 * Firefox, selenium-webdriver for WebKit): run a function in it, and the errors it reported.
 */
export interface CasePage {
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
  /** Errors the page reported (uncaught exceptions, unhandled rejections, console.error). */
  errors: string[];
  /** Engines without events (WebDriver classic) collect errors in the page: fetch them now. */
  drainErrors?(): Promise<void>;
}

let pagePromise: Promise<CasePage> | null = null;

/** The test page in the Chromium of the global setup (one per test file). */
export async function testPage(): Promise<CasePage> {
  pagePromise ??= (async () => {
    const browser = await puppeteer.connect({
      browserWSEndpoint: inject('wsEndpoint'),
      protocolTimeout: 600_000,
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`page error: ${(e as Error).message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && isFromScript(m)) errors.push(`console.error: ${m.text()}`);
      else if (m.type() === 'log') console.log(`[page] ${m.text()}`);
    });
    await page.goto(`${inject('baseUrl')}/tests/gpu/index.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__ignisReady === true, { timeout: 60_000 });
    const evaluate = page.evaluate.bind(page) as unknown as CasePage['evaluate'];
    return { evaluate, errors };
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

/** Declares the tests of `tests/gpu/cases/<module>.ts` in Chromium. Call with top-level await. */
export async function gpuCases(module: string): Promise<void> {
  await declareCases(module, await testPage(), 'chromium');
}

/**
 * Declares the tests of `tests/gpu/cases/<module>.ts` on `page`, a page of `engine` that shows
 * tests/gpu/index.html: one test per (case, backend), named `case [engine:backend]` (a cross
 * case: `case [engine]`). A backend the engine lacks, or a capability the case needs and the
 * backend lacks, skips the test with the reason in its name.
 */
export async function declareCases(module: string, page: CasePage, engine: string): Promise<void> {
  const cases = await page.evaluate((m) => window.__ignis.list(m), module);
  const backends = await page.evaluate(() => window.__ignis.backends());
  const runOne = async (name: string, backend: string): Promise<void> => {
    await page.drainErrors?.();
    page.errors.length = 0;
    const result = await page.evaluate(
      (m, n, b) => window.__ignis.run(m, n, b),
      module,
      name,
      backend,
    );
    // a late rejection (a fence polled after the device was destroyed) lands a few tasks later
    await new Promise((r) => setTimeout(r, 20));
    await page.drainErrors?.();
    if (!result.ok) {
      const saved = result.artifacts
        ? `\n(images saved in ${saveArtifacts(module, name, `${engine}-${backend}`, result.artifacts)})`
        : '';
      throw new Error(`${engine}:${backend}: ${result.message ?? 'failed'}${saved}`);
    }
    const unexpected = page.errors.splice(0);
    if (unexpected.length > 0)
      throw new Error(
        `${engine}:${backend}: the page reported ${unexpected.length} unexpected error(s):\n${unexpected.join('\n')}`,
      );
  };
  describe(`${module} [${engine}]`, () => {
    for (const c of cases) {
      if (c.cross) {
        const title = `${c.name} [${engine}]`;
        const missing = backends.filter((b) => !b.available);
        if (missing.length > 0)
          it.skip(`${title} — skipped: ${missing.map((b) => `${b.backend} unavailable (${b.reason})`).join('; ')}`, () => {});
        else it(title, () => runOne(c.name, 'cross'));
        continue;
      }
      for (const b of backends) {
        const lacking = c.needs.filter((n) => !b.features[n]);
        const title = `${c.name} [${engine}:${b.backend}]`;
        if (!b.available)
          it.skip(`${title} — skipped: ${b.backend} unavailable (${b.reason})`, () => {});
        else if (lacking.length > 0)
          it.skip(`${title} — skipped: caps.features.${lacking.join(', ')} is false`, () => {});
        else it(title, () => runOne(c.name, b.backend));
      }
    }
  });
}
