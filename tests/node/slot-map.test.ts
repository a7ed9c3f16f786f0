// SlotMap, the slot tables' storage (an array for group 0, a Map for the other groups): a
// ReadonlyMap by slot number, whatever group the slot is in.
import { describe, expect, it } from 'vitest';
import { SlotMap } from '../../src/rhi/core/slot-map.js';

describe('SlotMap', () => {
  it('gets, sets, deletes and counts slots of group 0 and of other groups alike', () => {
    const m = new SlotMap<string>();
    expect(m.size).toBe(0);
    m.set(3, 'a').set(0, 'b').set(2005, 'c').set(1000, 'd').set(3, 'e');
    expect(m.size).toBe(4);
    expect([m.get(0), m.get(3), m.get(1000), m.get(2005), m.get(1), m.get(4000)]).toEqual([
      'b',
      'e',
      'd',
      'c',
      undefined,
      undefined,
    ]);
    expect(m.has(1000) && !m.has(1)).toBe(true);
    expect(m.delete(3)).toBe(true);
    expect(m.delete(3)).toBe(false);
    expect(m.delete(2005)).toBe(true);
    expect(m.delete(2006)).toBe(false);
    expect(m.size).toBe(2);
    expect([...m]).toEqual([
      [0, 'b'],
      [1000, 'd'],
    ]);
    m.clear();
    expect([m.size, m.get(0), m.get(1000)]).toEqual([0, undefined, undefined]);
  });

  it('iterates by slot number, group 0 first, and allows deleting while walking the keys', () => {
    const m = new SlotMap<number>();
    for (const slot of [2003, 7, 1001, 0, 2000, 999]) m.set(slot, slot * 10);
    expect([...m.keys()]).toEqual([0, 7, 999, 1001, 2000, 2003]);
    expect([...m.values()]).toEqual([0, 70, 9990, 10010, 20000, 20030]);
    const seen: number[] = [];
    m.forEach((value, slot, map) => {
      expect(map).toBe(m);
      seen.push(value - slot * 10);
    });
    expect(seen).toEqual([0, 0, 0, 0, 0, 0]);
    // (setBindGroup clears a group's slots this way)
    for (const slot of m.keys()) if (slot >= 1000 && slot < 2000) m.delete(slot);
    expect([...m.keys()]).toEqual([0, 7, 999, 2000, 2003]);
    expect(m.size).toBe(5);
  });
});
