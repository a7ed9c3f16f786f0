// `npm run bench -- --runtime deno` end to end, tiny: builds dist/, finds or installs Deno, runs the
// particle benchmark under Deno's WebGPU (on SwiftShader's Vulkan driver here: the same command
// runs on a GPU server with --gpu) and writes the JSON and markdown with every section.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
// @ts-expect-error -- a plain .mjs script without declarations
import { buildLibrary, denoEnv, findDeno } from '../../scripts/deno.mjs';
import os from 'node:os';
import path from 'node:path';

describe('the benchmark under Deno (--runtime deno)', () => {
  it('measures every draw mode, the reference draw, the splat against hand-written splats and the CPU path, and writes the outputs', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-deno-bench-'));
    const r = spawnSync(
      'node',
      [
        'bench/main.mjs',
        '--runtime',
        'deno',
        '--counts',
        '800',
        '--cpu-counts',
        '800',
        '--size',
        '64x48',
        '--frames',
        '2',
        '--repeat',
        '1',
        '--out',
        out,
      ],
      { encoding: 'utf8', timeout: 280_000 },
    );
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'deno', 'latest.json'), 'utf8'));
    expect(json.meta.runtime).toMatch(/^deno /);
    expect(json.meta.adapter).toMatch(/SwiftShader/i);
    const modes = json.rows.map((row: { drawMode: string }) => row.drawMode);
    expect(modes).toEqual(['instanced', 'pulled', 'splat', 'auto']);
    for (const row of json.rows) {
      expect(row.count).toBe(800);
      expect(row.gpuMs.draw).toBeGreaterThan(0);
      expect(row.cpuMs).toBeGreaterThan(0);
    }
    expect(json.rows[3].reason).toMatch(/^measured \(GPU timestamps/);
    // both looks, both modes; each row's two draws show the same picture
    expect(
      json.referenceRows.map((row: { look: string; mode: string }) => `${row.look} ${row.mode}`),
    ).toEqual(['disc instanced', 'disc pulled', 'sprite instanced', 'sprite pulled']);
    for (const row of json.referenceRows) {
      expect(row.rawGpuMs).toBeGreaterThan(0);
      expect(row.image.lit).toBeGreaterThan(0);
      expect(row.image.differing).toBeLessThanOrEqual(row.image.lit / 50);
    }
    // the splat against the hand-written splats (3 channels, 4, 4 with the overflow test)
    expect(json.splatRows).toHaveLength(1);
    expect(json.splatRows[0].ignis.splat).toBeGreaterThan(0);
    // Ignis keeping the target's alpha (three channels): the same colours
    expect(json.splatRows[0].ignisKept.splat).toBeGreaterThan(0);
    expect(json.splatRows[0].ignisKept.pixelsOff).toBe(0);
    expect(json.splatRows[0].raw.map((x: { variant: string }) => x.variant)).toEqual([
      'raw 3ch',
      'raw 4ch',
      'raw 4ch +check',
      'raw 4ch +check +loop',
    ]);
    for (const x of json.splatRows[0].raw) expect(x.splat + x.resolve).toBeGreaterThan(0);
    const md = readFileSync(path.join(out, 'deno', 'latest.md'), 'utf8');
    expect(md).toMatch(/\| 800 \| auto \| (instanced|pulled|splat) \|/);
    expect(md).toMatch(/hand-written WebGPU reference/);
    expect(md).toMatch(/\| 800 \| [\d.]+ \([\d.]+ \+ [\d.]+\) \|/);
    expect(md).toMatch(/\| 800 \| \d+\.\d\d \| \d+\.\d{3} \|/);
  }, 300_000);

  it('--suites draws: the CPU cost per draw, Ignis against the hand-written WebGPU frame (and their render bundles) and the frame without draws, all lighting the same pixels (that one none)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-deno-draws-'));
    const r = spawnSync(
      'node',
      [
        'bench/main.mjs',
        '--runtime',
        'deno',
        '--suites',
        'draws',
        '--draw-counts',
        '100,300',
        '--frames',
        '3',
        '--out',
        out,
      ],
      { encoding: 'utf8', timeout: 280_000 },
    );
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'deno', 'draws.json'), 'utf8'));
    expect(json.meta.adapter).toMatch(/SwiftShader/i);
    expect(json.rows.map((row: { draws: number }) => row.draws)).toEqual([100, 300]);
    for (const row of json.rows) {
      expect(row.ignisUsPerDraw).toBeGreaterThan(0);
      expect(row.rawUsPerDraw).toBeGreaterThan(0);
      expect(row.bundleUsPerDraw).toBeGreaterThan(0);
      expect(row.rawBundleUsPerDraw).toBeGreaterThan(0);
      expect(row.lit.ignis).toBe(row.lit.raw);
      expect(row.lit.bundle).toBe(row.lit.raw);
      expect(row.lit.rawBundle).toBe(row.lit.raw);
      expect(row.lit.ignis).toBeGreaterThan(0);
      expect(row.uploadUsPerDraw).toBeGreaterThan(0);
      expect(row.lit.upload, 'the frame without draws lights nothing').toBe(0);
      // (a ratio of two differences of noisy times: any sign at 300 draws, but a number)
      expect(Number.isFinite(row.beyondUploadRatio)).toBe(true);
    }
    expect(readFileSync(path.join(out, 'deno', 'draws.md'), 'utf8')).toMatch(
      /\| 300 \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d\d× \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d\d× \| \d+\.\d{3} \| -?\d+\.\d\d× \|/,
    );
  }, 300_000);

  it('bench/deno/postfx.ts: the post chain and the blur per path, guarded with --clocks on (each row says the share of the top its rounds kept) and not with --clocks off', () => {
    const dist = path.join(buildLibrary(process.cwd()), 'index.js');
    const deno = findDeno();
    const env = { ...denoEnv({ quiet: true }), IGNIS_DIST: dist };
    const measure = (clocks: 'on' | 'off') => {
      const out = mkdtempSync(path.join(os.tmpdir(), 'ignis-deno-postfx-'));
      // 6 frames a row: a round of 5 and a round of 1, each after a warm-up where guarded
      const args = ['run', '-A', 'bench/deno/postfx.ts', out, '6', '--sizes', '64x48'];
      const r = spawnSync(deno, [...args, '--radii', '4', '--clocks', clocks], {
        encoding: 'utf8',
        timeout: 200_000,
        env,
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      const json = JSON.parse(readFileSync(path.join(out, 'postfx-deno.json'), 'utf8'));
      return { json, md: readFileSync(path.join(out, 'postfx-deno.md'), 'utf8') };
    };
    const on = measure('on');
    expect(on.json.meta.clockGuard).toBe('on');
    expect(
      on.json.rows.map(
        (r: { kind: string; path: string; size: string }) => `${r.kind} ${r.path} ${r.size}`,
      ),
    ).toEqual([
      'post compute 64x48',
      'post fragment 64x48',
      'blur compute 64x48',
      'blur fragment 64x48',
    ]);
    for (const row of on.json.rows) {
      if (row.kind === 'post') {
        expect(row.bloom).toBeGreaterThan(0);
        expect(row['tone map + grade']).toBeGreaterThan(0);
      } else expect(row.blur).toBeGreaterThan(0);
      expect(row.clock).toBeGreaterThan(0);
      expect(row.clock).toBeLessThanOrEqual(1);
    }
    expect(on.md).toMatch(/\| blur r4 \| fragment \| 64x48 \| — \| — \| \d+\.\d{3} \| \d\.\d\d \|/);
    const off = measure('off');
    expect(off.json.meta.clockGuard).toBe('off (--clocks off)');
    for (const row of off.json.rows) expect(row.clock).toBeUndefined();
    // a typo in an option is an error that names the options, not a silent default
    const bad = spawnSync(
      deno,
      ['run', '-A', 'bench/deno/postfx.ts', '/tmp', '2', '--size', '64x48'],
      {
        encoding: 'utf8',
        timeout: 100_000,
        env,
      },
    );
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--size: postfx.ts takes --clocks, --sizes and --radii/);
  }, 420_000);
});
