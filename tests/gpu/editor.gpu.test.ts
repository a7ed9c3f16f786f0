// The effect editor (demos/editor/) in the headless browser on both backends, driven through its
// window.__editor handle as the panel drives it: a changed parameter changes the picture, undo
// brings the previous picture back exactly, a saved file loaded again restores its picture, a link
// (the URL's #effect=…) opens the same effect, and a refused value leaves the effect as it was,
// saying which value (its JSON pointer). ?frames=30&draw=instanced make each picture still and
// deterministic: 30 steps of 1/60 s after each load.
import { describe, expect, inject, it } from 'vitest';
import puppeteer, { type Page } from 'puppeteer-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Handle {
  framesSinceLoad(): number;
  doc(): { systems: Array<{ modules: Array<{ module: string }> }> };
  edit(pointer: string, value: unknown, label: string): Promise<string | null>;
  undo(): Promise<void>;
  save(): string;
  load(text: string): Promise<string | null>;
  addTexture(fileName: string, png: number[]): Promise<string | null>;
  link(): string;
  problem(): string;
  pixels(): Promise<number[]>;
}
declare const __editor: Handle;

const FRAMES = 30;

async function open(query: string, errors: string[]): Promise<Page> {
  const browser = await puppeteer.connect({
    browserWSEndpoint: inject('wsEndpoint'),
    protocolTimeout: 600_000,
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 640, height: 360 });
  page.on('pageerror', (e) => errors.push((e as Error).message));
  await page.goto(`${inject('baseUrl')}/demos/editor/${query}`, { waitUntil: 'load' });
  await still(page);
  return page;
}

/** Waits for the picture to stand still (FRAMES frames after the last load) and returns it. */
async function still(page: Page): Promise<number[]> {
  await page.waitForFunction(
    (n) => typeof __editor !== 'undefined' && __editor.framesSinceLoad() >= n,
    { timeout: 120_000 },
    FRAMES,
  );
  return page.evaluate(() => __editor.pixels());
}

const differing = (a: number[], b: number[]): number => {
  let n = 0;
  for (let i = 0; i < a.length; i += 4)
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
};
const meanBlue = (a: number[]): number => {
  let s = 0;
  for (let i = 2; i < a.length; i += 4) s += a[i]!;
  return s / (a.length / 4);
};

describe('effect editor', () => {
  for (const backend of ['webgpu', 'webgl2'] as const)
    it(`edits, undoes, saves and loads, and shares by link on ${backend}`, async () => {
      const errors: string[] = [];
      const query = `?effect=sparks&frames=${FRAMES}&draw=instanced&panel=closed&backend=${backend}`;
      const page = await open(query, errors);
      const first = await page.evaluate(() => __editor.pixels());
      const lit = first.filter((_v, i) => i % 4 === 0 && first[i]! > 0).length;
      expect(lit, 'the sparks are seen').toBeGreaterThan(50);
      const color = (await page.evaluate(() => __editor.doc())).systems[0]!.modules.findIndex(
        (m) => m.module === 'color',
      );
      expect(color).toBeGreaterThanOrEqual(0);
      // a parameter changed: every colour stop blue
      const blue = [0.2, 0.4, 1, 1];
      expect(
        await page.evaluate(
          (p, v) => __editor.edit(p, v, 'colors'),
          `/systems/0/modules/${color}/colors`,
          [blue, blue, blue, blue],
        ),
      ).toBeNull();
      const edited = await still(page);
      expect(differing(first, edited)).toBeGreaterThan(50);
      expect(meanBlue(edited)).toBeGreaterThan(meanBlue(first));
      // undo: the picture before the change, exactly
      await page.evaluate(() => __editor.undo());
      expect(differing(await still(page), first)).toBe(0);
      // save, change, load the saved file: its picture again
      const saved = await page.evaluate(() => __editor.save());
      expect(JSON.parse(saved).version).toBe(1);
      await page.evaluate(
        (p, v) => __editor.edit(p, v, 'colors'),
        `/systems/0/modules/${color}/colors`,
        [blue, blue, blue, blue],
      );
      expect(differing(await still(page), edited)).toBe(0);
      expect(await page.evaluate((t) => __editor.load(t), saved)).toBeNull();
      expect(differing(await still(page), first)).toBe(0);
      // the link of the blue sparks opens them in a new page
      await page.evaluate(
        (p, v) => __editor.edit(p, v, 'colors'),
        `/systems/0/modules/${color}/colors`,
        [blue, blue, blue, blue],
      );
      await still(page);
      const link = await page.evaluate(() => __editor.link());
      expect(link).toMatch(/#effect=[\w-]+$/);
      const shared = await open(
        `${query.replace('effect=sparks&', '')}${link.slice(link.indexOf('#'))}`,
        errors,
      );
      expect(differing(await shared.evaluate(() => __editor.pixels()), edited)).toBe(0);
      await shared.close();
      // a refused value: said with its pointer, the effect unchanged
      const lifetime = (await page.evaluate(() => __editor.doc())).systems[0]!.modules.findIndex(
        (m) => m.module === 'lifetime',
      );
      const refused = await page.evaluate(
        (p) => __editor.edit(p, 99, 'lifeMin'),
        `/systems/0/modules/${lifetime}/lifeMin`,
      );
      expect(refused).toMatch(
        new RegExp(`/systems/0/modules/${lifetime}/lifeMin: .*must not exceed lifeMax`),
      );
      expect(await page.evaluate(() => __editor.problem())).toContain('lifeMin');
      expect(differing(await page.evaluate(() => __editor.pixels()), edited)).toBe(0);
      // a PNG from disk added as a texture (inline), and a sprite module that uses it
      const png = [...readFileSync(path.resolve('effects/textures/puff.png'))];
      expect(await page.evaluate((b) => __editor.addTexture('puff.png', b), png)).toBeNull();
      const before = await still(page);
      const modules = (await page.evaluate(() => __editor.doc())).systems[0]!.modules;
      expect(
        await page.evaluate(
          (m) => __editor.edit('/systems/0/modules', m, 'add sprite'),
          [...modules, { module: 'sprite', texture: 'puff' }],
        ),
      ).toBeNull();
      expect(differing(await still(page), before)).toBeGreaterThan(50);
      expect(JSON.parse(await page.evaluate(() => __editor.save())).textures.puff.url).toMatch(
        /^data:image\/png;base64,/,
      );
      expect(errors).toEqual([]);
      await page.close();
    }, 300_000);
});
