// The `draws` suite's rounds (bench/page/draw-frames.ts `measureDraws`): the contenders' order in
// each round. A rotation kept every contender right behind the same other one, which alone moved
// two contenders of identical JavaScript 40–45% apart in the probe (docs/benchmarks.md).
import { describe, expect, it } from 'vitest';
import {
  DRAWS_PER_BURST,
  measureDraws,
  roundOrder,
  WARMUP_ROUNDS,
} from '../../bench/page/draw-frames.js';

describe("the draws suite's rounds", () => {
  it('shuffle the contenders, the same way for the same round, so that none always runs right after the same other one', () => {
    const names = ['raw', 'bundle', 'ignis', 'rawJs', 'js', 'record', 'replay'];
    const behind = new Map(names.map((k) => [k, new Set<string>()]));
    const firsts = new Set<string>();
    for (let r = 0; r < 20; r++) {
      const order = roundOrder(names, r);
      expect([...order].sort()).toEqual([...names].sort());
      expect(roundOrder(names, r)).toEqual(order);
      firsts.add(order[0] as string);
      for (let i = 1; i < order.length; i++)
        behind.get(order[i] as string)?.add(order[i - 1] as string);
    }
    for (const [k, before] of behind) expect(before.size, k).toBeGreaterThanOrEqual(3);
    expect(firsts.size).toBeGreaterThanOrEqual(4);
    expect(names).toEqual(['raw', 'bundle', 'ignis', 'rawJs', 'js', 'record', 'replay']);
  });
});

describe("the draws suite's bursts", () => {
  it('time about DRAWS_PER_BURST draws a contender by default, and the number asked for when one is (cpu-probe-draws.mjs --burst)', async () => {
    const calls: number[] = [];
    const counting = () => {
      const seen = { frames: 0 };
      calls.push(0);
      const at = calls.length - 1;
      return {
        frame: () => void (calls[at] = ++seen.frames),
        idle: async () => {},
        destroy: () => {},
      };
    };
    const rounds = 2;
    await measureDraws({ a: counting(), b: counting() }, 1000, rounds, 60_000);
    expect(calls).toEqual(Array(2).fill((WARMUP_ROUNDS + rounds) * (DRAWS_PER_BURST / 1000)));
    calls.length = 0;
    const { frames } = await measureDraws({ a: counting() }, 1000, rounds, 60_000, 60_000);
    expect(frames).toBe(60);
    expect(calls).toEqual([(WARMUP_ROUNDS + rounds) * 60]);
  });
});

describe("the benchmarks' repeats (ignis-bench, npm run bench)", () => {
  it('run the cells in the given order, then reversed: over each pair of repeats every cell has the same mean position', async () => {
    // (run always in one order, the last cell of a repeat read up to 10% faster than the first)
    const { repeatOrder } = (await import(
      // @ts-expect-error: a plain .mjs script without declarations
      '../../scripts/ignis-bench.mjs'
    )) as { repeatOrder<T>(cells: T[], r: number): T[] };
    const cells = ['instanced', 'pulled', 'splat', 'auto'];
    expect(repeatOrder(cells, 0)).toEqual(cells);
    const position = new Map(cells.map((c) => [c, 0]));
    for (let r = 0; r < 4; r++) {
      const order = repeatOrder(cells, r);
      expect([...order].sort()).toEqual([...cells].sort());
      order.forEach((c, i) => position.set(c, (position.get(c) as number) + i));
    }
    expect(new Set(position.values())).toEqual(new Set([2 * (cells.length - 1)]));
    expect(cells).toEqual(['instanced', 'pulled', 'splat', 'auto']);
  });
});
