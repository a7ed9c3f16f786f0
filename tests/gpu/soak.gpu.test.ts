// The soak (tests/gpu/cases/soak.ts): a short one in Chromium here (Firefox and WebKit run it
// through engine-modules.ts); with IGNIS_SOAK_FRAMES set (`npm run soak`), that many frames in
// every engine, each run's samples written to test-output/soak/<engine>.json for the curves.
import { afterAll } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gpuCases, testPage, type CasePage } from './harness.js';
import { engineSuite } from './engine-suite.js';

declare const window: { __ignisSoakFrames?: number; __ignisSoak?: Record<string, unknown> };

const frames = Number(process.env['IGNIS_SOAK_FRAMES'] ?? 0);

async function setFrames(page: CasePage): Promise<void> {
  if (frames > 0)
    await page.evaluate((n) => {
      window.__ignisSoakFrames = n;
    }, frames);
}

async function save(engine: string, page: CasePage): Promise<void> {
  if (frames <= 0) return;
  const runs = await page.evaluate(() => window.__ignisSoak ?? {});
  const dir = path.resolve('test-output', 'soak');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${engine}.json`), JSON.stringify({ engine, frames, runs }));
}

const page = await testPage();
await setFrames(page);
await gpuCases('soak');
afterAll(() => save('chromium', page));

if (frames > 0)
  for (const engine of ['firefox', 'webkit'])
    await engineSuite(engine, ['soak'], {
      before: setFrames,
      after: (p) => save(engine, p),
    });
