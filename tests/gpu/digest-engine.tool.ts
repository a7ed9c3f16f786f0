// The digest case (tests/gpu/cases/digest.ts) in another engine than Chromium:
// IGNIS_DIGEST_ENGINE=firefox npx vitest run --config tests/gpu/digest.config.ts
// tests/gpu/digest-engine.tool.ts prints `DIGEST <json>` after the case ran on each backend.
import { afterAll, inject, it } from 'vitest';
import { launchEngine, startDisplay } from '../../scripts/engines.mjs';
import { declareCases } from './harness.js';

declare const window: { __ignisReady?: boolean; __ignisDigest?: Record<string, string> };

const engine = process.env['IGNIS_DIGEST_ENGINE'] ?? 'firefox';
const display = await startDisplay();
const browser = await launchEngine(engine, { display: display.display });
afterAll(async () => {
  await browser.close();
  await display.stop();
});
const page = await browser.newPage();
await page.goto(`${inject('baseUrl')}/tests/gpu/index.html`);
await page.waitFor(() => window.__ignisReady === true, 60_000);
await declareCases('digest', page, engine);
it(`prints the digests of ${engine}`, async () => {
  const digests = await page.evaluate(() => window.__ignisDigest ?? {});
  const keyed = Object.fromEntries(Object.entries(digests).map(([k, v]) => [`${engine}/${k}`, v]));
  console.log(`DIGEST ${JSON.stringify(keyed)}`);
});
