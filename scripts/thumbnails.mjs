// `npm run thumbnails`: renders every shipped effect (effects/*.json, through the effect editor)
// into effects/thumbnails/<name>.png for the gallery, then every demo (each folder of demos/ with a
// meta.ts) in the headless browser into demos/<name>/thumbnail.png (320×180) for the demo index.
// Run after changing an effect or a demo's look; the images are committed.
import { readdirSync, existsSync, mkdirSync } from 'node:fs';
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
const effects = readdirSync(path.join(ROOT, 'effects'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .filter((e) => only.length === 0 || only.includes(e));
const { browser } = await launchBrowser();
const { server, url } = await startServer();
try {
  mkdirSync(path.join(ROOT, 'effects/thumbnails'), { recursive: true });
  for (const effect of effects) {
    // still pictures: N frames of 1/60 s (the show's rockets burst after about 1.5 s)
    const frames = effect === 'firework-show' ? 110 : 60;
    const page = await openPage(
      browser,
      `${url}/demos/editor/?effect=${effect}&frames=${frames}&draw=instanced&panel=closed`,
      { width: 640, height: 360 },
    );
    await page.waitForFunction((n) => (window.__frames ?? 0) >= n, { timeout: 120_000 }, frames);
    await page.evaluate(() => {
      for (const id of ['info', 'panel', 'problem'])
        document.getElementById(id)?.style.setProperty('display', 'none');
    });
    await new Promise((r) => setTimeout(r, 300));
    const file = path.join(ROOT, 'effects/thumbnails', `${effect}.png`);
    await page.screenshot({
      path: file,
      clip: { x: 0, y: 0, width: 640, height: 360, scale: 0.5 },
    });
    console.log(`saved ${path.relative(ROOT, file)}`);
    await page.close();
  }
  for (const demo of demos) {
    const page = await openPage(browser, `${url}/demos/${demo}/?panel=closed`, {
      width: 640,
      height: 360,
    });
    await page.waitForFunction(
      () =>
        (window.__frames ?? 0) > 10 ||
        window.__result !== undefined ||
        (window.__gallery !== undefined && Array.from(document.images).every((i) => i.complete)),
      { timeout: 120_000 },
    );
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
