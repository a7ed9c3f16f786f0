// The GPU cases in another engine than the global setup's Chromium: one browser of `engine`
// (and an Xvfb of its own) for the file, the modules that engine runs (docs/testing.md says
// which and why), every test named `case [engine:backend]`. Missing engines are skipped, naming
// what is missing.
import { afterAll, describe, inject, it } from 'vitest';
import {
  ensureEngines,
  launchEngine,
  startDisplay,
  type EngineBrowser,
} from '../../scripts/engines.mjs';
import { declareCases, type CasePage } from './harness.js';

declare const window: { __ignisReady?: boolean };

/** What a suite may do on its page: before the cases are declared, and after they ran. */
export interface SuiteHooks {
  before?(page: CasePage): Promise<void>;
  after?(page: CasePage): Promise<void>;
}

export async function engineSuite(
  engine: string,
  modules: readonly string[],
  hooks: SuiteHooks = {},
): Promise<void> {
  const status = ensureEngines([engine], { install: false })[engine];
  if (!status?.ok) {
    describe(`${engine}`, () => {
      it.skip(`every ${engine} case — skipped: ${engine} unavailable (${status?.reason ?? 'unknown'})`, () => {});
    });
    return;
  }
  const display = await startDisplay();
  let browser: EngineBrowser;
  try {
    browser = await launchEngine(engine, { display: display.display });
  } catch (e) {
    await display.stop();
    throw e;
  }
  afterAll(async () => {
    await hooks.after?.(page);
    await browser.close();
    await display.stop();
  });
  const page = await browser.newPage();
  await page.goto(`${inject('baseUrl')}/tests/gpu/index.html`);
  await page.waitFor(() => window.__ignisReady === true, 60_000);
  await hooks.before?.(page);
  for (const module of modules) await declareCases(module, page, engine);
}
