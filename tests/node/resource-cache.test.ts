import { describe, expect, it } from 'vitest';
import { ResourceCache } from '../../src/rhi/core/resource-cache.js';

describe('ResourceCache', () => {
  it('evicts and releases every entry built from a destroyed resource, and only those', () => {
    const released: string[] = [];
    const cache = new ResourceCache<string>((v) => released.push(v));
    cache.set('a', 'group(buffer 1, texture 2)', [1, 2]);
    cache.set('b', 'group(buffer 1, texture 3)', [1, 3]);
    cache.set('c', 'group(texture 3)', [3]);
    expect(cache.created).toBe(3);
    expect(cache.evict(2)).toBe(1);
    expect(released).toEqual(['group(buffer 1, texture 2)']);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('group(buffer 1, texture 3)');
    expect(cache.evict(1)).toBe(2); // 'a' already gone: released once only
    expect(released).toEqual(['group(buffer 1, texture 2)', 'group(buffer 1, texture 3)']);
    expect(cache.evict(99)).toBe(0);
    cache.clear();
    expect(released).toContain('group(texture 3)');
  });

  it('finds entries by a path of numbers, and forgets every path when a resource is evicted', () => {
    const cache = new ResourceCache<string>();
    const path = (make: boolean, ...numbers: number[]): ResourceCache<string> => {
      cache.walk(make);
      for (const n of numbers) cache.step(n);
      return cache;
    };
    expect(path(false, 7, 1, 256).found()).toBeUndefined();
    cache.set('7|1:256', 'group A', [1]);
    path(true, 7, 1, 256).keep('group A');
    cache.set('7|2:0', 'group B', [2]);
    path(true, 7, 2, 0).keep('group B');
    expect(path(false, 7, 1, 256).found()).toBe('group A');
    expect(path(false, 7, 2, 0).found()).toBe('group B');
    expect(path(false, 7, 1).found()).toBeUndefined(); // a prefix names nothing
    expect(path(false, 7, 1, 256, 0).found()).toBeUndefined(); // nor does a longer path
    expect(path(false, -1, 1, 256).found()).toBeUndefined();
    // evicting resource 2 drops group B from the cache and the whole index with it
    expect(cache.evict(2)).toBe(1);
    expect(path(false, 7, 2, 0).found()).toBeUndefined();
    expect(path(false, 7, 1, 256).found()).toBeUndefined();
    expect(cache.get('7|1:256')).toBe('group A'); // still cached under its string key
    // evicting an id nothing depends on keeps the index
    path(true, 7, 1, 256).keep('group A');
    expect(cache.evict(99)).toBe(0);
    expect(path(false, 7, 1, 256).found()).toBe('group A');
    cache.clear();
    expect(path(false, 7, 1, 256).found()).toBeUndefined();
  });
});
