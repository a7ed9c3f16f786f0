// The bench page (bench/page/index.html?noop=1, served cross-origin isolated: 5 µs clock steps) in
// Chromium or Firefox, for the tools that time frames in a page (cpu-draws.mjs,
// cpu-probe-draws.mjs), Chromium with `extraFlags` beside its own. `close()` stops the server, the
// browser and Firefox's X display.
import { launchEngine, startDisplay, ensureEngines } from '../scripts/engines.mjs';
import { startServer } from '../scripts/browser.mjs';

export async function openBenchPage(browserName, tool, extraFlags = []) {
  if (browserName !== 'chromium' && browserName !== 'firefox')
    throw new Error(`${tool}: --browser ${browserName} is not chromium or firefox`);
  ensureEngines([browserName]);
  const display = browserName === 'chromium' ? null : await startDisplay();
  const engine = await launchEngine(browserName, { display: display?.display, extraFlags });
  const { server, url } = await startServer({ crossOriginIsolated: true });
  const close = async () => {
    await server.close();
    await engine.close();
    await display?.stop();
  };
  try {
    const page = await engine.newPage();
    await page.goto(`${url}/bench/page/index.html?noop=1`);
    return { page, engine, close };
  } catch (e) {
    await close();
    throw e;
  }
}
