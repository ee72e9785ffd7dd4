import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExclusive } from '../../src/server/jobs/scheduler.js';
import { createTestDatabase } from '../helpers/db.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('jobs run in one process at a time (advisory lock)', () => {
  it('a second runner skips while the first holds the lock, and runs after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const first = runExclusive(database.pool, 99, async () => {
      runs += 1;
      await gate;
    });
    // Let the first runner take the lock.
    await new Promise((r) => setTimeout(r, 100));
    // A second "process": its own connection pool on the same database.
    const other = new pg.Pool({ connectionString: database.url, max: 1 });
    expect(await runExclusive(other, 99, async () => void (runs += 1))).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await runExclusive(other, 99, async () => void (runs += 1))).toBe(true);
    expect(runs).toBe(2);
    await other.end();
  });
});
