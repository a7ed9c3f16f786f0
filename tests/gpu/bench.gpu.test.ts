// A smoke run of the benchmark (small count, few frames) so it cannot silently break: every path
// measured, every output written, --compare and --check behaving.
import { describe, expect, inject, it } from 'vitest';
import puppeteer from 'puppeteer-core';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  parseArgs,
  runBench,
  writeOutputs,
  compareRuns,
  percentile,
  markdownTable,
  presetTable,
  moduleTable,
  sortTable,
  // @ts-expect-error plain ESM module without types
} from '../../bench/runner.mjs';

/** Runs the benchmark `o` in the test run's shared browser and Vite server. */
async function runShared(o: unknown): ReturnType<typeof runBench> {
  const browser = await puppeteer.connect({
    browserWSEndpoint: inject('wsEndpoint'),
    protocolTimeout: 600_000,
  });
  try {
    return await runBench(o, {
      browser,
      url: inject('baseUrl'),
      flags: ['(shared test browser)'],
    });
  } finally {
    await browser.disconnect();
  }
}

describe('benchmark smoke run', () => {
  it('measures every path, writes JSON, table, chart and screenshots, and compares', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-'));
    const o = parseArgs([
      '--suites',
      'particles',
      '--preroll',
      '5',
      '--counts',
      '1500',
      '--paths',
      'compute,pingpong,cpu,pingpong@webgpu',
      '--draw',
      'pulled,instanced',
      '--frames',
      '4',
      '--warmup',
      '1',
      '--repeat',
      '2',
      '--size',
      '256x144',
      '--out',
      out,
      '--quiet',
    ]);
    const result = await runShared(o);
    expect(result.rows).toHaveLength(8);
    for (const r of result.rows) {
      expect(r.skipped, `${r.scenario} skipped: ${r.skipped}`).toBeUndefined();
      expect(r.frames).toBeGreaterThanOrEqual(8);
      expect(r.e2eMs.median).toBeGreaterThan(0);
      expect(r.e2eMs.p99).toBeGreaterThanOrEqual(r.e2eMs.median);
      expect(r.rafMs.median).toBeGreaterThan(0);
      expect(r.cpuMs).toBeGreaterThan(0);
      expect(r.gpuBytes).toBeGreaterThan(1500 * 32);
      expect(r.alive).toBe(1500);
      expect(r.visiblePixels).toBeGreaterThan(0);
      expect(r.repeatMedians).toHaveLength(2);
      // the CPU path has no update pass to time; WebGPU timestamps are always there here; WebGL2's
      // timer extension may report a disjoint interval, which must come out as null, never 0
      if (r.path === 'cpu') expect(r.gpuMs?.update ?? null).toBeNull();
      else if (r.backend === 'webgpu') expect(r.gpuMs?.update).toBeGreaterThan(0);
      else
        expect(
          r.gpuMs?.update === null || r.gpuMs?.update === undefined || r.gpuMs.update > 0,
        ).toBe(true);
    }
    expect(result.meta.adapters.webgpu).toMatch(/swiftshader/);
    expect(result.meta.canvas).toEqual({ width: 256, height: 144 });
    const files = writeOutputs(o, result);
    for (const f of [files.json, files.md, files.chart]) expect(existsSync(f)).toBe(true);
    expect(readFileSync(files.chart, 'utf8')).toMatch(/<polyline/);
    expect(readFileSync(files.md, 'utf8')).toMatch(/\| compute@webgpu \| pulled \| 1500 \|/);
    for (const r of result.rows) expect(existsSync(path.join(out, r.screenshot))).toBe(true);
    // the particle suite is one use of the scene kit: its report is ignis-bench's, cell by cell
    const kit = JSON.parse(readFileSync(path.join(out, 'particles', 'bench.json'), 'utf8'));
    expect(kit.scene).toMatch(/check[/\\]scenes[/\\]particles\.ts$/);
    expect(kit.rows).toHaveLength(8);
    expect(kit.rows[0].key).toBe('webgpu count=1500 path=compute draw=pulled preroll=5');

    const same = compareRuns(result.rows, files.json, 0.15);
    expect(same.slower).toEqual([]);
    const fast = JSON.parse(readFileSync(files.json, 'utf8'));
    for (const r of fast.rows) r.e2eMs.median /= 3; // a baseline three times faster
    const fastFile = path.join(out, 'fast.json');
    writeFileSync(fastFile, JSON.stringify(fast));
    const slower = compareRuns(result.rows, fastFile, 0.15);
    expect(slower.slower).toHaveLength(8);
    expect(slower.table).toMatch(/slower by 200%/);
  }, 300_000);

  it('runs the post chain, the blur and the whole frame on each path, with GPU time per effect', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-post-'));
    const o = parseArgs(
      '--suites post,blur,frame --post-sizes 160x96 --radii 3 --frame-counts 800 --size 160x96 --frames 3 --warmup 1 --repeat 1 --preroll 3 --quiet --out'
        .split(' ')
        .concat(out),
    );
    const result = await runShared(o);
    const ids = result.rows.map((r: { scenario: string }) => r.scenario);
    expect(ids).toEqual([
      'post/compute@webgpu/160x96',
      'post/fragment@webgpu/160x96',
      'post/fragment@webgl2/160x96',
      'blur/compute@webgpu/r3/160x96',
      'blur/fragment@webgpu/r3/160x96',
      'blur/fragment@webgl2/r3/160x96',
      'frame/compute+compute@webgpu/pulled/800/160x96',
      'frame/pingpong+fragment@webgl2/pulled/800/160x96',
    ]);
    for (const r of result.rows) {
      expect(r.skipped, `${r.scenario} skipped: ${r.skipped}`).toBeUndefined();
      expect(r.e2eMs.median).toBeGreaterThan(0);
      expect(r.visiblePixels, `${r.scenario} shows something`).toBeGreaterThan(0);
      if (r.backend === 'webgpu') {
        // WebGPU timestamps are always there here: each effect has its GPU time
        const spans =
          r.kind === 'blur' ? ['blur horizontal', 'blur vertical'] : ['bloom', 'tone map + grade'];
        for (const span of spans)
          expect(r.gpuSpansMs?.[span], `${r.scenario}: ${span}`).toBeGreaterThan(0);
      }
    }
    const md = readFileSync(writeOutputs(o, result).md, 'utf8');
    expect(md).toMatch(/\| post chain \| compute@webgpu \| 160x96 \| \d/);
    expect(md).toMatch(/Compute \(workgroup memory\) vs fragment blur on WebGPU/);
    expect(md).toMatch(/\| 3 \| \d+\.\d\d \| \d+\.\d\d \| \d+\.\d\d× \|/);
  });

  it('measures splat and auto (auto names what it chose) and the cpu suite against the plain loop', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-modes-'));
    const o = parseArgs(
      '--suites particles,cpu --counts 1200 --cpu-counts 3000 --paths compute --draw splat,auto --frames 3 --warmup 1 --repeat 1 --preroll 3 --size 160x96 --quiet --out'
        .split(' ')
        .concat(out),
    );
    const result = await runShared(o);
    type Row = {
      scenario: string;
      skipped?: string;
      drawn: string | null;
      gpuMs: { draw: number } | null;
      e2eMs: { median: number };
    };
    const rows = result.rows as Row[];
    expect(rows.map((r) => r.scenario)).toEqual([
      'particles/compute@webgpu/splat/1200',
      'particles/compute@webgpu/auto/1200',
      'cpu/ignis/3000',
      'cpu/reference/3000',
      'cpu/plain/3000',
    ]);
    for (const r of rows) expect(r.skipped, `${r.scenario}: ${r.skipped}`).toBeUndefined();
    expect(rows[0]!.drawn).toBe('splat');
    expect(['instanced', 'pulled', 'splat']).toContain(rows[1]!.drawn);
    // the splat's compute pass is part of the draw's GPU time
    expect(rows[0]!.gpuMs?.draw).toBeGreaterThan(0);
    const md = readFileSync(writeOutputs(o, result).md, 'utf8');
    expect(md).toMatch(new RegExp(`\\| auto→${rows[1]!.drawn} \\| 1200 \\|`));
    expect(md).toMatch(/\| ignis \| 3000 \| \d+\.\d\d \| \d+\.\d\d× \|/);
    expect(md).toMatch(/\| plain \| 3000 \| \d+\.\d\d \| 1\.00× \|/);
  }, 300_000);

  it("runs Ignis's draw against the hand-written WebGPU and WebGL2 references of the same look (disc and sprite), interleaved", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-reference-'));
    const o = parseArgs(
      '--suites reference --reference-counts 2000 --reference-looks disc,sprite --draw pulled --frames 3 --warmup 1 --repeat 1 --preroll 30 --size 96x64 --quiet --out'
        .split(' ')
        .concat(out),
    );
    const result = await runShared(o);
    type Row = {
      scenario: string;
      skipped?: string;
      e2eMs: { median: number };
      gpuMs: { draw: number | null } | null;
      reference?: {
        e2eMs: number;
        cpuMs: number;
        gpuDrawMs: number | null;
        e2eRatio: number;
        gpuRatio: number | null;
        control: { cpuMs: number; jsUs: number };
        image: { lit: number; differing: number; tolerance: number };
      };
    };
    const rows = result.rows as Row[];
    expect(rows.map((r) => r.scenario)).toEqual([
      'reference/webgpu/pulled/2000',
      'reference/webgpu/pulled/2000/sprite',
      'reference/webgl2/pulled/2000',
      'reference/webgl2/pulled/2000/sprite',
    ]);
    for (const r of rows) {
      expect(r.skipped, `${r.scenario}: ${r.skipped}`).toBeUndefined();
      expect(r.e2eMs.median).toBeGreaterThan(0);
      expect(r.reference?.e2eMs).toBeGreaterThan(0);
      expect(r.reference?.cpuMs).toBeGreaterThan(0);
      // the e2e ratio: the median of the back-to-back pairs' ratios
      expect(Number.isFinite(r.reference?.e2eRatio)).toBe(true);
      expect(r.reference?.e2eRatio).toBeGreaterThan(0);
      // the control (the hand-written frame after some plain JavaScript) is measured and reported
      expect(r.reference?.control.jsUs).toBeGreaterThan(0);
      expect(r.reference?.control.cpuMs).toBeGreaterThan(0);
      // the same look: one frame of each, read back, lights the same pixels in the same colours
      // (a sprite mirrored or upside down in either draw differs in about half of them)
      const image = r.reference?.image;
      expect(image?.lit, r.scenario).toBeGreaterThan(20);
      expect(image?.differing, r.scenario).toBeLessThanOrEqual(Math.ceil((image?.lit ?? 0) / 50));
    }
    // WebGPU has timestamps here: both draws' passes timed by the GPU; WebGL2 reports none
    const [webgpu, , webgl2] = rows as [Row, Row, Row];
    expect(webgpu.gpuMs?.draw).toBeGreaterThan(0);
    expect(webgpu.reference?.gpuDrawMs).toBeGreaterThan(0);
    expect(webgl2.reference?.gpuDrawMs).toBeNull();
    expect(webgpu.reference?.gpuRatio).toBeGreaterThan(0);
    expect(webgl2.reference?.gpuRatio).toBeNull();
    const md = readFileSync(writeOutputs(o, result).md, 'utf8');
    expect(md).toMatch(
      /\| webgpu \| pulled \| sprite \| 2000 \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+ \| [\d.]+× \| \d+ \/ \d+ \|/,
    );
    expect(md).toMatch(
      /\| webgl2 \| pulled \| disc \| 2000 \| [\d.]+ \| [\d.]+ \| [\d.]+× \| – \| – \| – \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+ \| [\d.]+× \| \d+ \/ \d+ \|/,
    );
  }, 300_000);

  it("the draws suite: Ignis (a pass and a render bundle), a hand-written frame (and bundle on WebGPU), three.js and the frame without draws per draw on each backend; all of Ignis's and the hand-written frames light the same pixels, the frame without draws none", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-draws-'));
    const o = parseArgs(
      '--suites draws --draw-counts 150 --frames 3 --repeat 1 --quiet --out'.split(' ').concat(out),
    );
    const result = await runShared(o);
    type Row = {
      scenario: string;
      skipped?: string;
      draws?: {
        ignis: number;
        raw: number;
        three: number;
        bundle: number;
        rawBundle?: number;
        upload: number;
      };
      drawRatios?: {
        raw: number;
        three: number;
        bundle: number;
        bundleVsRawBundle?: number;
        rawBeyondUpload: number;
        bundleBeyondUpload: number;
      };
      drawsLit?: { ignis: number; raw: number; bundle: number; rawBundle?: number; upload: number };
    };
    const rows = result.rows as Row[];
    expect(rows.map((r) => r.scenario)).toEqual(['draws/webgpu/150', 'draws/webgl2/150']);
    for (const r of rows) {
      expect(r.skipped, `${r.scenario}: ${r.skipped}`).toBeUndefined();
      const webgpu = r.scenario.startsWith('draws/webgpu');
      for (const who of [
        'ignis',
        'raw',
        'three',
        'bundle',
        'upload',
        ...(webgpu ? ['rawBundle'] : []),
      ])
        expect(
          r.draws?.[who as keyof NonNullable<Row['draws']>],
          `${r.scenario}: ${who} µs per draw`,
        ).toBeGreaterThan(0);
      expect(r.drawRatios?.raw).toBeGreaterThan(0);
      expect(r.drawRatios?.bundle).toBeGreaterThan(0);
      // (a difference of two noisy times per round: any sign at 150 draws, but a number)
      expect(Number.isFinite(r.drawRatios?.rawBeyondUpload), r.scenario).toBe(true);
      expect(Number.isFinite(r.drawRatios?.bundleBeyondUpload), r.scenario).toBe(true);
      // the same 150 triangles, drawn by all: a frame that drew nothing would be cheaper
      expect(r.drawsLit?.ignis, r.scenario).toBeGreaterThan(150);
      expect(r.drawsLit?.ignis, r.scenario).toBe(r.drawsLit?.raw);
      expect(r.drawsLit?.bundle, r.scenario).toBe(r.drawsLit?.raw);
      if (webgpu) expect(r.drawsLit?.rawBundle, r.scenario).toBe(r.drawsLit?.raw);
      expect(r.drawsLit?.upload, `${r.scenario}: the frame without draws`).toBe(0);
    }
    const md = readFileSync(writeOutputs(o, result).md, 'utf8');
    expect(md).toMatch(
      /\| webgl2 \| 150 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+× \| [\d.]+ \| – \(none in WebGL2\) \| [\d.]+× \| – \| [\d.]+ \| -?[\d.]+× \| -?[\d.]+× \|/,
    );
    expect(md).toMatch(
      /\| webgpu \| 150 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+× \| [\d.]+ \| [\d.]+ \| [\d.]+× \| [\d.]+× \| [\d.]+ \| -?[\d.]+× \| -?[\d.]+× \|/,
    );
  }, 300_000);

  it('the sort suite: alpha unsorted and sorted per path, the depth sort timed by its passes', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-sort-'));
    const o = parseArgs(
      '--suites sort --sort-counts 2000 --frames 3 --warmup 1 --repeat 1 --preroll 3 --size 160x96 --quiet --out'
        .split(' ')
        .concat(out),
    );
    const result = await runShared(o);
    type Row = {
      scenario: string;
      skipped?: string;
      backend: string;
      e2eMs: { median: number };
      gpuSpansMs: { update: number; draw: number; sort?: number } | null;
    };
    const rows = result.rows as Row[];
    expect(rows.map((r) => r.scenario)).toEqual([
      'sort/compute@webgpu/pulled/2000/unsorted',
      'sort/compute@webgpu/pulled/2000/sorted',
      'sort/pingpong@webgl2/pulled/2000/unsorted',
      'sort/pingpong@webgl2/pulled/2000/sorted',
    ]);
    for (const r of rows) {
      expect(r.skipped, `${r.scenario}: ${r.skipped}`).toBeUndefined();
      expect(r.e2eMs.median).toBeGreaterThan(0);
      // the sort's passes are timed where it runs; an unsorted frame has none
      if (r.scenario.endsWith('/unsorted')) expect(r.gpuSpansMs?.sort).toBeUndefined();
      else if (r.backend === 'webgpu') expect(r.gpuSpansMs?.sort).toBeGreaterThan(0);
    }
    expect(sortTable(result.rows)).toMatch(
      /\| compute@webgpu \| 2000 \| \d+\.\d\d \| \d+\.\d\d \| \d+\.\d\d× \| \d/,
    );
  }, 300_000);

  it('the presets suite: each preset on each GPU path, the draw mode auto chose, the living count', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-presets-'));
    const o = parseArgs(
      '--suites presets --presets sparks,smoke --preset-counts 1500 --frames 3 --warmup 1 --repeat 1 --size 160x96 --quiet --out'
        .split(' ')
        .concat(out),
    );
    const result = await runShared(o);
    type Row = {
      scenario: string;
      skipped?: string;
      drawn: string | null;
      alive: number | null;
      e2eMs: { median: number };
      gpuSpansMs: { sort?: number } | null;
      backend: string;
    };
    const rows = result.rows as Row[];
    expect(rows.map((r) => r.scenario)).toEqual([
      'presets/compute@webgpu/auto/1500/sparks',
      'presets/pingpong@webgl2/auto/1500/sparks',
      'presets/compute@webgpu/auto/1500/smoke',
      'presets/pingpong@webgl2/auto/1500/smoke',
    ]);
    for (const r of rows) {
      expect(r.skipped, `${r.scenario}: ${r.skipped}`).toBeUndefined();
      expect(r.e2eMs.median).toBeGreaterThan(0);
      // auto decided before the measured frames; the emitters' steady state after the preroll
      expect(['instanced', 'pulled', 'splat']).toContain(r.drawn);
      expect(r.alive, r.scenario).toBeGreaterThan(100);
    }
    // smoke sorts its alpha puffs: the sort's passes are timed on WebGPU
    expect(rows[2]!.gpuSpansMs?.sort).toBeGreaterThan(0);
    expect(presetTable(result.rows)).toMatch(
      /\| smoke \| compute@webgpu \| auto→\w+ \| 1500 \| \d+\.\d\d \|/,
    );
  }, 300_000);

  it('the modules suite: the update with one module more, timed against none, per path', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-modules-'));
    const o = parseArgs(
      '--suites modules --module-extras none,colliders --module-counts 1500 --frames 3 --warmup 1 --repeat 1 --size 160x96 --quiet --out'
        .split(' ')
        .concat(out),
    );
    const result = await runShared(o);
    type Row = { scenario: string; skipped?: string; gpuMs: { update: number } | null };
    const rows = result.rows as Row[];
    expect(rows.map((r) => r.scenario)).toEqual([
      'modules/compute@webgpu/pulled/1500/none',
      'modules/compute@webgpu/pulled/1500/colliders',
      'modules/pingpong@webgl2/pulled/1500/none',
      'modules/pingpong@webgl2/pulled/1500/colliders',
    ]);
    for (const r of rows) {
      expect(r.skipped, `${r.scenario}: ${r.skipped}`).toBeUndefined();
      expect(r.gpuMs?.update, r.scenario).toBeGreaterThan(0);
    }
    expect(moduleTable(result.rows)).toMatch(
      /\| compute@webgpu \| 1500 \| colliders \| \d+\.\d{3} \| \d+\.\d\d× \| [\d.]+ \|/,
    );
    expect(() => parseArgs(['--module-extras', 'sdf'])).toThrow(/unknown module sdf/);
  }, 300_000);

  it('reports a scenario that cannot run as skipped with the reason, not dropped', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-bench-skip-'));
    const o = parseArgs([
      '--suites',
      'particles',
      '--preroll',
      '0',
      '--counts',
      '500',
      '--paths',
      'compute',
      '--draw',
      'pulled',
      '--frames',
      '3',
      '--warmup',
      '1',
      '--repeat',
      '1',
      '--size',
      '128x72',
      '--too-slow-ms',
      '0',
      '--out',
      out,
      '--quiet',
    ]);
    const result = await runShared(o);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0].skipped).toMatch(
      /^too slow: a warm-up frame took .* s \(limit 0\.0 s\)$/,
    );
    expect(result.rows[0].e2eMs).toBeNull();
    expect(markdownTable(result.rows)).toMatch(/skipped: too slow/);
  }, 120_000);

  it('parses options and rejects bad ones', () => {
    expect(parseArgs(['--counts', '10000,1_000_000']).counts).toEqual([10000, 1000000]);
    expect(() => parseArgs(['--paths', 'gpu'])).toThrow(/unknown path gpu/);
    expect(() => parseArgs(['--size', 'big'])).toThrow(/--size/);
    expect(() => parseArgs(['--frobnicate'])).toThrow(/unknown option/);
    expect(
      parseArgs(['--presets', 'fire, smoke', '--preset-counts', '1_000']).presetCounts,
    ).toEqual([1000]);
    expect(() => parseArgs(['--draw', 'sprites'])).toThrow(/unknown draw mode sprites/);
    expect(() => parseArgs(['--runtime', 'node'])).toThrow(
      /--runtime: node is not chromium or deno/,
    );
    expect(parseArgs(['--runtime', 'deno', '--draw', 'splat']).runtime).toBe('deno');
    expect(parseArgs(['--browser', 'firefox']).browser).toBe('firefox');
    expect(parseArgs([]).browser).toBe('chromium');
    expect(() => parseArgs(['--browser', 'webkit'])).toThrow(
      /--browser: webkit is not chromium or firefox/,
    );
    expect(parseArgs(['--draw-counts', '1_000,20']).drawCounts).toEqual([1000, 20]);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([5], 99)).toBe(5);
  });
});
