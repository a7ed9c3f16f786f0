// The scene kit's command lines (scripts/scene-args.mjs, ignis-check, ignis-bench) without a
// browser: the rung list matches check/rungs.ts, the parameter grid, and the errors.
import { describe, expect, it } from 'vitest';
import { RUNGS } from '../../check/rungs.js';
// @ts-expect-error: plain .mjs scripts without declarations
import { RUNG_NAMES } from '../../scripts/scene-args.mjs';
// @ts-expect-error: plain .mjs scripts without declarations
import { parseArgs as checkArgs } from '../../scripts/ignis-check.mjs';
// @ts-expect-error: plain .mjs scripts without declarations
import { parseArgs as benchArgs, gridCells, clockLine } from '../../scripts/ignis-bench.mjs';

type Parse = (argv: string[]) => Record<string, unknown>;

describe('scene kit command lines', () => {
  it('the CLIs know the rungs of check/rungs.ts, in order', () => {
    expect(RUNG_NAMES).toEqual(RUNGS.map((r) => r.name));
  });

  it('ignis-bench: --param axes make a grid of every combination', () => {
    const o = (benchArgs as Parse)(['s.ts', '--param', 'count=1e3,1e4', '--param', 'mode=a,b']);
    expect(o['grid']).toEqual({ count: [1000, 10000], mode: ['a', 'b'] });
    expect((gridCells as (g: unknown) => unknown[])(o['grid'])).toEqual([
      { count: 1000, mode: 'a' },
      { count: 1000, mode: 'b' },
      { count: 10000, mode: 'a' },
      { count: 10000, mode: 'b' },
    ]);
    expect((gridCells as (g: unknown) => unknown[])({})).toEqual([{}]);
  });

  it('--gpu asks for a hardware adapter; SwiftShader by default', () => {
    expect((checkArgs as Parse)(['a.ts'])['gpu']).toBe(false);
    expect((benchArgs as Parse)(['a.ts', '--gpu'])['gpu']).toBe(true);
  });

  it('option errors name the tool, the option and the value', () => {
    expect(() => (checkArgs as Parse)([])).toThrow(/ignis-check: no scene module given/);
    expect(() => (checkArgs as Parse)(['a.ts', 'b.ts'])).toThrow(/one scene at a time/);
    expect(() => (checkArgs as Parse)(['a.ts', '--size', '10'])).toThrow(
      /--size 10 must be WIDTHxHEIGHT/,
    );
    expect(() => (checkArgs as Parse)(['a.ts', '--frames', '-1'])).toThrow(
      /--frames -1 is not a non-negative number/,
    );
    expect(() => (checkArgs as Parse)(['a.ts', '--frames'])).toThrow(/--frames needs a value/);
    expect(() => (benchArgs as Parse)(['a.ts', '--param', 'count'])).toThrow(
      /ignis-bench: --param count is not name=value/,
    );
    expect(() => (benchArgs as Parse)(['s.ts', '--runtime', 'deno', '--screenshots'])).toThrow(
      /--screenshots needs the browser runtime/,
    );
    expect(() => (benchArgs as Parse)(['a.ts', '--colour', 'red'])).toThrow(
      /unknown option --colour/,
    );
    expect(() => (benchArgs as Parse)(['a.ts', '--clocks', 'always'])).toThrow(
      /ignis-bench: --clocks always is not auto, on or off/,
    );
  });

  it("ignis-bench --clocks: auto by default; the report's line says which cells were guarded, the lowest share found, and why the others were not", () => {
    expect((benchArgs as Parse)(['a.ts'])['clocks']).toBe('auto');
    expect((benchArgs as Parse)(['a.ts', '--clocks', 'off'])['clocks']).toBe('off');
    const line = clockLine as (o: unknown, rows: unknown[]) => string;
    const rows = [
      { key: 'webgpu count=1', clock: 0.996 },
      { key: 'webgpu count=2', clock: 0.5 },
      { key: 'webgl2 count=1', clockNote: 'webgl2 has no compute' },
      { key: 'webgl2 count=2', clockNote: 'webgl2 has no compute' },
    ];
    expect(line({ clocks: 'auto' }, rows)).toBe(
      "Clock (--clocks auto): guarded (check/clock-probe.ts: each cell's measured frames start at its top, checked every second); the lowest share of its top found, per cell: webgpu count=1 1.00, webgpu count=2 0.50; not guarded on 2 cells (webgl2 has no compute).",
    );
    expect(line({ clocks: 'off' }, rows)).toBe('Clock: not guarded (--clocks off).');
    expect(line({ clocks: 'on' }, [])).toBe('Clock (--clocks on): no cell measured.');
  });
});
