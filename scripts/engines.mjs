// The three browser engines the tests, ignis-check and ignis-bench drive, behind one small page
// interface: Chromium (puppeteer over CDP; Dawn and ANGLE on SwiftShader), Firefox (puppeteer
// over WebDriver BiDi; wgpu on lavapipe, WebGL2 on llvmpipe) and WebKitGTK (selenium-webdriver
// over classic WebDriver; WebGL2 on llvmpipe, no WebGPU on Linux). Firefox and WebKit need an X
// display even headless: `startDisplay()` runs an Xvfb of our own and stops it by its pid.
// docs/testing.md says what each engine taught. Loaded after setup (imports puppeteer lazily).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { ensureBrowser, isDebian } from './setup.mjs';
import { browserFlags } from './browser.mjs';

export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'];

/** What each engine is made of on Debian: its binaries and the packages that bring them. */
const ENGINES = {
  firefox: {
    binaries: ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
    env: 'FIREFOX_PATH',
    packages: ['firefox-esr', 'xvfb', 'mesa-vulkan-drivers'],
  },
  webkit: {
    binaries: ['/usr/bin/WebKitWebDriver'],
    env: 'WEBKIT_DRIVER_PATH',
    packages: ['webkit2gtk-driver', 'xvfb'],
  },
};

/** WebKitGTK's browser for automation (libwebkit2gtk-4.1-0, which webkit2gtk-driver pulls in). */
const MINIBROWSER = [
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
];

const XVFB = '/usr/bin/Xvfb';

function resolves(name) {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

function found(engine) {
  const e = ENGINES[engine];
  const fromEnv = process.env[e.env];
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return e.binaries.find((p) => existsSync(p)) ?? null;
}

/**
 * Which of `names` can run here, installing the missing ones with apt-get where this is Debian and
 * we are root. Returns `{ engine: { ok: true, executable } | { ok: false, reason } }`; never exits.
 */
export function ensureEngines(names, { install = true } = {}) {
  const out = {};
  const missing = [];
  for (const name of names) {
    if (name === 'chromium') out.chromium = { ok: true, executable: ensureBrowser() };
    else if (!ENGINES[name]) out[name] = { ok: false, reason: `unknown engine ${name}` };
    else if (name === 'webkit' && !resolves('selenium-webdriver'))
      out[name] = {
        ok: false,
        reason:
          'WebKit is driven through selenium-webdriver, which is not installed: npm install --save-dev selenium-webdriver@4.46.0',
      };
    else if (found(name) && existsSync(XVFB)) out[name] = { ok: true, executable: found(name) };
    else missing.push(name);
  }
  if (missing.length === 0) return out;
  const packages = [...new Set(missing.flatMap((n) => ENGINES[n].packages))];
  let why = null;
  if (!install) why = 'not installed';
  else if (!isDebian())
    why = `not installed, and this is not Debian (install ${packages.join(' ')})`;
  else if (typeof process.getuid === 'function' && process.getuid() !== 0)
    why = `not installed, and apt-get needs root: sudo apt-get install -y ${packages.join(' ')}`;
  else {
    console.log(
      `ignis setup: installing ${packages.join(' ')} (apt-get) for ${missing.join(', ')}`,
    );
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
    if (!(
      apt(['install', '-y', '-qq', ...packages]) ||
      (apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...packages]))
    ))
      why = `apt-get could not install ${packages.join(' ')}`;
  }
  for (const name of missing) {
    const executable = found(name);
    out[name] =
      executable && existsSync(XVFB)
        ? { ok: true, executable }
        : {
            ok: false,
            reason: why ?? `${ENGINES[name].packages[0]} installed but no binary found`,
          };
  }
  return out;
}

/**
 * Helper processes started here (Xvfb, WebKitWebDriver): stopped when this process ends, even by
 * a signal (a CI time limit, Ctrl-C), so no display or driver outlives the run. Puppeteer stops the
 * browsers it launched itself.
 */
const helpers = new Set();
let stopHelpersOnExit = false;

