// Every demo loads and renders on every backend it supports, and says so on the page where a
// capability it needs is missing (no silent failure).
import { describe, expect, inject, it } from 'vitest';
import puppeteer, { type Page } from 'puppeteer-core';
import { PNG } from 'pngjs';

async function open(url: string, errors: string[]): Promise<Page> {
  const browser = await puppeteer.connect({ browserWSEndpoint: inject('wsEndpoint'), protocolTimeout: 600_000 });
  const page = await browser.newPage();
  await page.setViewport({ width: 480, height: 270 });
  page.on('pageerror', (e) => errors.push((e as Error).message));
  await page.goto(`${inject('baseUrl')}/${url}`, { waitUntil: 'load' });
  return page;
}

/** Non-dark pixels of the canvas alone (the info line and the tweakpane panel are hidden first). */
async function litPixels(page: Page): Promise<number> {
  await page.evaluate(() => {
    for (const el of Array.from(document.body.children)) if (el.tagName !== 'CANVAS' && el instanceof HTMLElement) el.style.visibility = 'hidden';
  });
  const png = PNG.sync.read(Buffer.from(await page.screenshot()));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if ((png.data[i] as number) + (png.data[i + 1] as number) + (png.data[i + 2] as number) > 60) n++;
  return n;
}

describe('demos', () => {
  for (const backend of ['webgpu', 'webgl2']) {
    it(`particles runs frames and draws particles [${backend}]`, async () => {
      const errors: string[] = [];
      const page = await open(`demos/particles/?backend=${backend}&count=20000`, errors);
      await page.waitForFunction(() => ((window as unknown as { __frames?: number }).__frames ?? 0) > 30, { timeout: 60_000 });
      const info = await page.$eval('#info', (e) => e.textContent ?? '');
      expect(info).toContain(backend);
      expect(info).toContain(backend === 'webgpu' ? 'compute' : 'pingpong');
      const lit = await litPixels(page);
      console.log(`particles demo [${backend}]: ${lit} lit pixels`);
      expect(lit).toBeGreaterThan(50);
      expect(errors).toEqual([]);
      await page.close();
    });
    it(`hello-triangle draws [${backend}]`, async () => {
      const errors: string[] = [];
      const page = await open(`demos/hello-triangle/?backend=${backend}`, errors);
      await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, { timeout: 60_000 });
      expect(await litPixels(page)).toBeGreaterThan(1000);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
  it('compute-boids flocks on WebGPU and says why not on WebGL2', async () => {
    const errors: string[] = [];
    const page = await open('demos/compute-boids/?count=500', errors);
    await page.waitForFunction(() => /boids/.test(document.getElementById('info')?.textContent ?? ''), { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await litPixels(page)).toBeGreaterThan(50);
    expect(errors).toEqual([]);
    const glErrors: string[] = [];
    const gl = await open('demos/compute-boids/?backend=webgl2', glErrors);
    await gl.waitForFunction(() => (document.getElementById('info')?.textContent ?? '') !== '', { timeout: 60_000 });
    expect(await gl.$eval('#info', (e) => e.textContent)).toMatch(/needs compute: caps\.features\.compute is false on webgl2/);
    await page.close();
    await gl.close();
  });
});
