// `node scripts/screenshot.mjs <page path> [out.png] [waitMs]`: opens a page of this repo in the
// headless browser (same flags as the tests) and saves a screenshot, e.g.
//   node scripts/screenshot.mjs demos/compute-boids/ output/boids.png 2000
import path from 'node:path';
import { ensureSetup } from './setup.mjs';

ensureSetup();
const { launchBrowser, openPage, startServer } = await import('./browser.mjs');

const [page = 'demos/', out = 'output/screenshot.png', wait = '1500'] = process.argv.slice(2);
const { browser } = await launchBrowser();
const { server, url } = await startServer();
try {
  const p = await openPage(browser, `${url}/${page}`, { width: 960, height: 540 });
  await new Promise((r) => setTimeout(r, Number(wait)));
  await p.screenshot({ path: path.resolve(out) });
  console.log(`saved ${out}`);
} finally {
  await browser.close();
  await server.close();
}
