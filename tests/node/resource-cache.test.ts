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
});
