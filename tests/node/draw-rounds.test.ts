// The `draws` suite's rounds (bench/page/draw-frames.ts `measureDraws`): the contenders' order in
// each round. A rotation kept every contender right behind the same other one, which alone moved
// two contenders of identical JavaScript 40–45% apart in the probe (docs/benchmarks.md).
import { describe, expect, it } from 'vitest';
import { roundOrder } from '../../bench/page/draw-frames.js';

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
