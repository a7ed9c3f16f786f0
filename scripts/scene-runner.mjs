// What ignis-check and ignis-bench share: a Vite server over the repository (and the scene's
// folder) and one headless Chromium, and `runRung`, which opens check/index.html for a scene on
// one rung, waits for its outcome within a time limit and hands back the page (to screenshot) or
// an error that names the scene and the rung (deno-scene-runner.mjs: the same under Deno). Loaded
// after setup (it imports vite and puppeteer).
import path from 'node:path';
import { URLSearchParams } from 'node:url';
import { createServer } from 'vite';
import { INSTALLED, ROOT } from './setup.mjs';
import { FRAME_TIMING_FLAGS, launchBrowser } from './browser.mjs';
import { ENTRIES } from './entries.mjs';

/**
 * `ignis-rhi` and its subpaths, for the page and the scene alike (one copy of the library): the
 * sources in the repository, the built files in an installed package.
 */
const LIBRARY_ALIASES = Object.entries(ENTRIES).map(([subpath, [source, built]]) => ({
  find: new RegExp(`^ignis-rhi${subpath ? `/${subpath}` : ''}$`),
  replacement: path.join(ROOT, INSTALLED ? `dist/${built}.js` : source),
}));

/**
 * `gpu: true` asks Chromium for a hardware adapter instead of SwiftShader (scripts/browser.mjs);
 * `timing: true` (ignis-bench) turns vsync and the frame-rate limit off; `browser`: a puppeteer
 * Browser already running to open the pages in (left running by `close()`).
 */
export async function startSceneRunner(
  scenePath,
  { gpu = false, timing = false, browser: given } = {},
) {
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    resolve: { alias: LIBRARY_ALIASES },
    server: {
      host: '127.0.0.1',
      port: 0,
      hmr: false,
      watch: null,
      fs: { allow: [ROOT, process.cwd(), path.dirname(scenePath)] },
    },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const base = `http://127.0.0.1:${server.httpServer.address().port}`;
  const browser =
    given ?? (await launchBrowser({ gpu, extraFlags: timing ? FRAME_TIMING_FLAGS : [] })).browser;
  return {
    /**
     * Runs the scene on `rung` (query: frames, dt, width, height, params, mode, warmup); returns
     * `{ outcome, page }` (close the page when done) or `{ error }`.
     */
    async runRung(sceneLabel, rung, query, timeoutSeconds) {
      const page = await browser.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await page.setViewport({ width: Number(query.width), height: Number(query.height) });
      const q = new URLSearchParams({ scene: `/@fs${scenePath}`, rung, ...query });
      let error;
      try {
        await page.goto(`${base}/check/index.html?${q}`, { waitUntil: 'load' });
        await page.waitForFunction(() => window.__check !== undefined, {
          timeout: timeoutSeconds * 1000,
        });
        const outcome = await page.evaluate(() => window.__check);
        if (!outcome.error) return { outcome, page };
        error = `${outcome.error} (at ${outcome.stage})`;
      } catch (e) {
        error = /Waiting failed|timeout/i.test(String(e))
          ? `no result within ${timeoutSeconds} s (--timeout)${pageErrors.length ? `; page errors: ${pageErrors.join('; ')}` : ''}`
          : String(e.message ?? e);
      }
      await page.close();
      return { error: `scene ${sceneLabel}, rung ${rung}: ${error}` };
    },
    async close() {
      if (!given) await browser.close();
      await server.close();
    },
  };
}
