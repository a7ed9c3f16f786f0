// Headless Chromium with WebGPU and WebGL2 on SwiftShader (docs/testing.md says why each flag),
// and a Vite server bound to 127.0.0.1 on a free port (navigator.gpu needs a secure context).
import puppeteer from 'puppeteer-core';
import { createServer } from 'vite';
import { ROOT, ensureSetup } from './setup.mjs';
import { libraryAliases } from './entries.mjs';

export const SWIFTSHADER_FLAGS = [
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  '--use-webgpu-adapter=swiftshader',
];

export const COMMON_FLAGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-unsafe-swiftshader',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * For frame timing: vsync off (docs/benchmarks.md), precise heap numbers. Not
 * `--disable-frame-rate-limit`: with it, Chromium 156's compositor on SwiftShader wedged about
 * once in eight pages of the frame suite's WebGL2 scenario — every screenshot after it stalled, a
 * blank page's too, while the pages' rAF still ran — and `npm start` lost minutes to it; without
 * it none did in 30 pages, twice (bench/results/compositor-stall/). So rAF runs at most at 60 Hz.
 */
export const FRAME_TIMING_FLAGS = ['--disable-gpu-vsync', '--enable-precise-memory-info'];

/** `gpu: true` drops the SwiftShader flags to use a hardware adapter. `extraFlags` e.g. vsync off. */
export function browserFlags({ gpu = false, extraFlags = [] } = {}) {
  return [
    ...COMMON_FLAGS,
    ...(gpu ? ['--enable-features=Vulkan', '--use-angle=vulkan'] : SWIFTSHADER_FLAGS),
    ...extraFlags,
  ];
}

export async function launchBrowser(options = {}) {
  const executablePath = ensureSetup();
  const args = browserFlags(options);
  // puppeteer merges (and removes from the array it is given) --enable-features: pass a copy
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: [...args],
    protocolTimeout: 600_000,
  });
  return { browser, args, executablePath };
}

/**
 * Serves the repository with Vite on a free port. `crossOriginIsolated`: the pages get COOP/COEP
 * headers, so `performance.now()` steps by 5 µs instead of 100 µs (benchmarks of CPU time per
 * frame need it; everything the pages load is same-origin, which COEP's require-corp allows).
 */
export async function startServer({ crossOriginIsolated = false } = {}) {
  const headers = crossOriginIsolated
    ? {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      }
    : {};
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    // `import … from 'ignis-rhi/particles'` in a page (the docs' snippets) reaches the sources
    resolve: { alias: libraryAliases(ROOT) },
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null, headers },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite server did not bind');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/** Opens `pagePath` and forwards the page's console errors to the terminal. */
export async function openPage(browser, url, { width = 256, height = 256 } = {}) {
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error(`[page] ${m.text()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return page;
}
