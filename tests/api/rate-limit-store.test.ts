import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresRateLimitStore, purgeExpiredRateLimits } from '../../src/server/http/rate-limit-store.js';
import { createTestDatabase } from '../helpers/db.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

type State = { current: number; ttl: number };
const call = (fn: (cb: (err: Error | null, s?: State) => void) => void) =>
  new Promise<State>((resolve, reject) => fn((err, s) => (err ? reject(err) : resolve(s!))));

describe('rate-limit counters in PostgreSQL', () => {
  it('counts hits in a window, keeps its end, and starts again when it is over', async () => {
    const Store = postgresRateLimitStore(database.pool);
    const store = new Store().child({ routeInfo: { method: 'POST', url: '/api/register' } } as never);
    const first = await call((cb) => store.incr('10.0.0.1', cb, 60_000));
    expect(first.current).toBe(1);
    expect(first.ttl).toBeGreaterThan(59_000);
    expect(first.ttl).toBeLessThanOrEqual(60_000);
    expect((await call((cb) => store.incr('10.0.0.1', cb, 60_000))).current).toBe(2);
    // Reading does not count.
    expect((await call((cb) => store.read('10.0.0.1', cb))).current).toBe(2);
    expect((await call((cb) => store.read('10.0.0.2', cb))).current).toBe(0);
    // The route is part of the key: the same client elsewhere starts at 1.
    const elsewhere = new Store().child({ routeInfo: { method: 'POST', url: '/api/reset-password' } } as never);
    expect((await call((cb) => elsewhere.incr('10.0.0.1', cb, 60_000))).current).toBe(1);

    await database.pool.query(`update rate_limits set reset_at = now() - interval '1 second' where key = 'POST /api/register|10.0.0.1'`);
    expect((await call((cb) => store.read('10.0.0.1', cb))).current).toBe(0);
    expect(await purgeExpiredRateLimits(database.pool)).toBe(1);
    expect((await call((cb) => store.incr('10.0.0.1', cb, 60_000))).current).toBe(1);
  });

  it('concurrent hits on one key from many connections are all counted', async () => {
    const Store = postgresRateLimitStore(database.pool);
    const store = new Store();
    const states = await Promise.all(Array.from({ length: 40 }, () => call((cb) => store.incr('folla', cb, 60_000))));
    expect(states.map((s) => s.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});
