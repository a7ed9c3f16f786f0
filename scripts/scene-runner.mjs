// What ignis-check and ignis-bench share: a Vite server over the repository (and the scene's
// folder) and one browser of an engine (scripts/engines.mjs: Chromium, Firefox, WebKit, launched
// here or already running elsewhere), and `runRung`, which opens check/index.html for a scene on
// one rung, waits for its outcome within a time limit and hands back the page (to screenshot) or
// an error that names the scene, the engine and the rung (deno-scene-runner.mjs: the same under
// Deno). Loaded after setup (it imports vite and puppeteer).
import path from 'node:path';
import { URLSearchParams } from 'node:url';
import { INSTALLED, ROOT } from './setup.mjs';
import { libraryAliases } from './entries.mjs';
// vite, puppeteer and the engines are imported where a browser runs: ignis-bench --runtime deno
// uses this module's pool and time limits on a GPU server that has no node_modules at all

/**
 * `engine`: 'chromium' (default), 'firefox' or 'webkit', launched here (Firefox and WebKit on an
 * Xvfb of their own); `connect`: an endpoint of a browser already running (ws:// for CDP or
 * WebDriver BiDi, http:// for WebDriver), used instead. `gpu: true` asks Chromium for a hardware
 * adapter instead of SwiftShader (scripts/browser.mjs); `timing: true` (ignis-bench) turns
 * Chromium's vsync and frame-rate limit off; `browser`: a puppeteer Browser or an engine browser
 * already running to open the pages in (left running by `close()`).
 */
/**
 * `promise`, or an error naming `what` after `ms`: a browser that stops answering (a new page under
 * load, a screenshot of a page that presents no new frame) would otherwise hold the whole run until
 * the protocol's 10-minute timeout — what two full `npm test` runs here saw once each, in a scene-kit
 * run spawned by a test, and could not reproduce alone.
 */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How long opening, screenshotting or closing a page may take. */
export const PAGE_MS = 60_000;

/**
 * A rung's state as numbers: check/run-scene.ts sends it as one string of its bytes (`{ type: 'f32'
 * | 'f64', base64 }`; a list of millions of numbers crashed Firefox's content process). Null stays
 * null.
 */
export function decodeState(encoded) {
  if (encoded == null) return null;
  const bytes = Buffer.from(encoded.base64, 'base64');
  // (copied to a buffer of its own: Buffer's pool gives no alignment for a typed array)
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return encoded.type === 'f64' ? new Float64Array(buffer) : new Float32Array(buffer);
}

export async function startSceneRunner(
  scenePath,
  { engine, connect, gpu = false, timing = false, browser: given } = {},
) {
  const { createServer } = await import('vite');
  const { FRAME_TIMING_FLAGS } = await import('./browser.mjs');
  const { connectEngine, fromPuppeteer, launchEngine, startDisplay } =
    await import('./engines.mjs');
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    resolve: { alias: libraryAliases(ROOT, INSTALLED) },
    server: {
      host: '127.0.0.1',
      port: 0,
      hmr: false,
      watch: null,
      fs: { allow: [ROOT, process.cwd(), path.dirname(scenePath)] },
    },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  let display = null;
  let browser;
  try {
    await server.listen();
    if (given) browser = given.newPage && given.engine ? given : fromPuppeteer(given);
    // a connected browser says what engine it is (its version string), unless `engine` is given
    else if (connect) browser = await connectEngine(connect, engine ? { engine } : {});
    else {
      if (engine && engine !== 'chromium') display = await startDisplay();
      browser = await launchEngine(engine ?? 'chromium', {
        display: display?.display,
        gpu,
        extraFlags: timing ? FRAME_TIMING_FLAGS : [],
      });
    }
  } catch (e) {
    await display?.stop();
    await server.close();
    throw e;
  }
  const base = `http://127.0.0.1:${server.httpServer.address().port}`;
  const name = browser.engine;
  return {
    engine: name,
    version: () => browser.version(),
    /**
     * Runs the scene on `rung` (query: frames, dt, width, height, params, mode, warmup); returns
     * `{ outcome, page }` (close the page when done) or `{ error }`.
     */
    async runRung(sceneLabel, rung, query, timeoutSeconds) {
      let page;
      let error;
      try {
        page = await withTimeout(browser.newPage(), PAGE_MS, 'opening a page');
        await page.setViewport(Number(query.width), Number(query.height));
        const q = new URLSearchParams({ scene: `/@fs${scenePath}`, rung, ...query });
        await page.goto(`${base}/check/index.html?${q}`);
        await page.waitFor(() => window.__check !== undefined, timeoutSeconds * 1000);
        const outcome = await page.evaluate(() => window.__check);
        // (Firefox's page answers undefined once its content process has crashed)
        if (outcome == null)
          error = 'the page gave no outcome: its process ended (a crash) or it navigated away';
        else if (!outcome.error) return { outcome, page };
        else error = `${outcome.error} (at ${outcome.stage})`;
      } catch (e) {
        await page?.drainErrors?.().catch(() => {});
        const seen = page?.errors ?? [];
        error = /Waiting failed|timeout/i.test(String(e))
          ? `no result within ${timeoutSeconds} s (--timeout)${seen.length ? `; page errors: ${seen.join('; ')}` : ''}`
          : String(e.message ?? e);
      }
      await withTimeout(page?.close() ?? Promise.resolve(), PAGE_MS, 'closing the page').catch(
        () => {},
      );
      return {
        error: `scene ${sceneLabel}, ${name === 'chromium' ? '' : `${name} `}rung ${rung}: ${error}`,
      };
    },
    async close() {
      if (!given) await browser.close().catch(() => {});
      await display?.stop();
      await server.close();
    },
  };
}

