// `npm start`: opens headless Chromium, creates a device on every backend, renders a frame on
// each, prints what each backend reports (caps) and saves a screenshot per backend in output/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './setup.mjs';
import { launchBrowser, openPage, startServer } from './browser.mjs';

const out = path.join(ROOT, 'output');
mkdirSync(out, { recursive: true });
const { browser } = await launchBrowser();
const { server, url } = await startServer();
const rows = [];
try {
  for (const backend of ['webgpu', 'webgl2']) {
    const page = await openPage(browser, `${url}/demos/hello-triangle/?backend=${backend}`, { width: 640, height: 360 });
    try {
      await page.waitForFunction(() => window.__result !== undefined, { timeout: 60_000 });
      const info = await page.evaluate(() => window.__result);
      const file = path.join(out, `start-${backend}.png`);
      await page.screenshot({ path: file });
      rows.push({ backend, info, file });
    } catch (e) {
      rows.push({ backend, error: e instanceof Error ? e.message : String(e) });
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
for (const r of rows) {
  console.log(`\n== ${r.backend} ==`);
  if (r.error) {
    console.log(`  unavailable: ${r.error}`);
    continue;
  }
  const { adapter, features, limits } = r.info;
  console.log(`  adapter   ${adapter.vendor} / ${adapter.architecture} ${adapter.description}`);
  console.log(`  features  ${Object.entries(features).map(([k, v]) => `${k}=${v ? 'yes' : 'no'}`).join('  ')}`);
  console.log(`  limits    ${Object.entries(limits).map(([k, v]) => `${k}=${v}`).join('  ')}`);
  console.log(`  frame     ${path.relative(ROOT, r.file)}`);
}
process.exit(rows.every((r) => !r.error) ? 0 : 1);
