// Runs built Ignis files (a dist/ folder: the repository's build or an installed package's) from a
// plain <script type="module"> in the shared headless browser, served by a bare static server (no
// Vite transforms): particles and a portable kernel on both backends. Shared by dist and pack tests.
// The page also lists the modules the browser had fetched once each backend's particles had drawn
// and counted (before the portable entry is imported): WebGPU's compute particles must not have
// fetched the WGSL front end, WebGL2's must have (`frontEndFetched`).
import { inject } from 'vitest';
import puppeteer from 'puppeteer-core';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { frontEndFiles } from '../../scripts/package-facts.mjs';

/** The page's module; it imports the entries from ./index.js, ./particles.js and ./portable.js. */
export const PAGE_SCRIPT = `import { createDevice, BufferUsage } from './index.js';
import { createParticleSystem, orbitCamera } from './particles.js';
const out = {};
const fetched = () => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.slice(1)).filter((f) => f.endsWith('.js'));
const WGSL = \`
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= arrayLength(&dst)) { return; }
  dst[id.x] = src[(id.x + 1u) % arrayLength(&src)] * 3u + id.x;
}\`;
for (const backend of ['webgpu', 'webgl2']) {
  const canvas = document.createElement('canvas');
  const device = await createDevice({ backend, canvas });
  const ps = await createParticleSystem(device, { count: 1000 });
  const enc = device.createCommandEncoder();
  ps.update(enc, 1 / 60);
  const pass = enc.beginRenderPass({ colorAttachments: [{ texture: device.surface.getCurrentTexture(), clearValue: [0, 0, 0, 1] }] });
  ps.draw(pass, orbitCamera({ aspect: 16 / 9 }));
  pass.end();
  device.queue.submit([enc.finish()]);
  const alive = (await ps.stats()).alive;
  const modules = fetched();
  const { createPortableCompute } = await import('./portable.js');
  const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  const src = device.createBuffer({ size: 64, usage });
  const dst = device.createBuffer({ size: 64, usage });
  device.queue.writeBuffer(src, 0, new Uint32Array([...Array(16).keys()].map((i) => i * 10)));
  const pc = createPortableCompute(device, { code: WGSL, count: 16, buffers: { src, dst } });
  const enc2 = device.createCommandEncoder();
  pc.dispatch(enc2);
  device.queue.submit([enc2.finish()]);
  const words = Array.from(new Uint32Array(await dst.read()));
  out[backend] = { path: ps.path, alive, portable: pc.path, words, modules };
  device.destroy();
}
window.__out = out;
`;
const HEAD = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><canvas id="c" width="160" height="90"></canvas>`;
const PAGE = `${HEAD}\n<script type="module">\n${PAGE_SCRIPT}</script>`;

/** A page that loads a bundle of PAGE_SCRIPT from `src` (a module script, or a classic one). */
export function bundlePage(src: string, type: 'module' | 'classic'): string {
  return `${HEAD}\n<script${type === 'module' ? ' type="module"' : ''} src="./${src}"></script>`;
}

export interface DistRun {
  errors: string[];
  result: unknown;
}

/** Serves `dir` (it gets an index.html), opens it, returns what the page computed. */
export function runDistInBrowser(dir: string): Promise<DistRun> {
  return runPageInBrowser(dir, PAGE);
}

/** Serves `dir` with `html` as its index.html, opens it, returns what the page computed. */
export async function runPageInBrowser(dir: string, html: string): Promise<DistRun> {
  writeFileSync(path.join(dir, 'index.html'), html);
  const server = http.createServer((req, res) => {
    const file = path.join(
      dir,
      (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '').slice(1),
    );
    try {
      const body = readFileSync(file);
      res.setHeader('content-type', file.endsWith('.js') ? 'text/javascript' : 'text/html');
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const browser = await puppeteer.connect({
    browserWSEndpoint: inject('wsEndpoint'),
    protocolTimeout: 600_000,
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push((e as Error).message));
  await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
  await page
    .waitForFunction(
      () =>
        (window as unknown as { __out?: unknown }).__out !== undefined || document.title === 'x',
      { timeout: 60_000 },
    )
    .catch(() => {});
  const result = await page.evaluate(() => (window as unknown as { __out?: unknown }).__out);
  await page.close();
  await browser.disconnect();
  server.close();
  return { errors, result };
}

/**
 * For each backend of a page's `result`, whether the modules fetched by the time its particles
 * had drawn and counted include the WGSL front end (found by their source maps in `dir`; `from`:
 * the package's front-end files, for a bundle: frontEndFiles); the result without those lists
 * (for expectedDistResult).
 */
export function frontEndFetched(
  dir: string,
  result: unknown,
  from: string[] = [],
): { fetched: Record<string, boolean>; rest: unknown } {
  const fetched: Record<string, boolean> = {};
  const rest: Record<string, unknown> = {};
  for (const [backend, r] of Object.entries(
    (result ?? {}) as Record<string, { modules: string[] }>,
  )) {
    const { modules, ...others } = r;
    fetched[backend] = frontEndFiles(dir, modules, from).length > 0;
    rest[backend] = others;
  }
  return { fetched, rest };
}

/** What the page computes on a working build: the expected `result` (less the fetched modules). */
export function expectedDistResult(): unknown {
  const words = Array.from({ length: 16 }, (_, i) => ((i + 1) % 16) * 10 * 3 + i);
  return {
    webgpu: { path: 'compute', alive: 1000, portable: 'compute', words },
    webgl2: { path: 'pingpong', alive: 1000, portable: 'pingpong', words },
  };
}