/**
 * Runners for `engines` (one browser each, launched here), or for the `connect` endpoints (one
 * runner each, its engine told by the browser itself). `run(cells, fn)` calls `fn(runner, cell)`
 * for every cell ({ engine, … }) on a runner of its engine — a runner's cells one after another;
 * connected runners side by side, an engine's cells dealt round-robin across its endpoints
 * (sharding); launched runners one after another —
 * and resolves to the results in the cells' order. A cell whose engine has no runner gets
 * `{ missing: reason }`.
 */
export async function startRunners(scenePath, { engines = [], connect = [], ...options } = {}) {
  const runners = [];
  try {
    if (connect.length > 0)
      for (const endpoint of connect)
        runners.push(await startSceneRunner(scenePath, { ...options, connect: endpoint }));
    else
      for (const engine of engines)
        runners.push(await startSceneRunner(scenePath, { ...options, engine }));
  } catch (e) {
    await Promise.all(runners.map((r) => r.close()));
    throw e;
  }
  return {
    runners,
    engines: [...new Set(runners.map((r) => r.engine))],
    async run(cells, fn) {
      const results = new Array(cells.length);
      const queues = new Map(runners.map((r) => [r, []]));
      const dealt = new Map();
      cells.forEach((cell, i) => {
        const mine = runners.filter((r) => r.engine === cell.engine);
        if (mine.length === 0) {
          results[i] = {
            missing:
              connect.length > 0
                ? `no --connect endpoint is a ${cell.engine} browser (they are: ${runners.map((r) => r.engine).join(', ')})`
                : `${cell.engine} is not running`,
          };
          return;
        }
        const n = dealt.get(cell.engine) ?? 0;
        dealt.set(cell.engine, n + 1);
        queues.get(mine[n % mine.length]).push(i);
      });
      const drain = async ([runner, indices]) => {
        for (const i of indices) results[i] = await fn(runner, cells[i]);
      };
      // browsers elsewhere run side by side; those launched here share this machine's cores, and
      // one at a time keeps them from timing each other
      if (connect.length > 0) await Promise.all([...queues].map(drain));
      else for (const q of queues) await drain(q);
      return results;
    },
    async close() {
      await Promise.all(runners.map((r) => r.close()));
    },
  };
}

/** One runner (a given browser's, or Deno's) as a pool: every cell on it, in order. */
export function poolOf(runner) {
  return {
    runners: [runner],
    engines: [runner.engine],
    async run(cells, fn) {
      const results = [];
      for (const cell of cells) results.push(await fn(runner, cell));
      return results;
    },
    close: () => runner.close(),
  };
}

/**
 * The engines a CLI runs in: `browsers` (each installed now if missing, an error naming the fix
 * if it cannot be), else with `connect` whatever the endpoints are (null), else those installed.
 */
export async function chooseEngines({ browsers, connect }, tool) {
  const { ensureEngines, ENGINE_NAMES } = await import('./engines.mjs');
  if (browsers) {
    if (connect) return browsers;
    const status = ensureEngines(browsers);
    const missing = browsers.filter((b) => !status[b].ok);
    if (missing.length)
      throw new Error(
        `${tool}: --browsers asks for ${missing.map((b) => `${b}, which is unavailable (${status[b].reason})`).join('; ')}`,
      );
    return browsers;
  }
  if (connect) return null;
  const status = ensureEngines(ENGINE_NAMES, { install: false });
  return ENGINE_NAMES.filter((b) => status[b].ok);
}
