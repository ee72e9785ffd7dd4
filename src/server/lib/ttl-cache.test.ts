import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  const t0 = new Date('2026-11-21T10:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('keeps a value for ttl milliseconds of clock time', () => {
    const cache = new TtlCache<string>(1000, 10);
    cache.set('a', 'x', t0);
    expect(cache.get('a', at(999))).toBe('x');
    expect(cache.get('a', at(1000))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry beyond its size, and everything on clear', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1, t0);
    cache.set('b', 2, t0);
    cache.set('c', 3, t0);
    expect(cache.get('a', t0)).toBeUndefined();
    expect(cache.get('c', t0)).toBe(3);
    cache.clear();
    expect(cache.get('b', t0)).toBeUndefined();
  });
});