function track(child) {
  helpers.add(child);
  child.once('exit', () => helpers.delete(child));
  if (!stopHelpersOnExit) {
    stopHelpersOnExit = true;
    process.once('exit', () => {
      for (const c of helpers) c.kill();
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
      process.once(signal, () =>
        process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)),
      );
  }
  return child;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Resolves when something listens on 127.0.0.1:`port`; rejects after `ms`, or as soon as `child`
 * (the process meant to listen) exits, with its exit code.
 */
async function waitForPort(port, ms, what, child) {
  const end = Date.now() + ms;
  let exited = null;
  child?.once('exit', (code, signal) => (exited = signal ?? code));
  for (;;) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => (c.end(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (exited !== null)
      throw new Error(`${what} exited (${exited}) before it listened on 127.0.0.1:${port}`);
    if (Date.now() > end)
      throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A WebKitWebDriver listening on a free loopback port (no session yet): its http:// endpoint.
 * Waits up to a minute — on a loaded 2-core machine the driver can take well over ten seconds to
 * listen (a CI run failed at 10 s) — and fails at once, with its exit code, if it exits first.
 */
export async function startWebKitDriver(env = process.env, { ms = 60_000 } = {}) {
  const port = await freePort();
  const child = spawn(found('webkit'), [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: 'ignore',
    env,
  });
  try {
    await waitForPort(port, ms, 'WebKitWebDriver', child);
  } catch (e) {
    child.kill();
    throw e;
  }
  return { endpoint: `http://127.0.0.1:${port}`, process: child, close: () => child.kill() };
}

/**
 * An X display of our own for Firefox and WebKit (both open X even headless). Picks a free display
 * number; `stop()` kills the server by its pid.
 */
export async function startDisplay() {
  for (let n = 90 + Math.floor(Math.random() * 100); n < 400; n++) {
    if (existsSync(`/tmp/.X${n}-lock`) || existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const child = track(
      spawn(XVFB, [`:${n}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
        stdio: 'ignore',
      }),
    );
    const started = await new Promise((resolve) => {
      const t0 = Date.now();
      const poll = () => {
        if (existsSync(`/tmp/.X11-unix/X${n}`)) resolve(true);
        else if (child.exitCode !== null || Date.now() - t0 > 10_000) resolve(false);
        else setTimeout(poll, 50);
      };
      child.once('exit', () => resolve(false));
      poll();
    });
    if (started)
      return {
        display: `:${n}`,
        async stop() {
          if (child.exitCode === null) child.kill();
        },
      };
    child.kill();
  }
  throw new Error('Xvfb could not start on any display from :90 to :399');
}

/**
 * A console message a script logged (it has a JavaScript stack), as opposed to the browser's own
 * diagnostics: Firefox prints each WebGPU shader module's compilation errors to the console itself
 * (no stack), which Ignis has already reported as a typed ShaderCompileError.
 */
export function isFromScript(message) {
  return message.stackTrace().length > 0;
}

/** A page of any engine: navigation, script, screenshots, and the errors it reported. */
class PuppeteerEnginePage {
  constructor(page) {
    this.page = page;
    this.errors = [];
    page.on('pageerror', (e) => this.errors.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && isFromScript(m)) this.errors.push(`console.error: ${m.text()}`);
    });
  }
  async setViewport(width, height) {
    await this.page.setViewport({ width, height });
  }
  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load' });
  }
  /** Runs `fn` (a function, serialised) with `args` in the page and returns its (awaited) result. */
  async evaluate(fn, ...args) {
    return this.page.evaluate(fn, ...args);
  }
  async waitFor(fn, timeoutMs) {
    await this.page.waitForFunction(fn, { timeout: timeoutMs, polling: 100 });
  }
  /** PNG bytes of the first element matching `selector`. */
  async screenshot(selector) {
    const element = await this.page.$(selector);
    if (!element) throw new Error(`no ${selector} in the page to screenshot`);
    return Buffer.from(await element.screenshot({ type: 'png' }));
  }
  async close() {
    await this.page.close();
  }
}

/**
 * A WebKit page over classic WebDriver: no events, so the page's own collector
 * (`window.__ignisErrors`, installed at navigation) is read for errors.
 */
class WebDriverEnginePage {
  constructor(driver, handle, onClose) {
    this.driver = driver;
    this.handle = handle;
    this.onClose = onClose;
    this.errors = [];
  }
  async setViewport(width, height) {
    // WebDriver sizes the outer window: grow it by what the browser's own chrome takes, so the
    // page's viewport (and an element screenshot) is width × height
    const win = this.driver.manage().window();
    await this.driver.switchTo().window(this.handle);
    await win.setRect({ width, height });
    const [w, h] = await this.driver.executeScript('return [innerWidth, innerHeight];');
    if (w !== width || h !== height)
      await win.setRect({ width: 2 * width - w, height: 2 * height - h });
  }
  async goto(url) {
    await this.driver.switchTo().window(this.handle);
    await this.driver.get(url);
    await this.driver.executeScript(COLLECT_ERRORS);
  }
  async evaluate(fn, ...args) {
    await this.driver.switchTo().window(this.handle);
    const r = await this.driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve()
         .then(() => (${fn.toString()})(...Array.from(arguments).slice(0, -1)))
         .then((value) => done({ value }), (e) => done({ thrown: String((e && e.stack) || e) }));`,
      ...args,
    );
    await this.drainErrors();
    if (r && 'thrown' in r) throw new Error(r.thrown);
    return r?.value;
  }
  async drainErrors() {
    const seen = await this.driver.executeScript(
      'const e = window.__ignisErrors || []; window.__ignisErrors = []; return e;',
    );
    this.errors.push(...(seen ?? []));
  }
  async waitFor(fn, timeoutMs) {
    const end = Date.now() + timeoutMs;
    while (!(await this.evaluate(fn))) {
      if (Date.now() > end) throw new Error(`Waiting failed: timeout ${timeoutMs} ms exceeded`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async screenshot(selector) {
    await this.driver.switchTo().window(this.handle);
    const { By } = await importSelenium();
    const element = await this.driver.findElement(By.css(selector));
    return Buffer.from(await element.takeScreenshot(), 'base64');
  }
  async close() {
    await this.driver.switchTo().window(this.handle);
    await this.driver.get('about:blank');
    this.onClose(this.handle);
  }
}

/** selenium-webdriver (an optional peer of the installed kit: WebKit and http:// endpoints need it). */
async function importSelenium() {
  try {
    return await import('selenium-webdriver');
  } catch {
    throw new Error(
      'WebKit and WebDriver endpoints need selenium-webdriver, which your project does not have: npm install --save-dev selenium-webdriver@4.46.0',
    );
  }
}

/** Installed in each WebDriver page: errors the page reports, kept for `drainErrors`. */
const COLLECT_ERRORS = `
  if (!window.__ignisErrors) {
    window.__ignisErrors = [];
    addEventListener('error', (e) => window.__ignisErrors.push('page error: ' + e.message));
    addEventListener('unhandledrejection', (e) =>
      window.__ignisErrors.push('page error: ' + ((e.reason && e.reason.message) || e.reason)));
    const error = console.error.bind(console);
    console.error = (...a) => { window.__ignisErrors.push('console.error: ' + a.join(' ')); error(...a); };
  }`;

/**
 * Launches `engine` ('chromium' | 'firefox' | 'webkit'); `display` (from startDisplay) is needed by
 * Firefox and WebKit. `gpu`/`timing`: Chromium's hardware-adapter and frame-timing flags.
 * Returns `{ engine, version, newPage(), close() }`.
 */
export async function launchEngine(engine, { display, gpu = false, extraFlags = [] } = {}) {
  if (engine === 'chromium') {
    const { default: puppeteer } = await import('puppeteer-core');
    const executablePath = ensureBrowser();
    const browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: [...browserFlags({ gpu, extraFlags })],
      protocolTimeout: 600_000,
    });
    return puppeteerEngine('chromium', browser, true);
  }
  if (!display) throw new Error(`${engine} needs an X display: startDisplay() first`);
  const env = { ...process.env, DISPLAY: display };
  if (engine === 'firefox') {
    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: found('firefox'),
      headless: true,
      env,
      protocolTimeout: 600_000,
      extraPrefsFirefox: FIREFOX_PREFS,
    });
    return puppeteerEngine('firefox', browser, true);
  }
  if (engine === 'webkit') {
    const driver = await startWebKitDriver(env);
    track(driver.process);
    try {
      return await connectWebDriver(driver.endpoint, {
        engine: 'webkit',
        capabilities: webkitCapabilities(),
        onClose: () => driver.close(),
      });
    } catch (e) {
      driver.close();
      throw e;
    }
  }
  throw new Error(`unknown engine ${engine}; the engines are ${ENGINE_NAMES.join(', ')}`);
}

/** Firefox's preferences: WebGPU on (it is off on Linux in 153 ESR), the real renderer's name. */
export const FIREFOX_PREFS = {
  'dom.webgpu.enabled': true,
  'gfx.webgpu.ignore-blocklist': true,
  'webgl.sanitize-unmasked-renderer': false,
};

function webkitCapabilities() {
  const binary = MINIBROWSER.find((p) => existsSync(p));
  return {
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': {
      ...(binary ? { binary } : {}),
      // `args` replaces the default `--automation`: keep it
      args: ['--automation', '--features=+WebGLTimerQueries'],
    },
  };
}

/** A puppeteer Browser already running (the benchmark's Chromium) as an engine browser it keeps. */
export function fromPuppeteer(browser) {
  const engine = /firefox/i.test(browser.process?.()?.spawnfile ?? '') ? 'firefox' : 'chromium';
  return puppeteerEngine(engine, browser, false);
}

function puppeteerEngine(engine, browser, owned) {
  return {
    engine,
    browser,
    async version() {
      return browser.version();
    },
    async newPage() {
      return new PuppeteerEnginePage(await browser.newPage());
    },
    async close() {
      if (owned) await browser.close();
      else await browser.disconnect();
    },
  };
}

/** A WebDriver session at `server` (WebKitWebDriver here, a Selenium Grid elsewhere). */
export async function connectWebDriver(
  server,
  { engine, capabilities, onClose, timeoutMs = 30_000 },
) {
  const { Builder } = await importSelenium();
  // WebKitWebDriver's POST /session hangs rather than failing when the browser cannot start
  const driver = await Promise.race([
    new Builder().usingServer(server).withCapabilities(capabilities).build(),
    new Promise((_, reject) =>
      setTimeout(
        () =>
          reject(
            new Error(`${engine}: no WebDriver session from ${server} within ${timeoutMs} ms`),
          ),
        timeoutMs,
      ),
    ),
  ]);
  await driver.manage().setTimeouts({ script: 600_000, pageLoad: 120_000 });
  // pages reuse the windows closed pages left (on about:blank): with a second window (newWindow)
  // the next rung hung in WebKitGTK's MiniBrowser, so one page at a time keeps to one window
  const free = [await driver.getWindowHandle()];
  const release = (handle) => free.push(handle);
  return {
    engine,
    driver,
    async version() {
      const caps = await driver.getCapabilities();
      return `${caps.getBrowserName()} ${caps.getBrowserVersion()}`;
    },
    async newPage() {
      const reused = free.pop();
      if (reused) return new WebDriverEnginePage(driver, reused, release);
      await driver.switchTo().newWindow('tab');
      return new WebDriverEnginePage(driver, await driver.getWindowHandle(), release);
    },
    async close() {
      try {
        await driver.quit();
      } finally {
        onClose?.();
      }
    },
  };
}

/**
 * A browser already running elsewhere: a `ws://` endpoint (Chrome DevTools Protocol, or WebDriver
 * BiDi when the URL ends in /session) through puppeteer.connect, an `http://` one (a Selenium Grid
 * or a WebDriver server) through selenium-webdriver. `engine` names it in reports.
 */
export async function connectEngine(endpoint, { engine, capabilities } = {}) {
  if (/^wss?:/.test(endpoint)) {
    const { default: puppeteer } = await import('puppeteer-core');
    const bidi = /\/session(\/|$)/.test(new URL(endpoint).pathname);
    const browser = await puppeteer.connect({
      browserWSEndpoint: endpoint,
      protocol: bidi ? 'webDriverBiDi' : 'cdp',
      protocolTimeout: 600_000,
    });
    return puppeteerEngine(engine ?? engineOf(await browser.version()), browser, false);
  }
  if (/^https?:/.test(endpoint)) {
    const b = await connectWebDriver(endpoint, {
      engine: engine ?? 'webdriver',
      capabilities:
        capabilities ??
        (engine === 'webkit' || !engine
          ? webkitCapabilities()
          : { browserName: engine === 'chromium' ? 'chrome' : engine }),
    });
    if (!engine) b.engine = engineOf(await b.version());
    return b;
  }
  throw new Error(
    `--connect ${endpoint}: an endpoint is ws://… (CDP or BiDi) or http://… (WebDriver)`,
  );
}

/** Which engine a browser's version string names ('HeadlessChrome/156…', 'firefox/153…'). */
export function engineOf(version) {
  if (/firefox|gecko/i.test(version)) return 'firefox';
  if (/webkit|minibrowser|safari/i.test(version) && !/chrom/i.test(version)) return 'webkit';
  return 'chromium';
}

/** The engine's version line, for reports ('Mozilla Firefox 153.8.0esr'). */
export function engineVersion(engine) {
  const executable = engine === 'chromium' ? ensureBrowser() : found(engine);
  if (!executable) return 'not installed';
  if (engine === 'webkit') {
    try {
      const pkg = readFileSync('/var/lib/dpkg/status', 'utf8');
      const m = /Package: libwebkit2gtk-4\.1-0\n(?:.+\n)*?Version: (\S+)/.exec(pkg);
      return `WebKitGTK ${m ? m[1] : 'unknown'}`;
    } catch {
      return 'WebKitGTK';
    }
  }
  const r = spawnSync(executable, ['--version'], { encoding: 'utf8' });
  return (r.stdout || '').trim() || 'unknown';
}
