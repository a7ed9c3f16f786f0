// A frame drawn to the canvas surface shows in a page screenshot (the composited result, not a
// read-back of our own texture), on each backend; and `auto` falls back to WebGL2 without WebGPU.
import { describe, expect, inject, it } from 'vitest';
import puppeteer, { type Page } from 'puppeteer-core';
import { PNG } from 'pngjs';

async function freshPage(): Promise<Page> {
  const browser = await puppeteer.connect({ browserWSEndpoint: inject('wsEndpoint'), protocolTimeout: 600_000 });
  const page = await browser.newPage();
  await page.setViewport({ width: 128, height: 128 });
  await page.goto(`${inject('baseUrl')}/tests/gpu/index.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window as unknown as { __ignisReady?: boolean }).__ignisReady === true);
  return page;
}

interface PageApi {
  drawToCanvas(backend: string): Promise<{ backend: string; format: string; topLeft: number[]; bottomRight: number[] }>;
  autoBackend(hideGpu: boolean): Promise<{ backend: string; reason: string | null }>;
}

function rgbaAt(png: PNG, x: number, y: number): number[] {
  const i = (y * png.width + x) * 4;
  return Array.from(png.data.subarray(i, i + 4));
}

describe('canvas surface', () => {
  for (const backend of ['webgpu', 'webgl2']) {
    it(`a frame drawn to the canvas is visible in a page screenshot [${backend}]`, async () => {
      const page = await freshPage();
      const info = await page.evaluate((b) => (window as unknown as { __ignis: PageApi }).__ignis.drawToCanvas(b), backend);
      expect(info.backend).toBe(backend);
      // the surface reads back top-down like any texture, whatever the backend's origin
      expect(info.topLeft).toEqual([255, 0, 0, 255]);
      expect(info.bottomRight).toEqual([0, 0, 255, 255]);
      const png = PNG.sync.read(Buffer.from(await page.screenshot({ clip: { x: 0, y: 0, width: 64, height: 64 } })));
      // upper-left half red (the triangle), lower-right half blue (the clear colour)
      expect(rgbaAt(png, 6, 6)).toEqual([255, 0, 0, 255]);
      expect(rgbaAt(png, 57, 57)).toEqual([0, 0, 255, 255]);
      expect(rgbaAt(png, 50, 4)).toEqual([255, 0, 0, 255]);
      expect(rgbaAt(png, 4, 50)).toEqual([255, 0, 0, 255]);
      await page.close();
    });
  }

  it("backend 'auto' falls back to WebGL2 when navigator.gpu is hidden", async () => {
    const page = await freshPage();
    const result = await page.evaluate(() => (window as unknown as { __ignis: PageApi }).__ignis.autoBackend(true));
    expect(result.backend).toBe('webgl2');
    expect(result.reason).toMatch(/navigator\.gpu is missing/);
    const withGpu = (await (await freshPage()).evaluate(() => (window as unknown as { __ignis: PageApi }).__ignis.autoBackend(false))).backend;
    expect(withGpu).toBe('webgpu');
    await page.close();
  });
});
