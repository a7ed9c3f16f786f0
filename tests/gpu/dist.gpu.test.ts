// The built library runs from a plain <script type="module"> with no bundler: build it, serve the
// folder with a bare static server (no Vite transforms), import it in the page and run particles.
import { describe, expect, inject, it } from 'vitest';
import puppeteer from 'puppeteer-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><canvas id="c" width="160" height="90"></canvas>
<script type="module">
import { createDevice, createParticleSystem, orbitCamera } from './index.js';
const out = {};
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
  out[backend] = { path: ps.path, alive: (await ps.stats()).alive };
  device.destroy();
}
window.__out = out;
</script>`;

describe('dist', () => {
  it('imports and runs from a plain <script type="module">', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ignis-dist-'));
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'vite.lib.config.ts',
        '--outDir',
        dir,
        '--logLevel',
        'error',
      ],
      { cwd: root },
    );
    writeFileSync(path.join(dir, 'index.html'), PAGE);
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
    expect(errors).toEqual([]);
    expect(result).toEqual({
      webgpu: { path: 'compute', alive: 1000 },
      webgl2: { path: 'pingpong', alive: 1000 },
    });
  }, 120_000);
});
