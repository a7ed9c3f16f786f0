// `npm run thumbnails`: renders every demo (each folder of demos/ with a meta.ts) in the headless
// browser and saves demos/<name>/thumbnail.png (320×180) for the demo index. Run after changing a
// demo's look; the images are committed.
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { ensureSetup, ROOT } from './setup.mjs';

ensureSetup();
const { launchBrowser, openPage, startServer } = await import('./browser.mjs');

// `npm run thumbnails -- <demo> …` renders only those
const only = process.argv.slice(2);
const demos = readdirSync(path.join(ROOT, 'demos')).filter(
  (d) =>
    existsSync(path.join(ROOT, 'demos', d, 'meta.ts')) && (only.length === 0 || only.includes(d)),
);
const { browser } = await launchBrowser();
const { server, url } = await startServer();
try {
  for (const demo of demos) {
    const page = await openPage(browser, `${url}/demos/${demo}/?panel=closed`, {
      width: 640,
      height: 360,
    });
    await page.waitForFunction(() => (window.__frames ?? 0) > 10 || window.__result !== undefined, {
      timeout: 120_000,
    });
    await page.evaluate(() => {
      for (const id of ['info', 'panel'])
        document.getElementById(id)?.style.setProperty('display', 'none');
    });
    await new Promise((r) => setTimeout(r, 300));
    const file = path.join(ROOT, 'demos', demo, 'thumbnail.png');
    await page.screenshot({
      path: file,
      clip: { x: 0, y: 0, width: 640, height: 360, scale: 0.5 },
    });
    console.log(`saved ${path.relative(ROOT, file)}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
