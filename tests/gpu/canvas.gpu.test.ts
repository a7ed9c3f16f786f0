// A frame drawn to the canvas surface shows in a page screenshot (the composited result, not a
// read-back of our own texture), on each backend; and `auto` falls back to WebGL2 without WebGPU.
import { describe, expect, inject, it } from 'vitest';
import puppeteer, { type Page } from 'puppeteer-core';
import { PNG } from 'pngjs';

async function freshPage(): Promise<Page> {
  const browser = await puppeteer.connect({
    browserWSEndpoint: inject('wsEndpoint'),
    protocolTimeout: 600_000,
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 128, height: 128 });
  await page.goto(`${inject('baseUrl')}/tests/gpu/index.html`, { waitUntil: 'load' });
  await page.waitForFunction(
    () => (window as unknown as { __ignisReady?: boolean }).__ignisReady === true,
  );
  return page;
}

interface PageApi {
  drawToCanvas(
    backend: string,
  ): Promise<{ backend: string; format: string; topLeft: number[]; bottomRight: number[] }>;
  autoBackend(hideGpu: boolean): Promise<{ backend: string; reason: string | null }>;
  canvasScene(backend: string, name: string): Promise<{ backend: string; second: number[] | null }>;
}

/** Draws a canvas scene on `backend` and returns the page's 64×64 screenshot of it. */
async function screenshotScene(
  backend: string,
  name: string,
): Promise<{ png: PNG; second: number[] | null }> {
  const page = await freshPage();
  const r = await page.evaluate(
    (b, n) => (window as unknown as { __ignis: PageApi }).__ignis.canvasScene(b, n),
    backend,
    name,
  );
  expect(r.backend).toBe(backend);
  const png = PNG.sync.read(
    Buffer.from(await page.screenshot({ clip: { x: 0, y: 0, width: 64, height: 64 } })),
  );
  await page.close();
  return { png, second: r.second };
}

/** Pixels whose channels differ by more than 1/255. */
function differing(a: PNG, b: PNG): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++)
      d = Math.max(d, Math.abs((a.data[i + c] as number) - (b.data[i + c] as number)));
    if (d > 1) n++;
  }
  return n;
}

function rgbaAt(png: PNG, x: number, y: number): number[] {
  const i = (y * png.width + x) * 4;
  return Array.from(png.data.subarray(i, i + 4));
}

describe('canvas surface', () => {
  for (const backend of ['webgpu', 'webgl2']) {
    it(`a frame drawn to the canvas is visible in a page screenshot [${backend}]`, async () => {
      const page = await freshPage();
      const info = await page.evaluate(
        (b) => (window as unknown as { __ignis: PageApi }).__ignis.drawToCanvas(b),
        backend,
      );
      expect(info.backend).toBe(backend);
      // the surface reads back top-down like any texture, whatever the backend's origin
      expect(info.topLeft).toEqual([255, 0, 0, 255]);
      expect(info.bottomRight).toEqual([0, 0, 255, 255]);
      const png = PNG.sync.read(
        Buffer.from(await page.screenshot({ clip: { x: 0, y: 0, width: 64, height: 64 } })),
      );
      // upper-left half red (the triangle), lower-right half blue (the clear colour)
      expect(rgbaAt(png, 6, 6)).toEqual([255, 0, 0, 255]);
      expect(rgbaAt(png, 57, 57)).toEqual([0, 0, 255, 255]);
      expect(rgbaAt(png, 50, 4)).toEqual([255, 0, 0, 255]);
      expect(rgbaAt(png, 4, 50)).toEqual([255, 0, 0, 255]);
      await page.close();
    });
  }

  // Regressions of the WebGL2 canvas: it was the default framebuffer, created without depth (a depth
  // attachment and any other MRT attachment were ignored) and not y-flipped like textures (an MSAA
  // resolve into it came out upside down). Each scene is compared with WebGPU by page screenshot.
  it('a depth-tested scene drawn straight to the canvas occludes as on WebGPU', async () => {
    const gpu = await screenshotScene('webgpu', 'depth');
    const gl = await screenshotScene('webgl2', 'depth');
    expect(rgbaAt(gpu.png, 8, 8)).toEqual([0, 255, 0, 255]); // the near triangle in front
    expect(rgbaAt(gpu.png, 56, 56)).toEqual([255, 0, 0, 255]);
    expect(
      rgbaAt(gl.png, 8, 8),
      'WebGL2: the near triangle must stay in front of the far quad',
    ).toEqual([0, 255, 0, 255]);
    expect(differing(gpu.png, gl.png)).toBe(0);
  });

  it('an MSAA texture resolved into the canvas is the right way up, as on WebGPU', async () => {
    const gpu = await screenshotScene('webgpu', 'msaa');
    const gl = await screenshotScene('webgl2', 'msaa');
    // the triangle is along the top; the lower-right corner is the clear colour
    expect(rgbaAt(gpu.png, 20, 8)[3]).toBe(255);
    expect(
      rgbaAt(gpu.png, 20, 8)
        .slice(0, 3)
        .some((v) => v > 0),
    ).toBe(true);
    expect(rgbaAt(gpu.png, 60, 60)).toEqual([0, 0, 0, 255]);
    expect(
      rgbaAt(gl.png, 20, 8),
      'WebGL2: the top of the resolved image must be at the top',
    ).toEqual(rgbaAt(gpu.png, 20, 8));
    // MSAA edges may resolve with different sample weights; the interior may not differ
    const diff = differing(gpu.png, gl.png);
    console.log(`canvas MSAA resolve: ${diff} of 4096 pixels differ by more than 1/255`);
    expect(diff).toBeLessThanOrEqual(64);
  });

  it('MRT with the canvas as attachment 0 draws both attachments, as on WebGPU', async () => {
    const gpu = await screenshotScene('webgpu', 'mrt');
    const gl = await screenshotScene('webgl2', 'mrt');
    expect(differing(gpu.png, gl.png)).toBe(0);
    expect(gpu.second).not.toBeNull();
    expect(
      gl.second,
      'WebGL2: attachment 1 must be written when attachment 0 is the canvas',
    ).toEqual(gpu.second);
    expect((gl.second as number[]).some((v, i) => i % 4 !== 3 && v > 0)).toBe(true);
  });

  it("backend 'auto' falls back to WebGL2 when navigator.gpu is hidden", async () => {
    const page = await freshPage();
    const result = await page.evaluate(() =>
      (window as unknown as { __ignis: PageApi }).__ignis.autoBackend(true),
    );
    expect(result.backend).toBe('webgl2');
    expect(result.reason).toMatch(/navigator\.gpu is missing/);
    const withGpu = (
      await (
        await freshPage()
      ).evaluate(() => (window as unknown as { __ignis: PageApi }).__ignis.autoBackend(false))
    ).backend;
    expect(withGpu).toBe('webgpu');
    await page.close();
  });
});
