import { describe, expect, it } from 'vitest';
import type { BikeDto } from '../../../shared/schemas/booking.js';
import { AvailabilityCache } from './availability-cache.js';
import type { JsonText } from './service.js';

const answer = (s: string) => s as JsonText<BikeDto[]>;
const t0 = new Date('2026-11-21T09:00:00Z');

describe('AvailabilityCache', () => {
  it('serves nothing and keeps nothing until its listener is connected', () => {
    const cache = new AvailabilityCache();
    cache.set('k', answer('[]'), t0, cache.version);
    expect(cache.get('k', t0)).toBeUndefined();
    cache.setActive(true);
    cache.set('k', answer('[]'), t0, cache.version);
    expect(cache.get('k', t0)).toBe('[]');
  });

  it('is emptied by a notification and when the listener drops', () => {
    const cache = new AvailabilityCache();
    cache.setActive(true);
    cache.set('k', answer('[1]'), t0, cache.version);
    cache.apply();
    expect(cache.get('k', t0)).toBeUndefined();
    cache.set('k', answer('[1]'), t0, cache.version);
    cache.setActive(false);
    expect(cache.size).toBe(0);
    cache.setActive(true);
    expect(cache.get('k', t0)).toBeUndefined();
  });

  it('does not keep an answer read before a change announced while the query ran', () => {
    const cache = new AvailabilityCache();
    cache.setActive(true);
    const version = cache.version; // the query is sent
    cache.apply(); // the notification of a commit overtakes its reply
    cache.set('k', answer('[stale]'), t0, version);
    expect(cache.get('k', t0)).toBeUndefined();
    // Nor one read while the listener was down and came back (changes may have been missed).
    const before = cache.version;
    cache.setActive(false);
    cache.setActive(true);
    cache.set('k', answer('[stale]'), t0, before);
    expect(cache.get('k', t0)).toBeUndefined();
  });

  it('still lets answers expire by time', () => {
    const cache = new AvailabilityCache(1000);
    cache.setActive(true);
    cache.set('k', answer('[]'), t0, cache.version);
    expect(cache.get('k', new Date(t0.getTime() + 999))).toBe('[]');
    expect(cache.get('k', new Date(t0.getTime() + 1000))).toBeUndefined();
  });
});
