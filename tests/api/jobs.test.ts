import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cron } from 'croner';
import { occurrenceAt, purgeOldJobRuns, runExclusive, runOccurrence } from '../../src/server/jobs/scheduler.js';
import { createTestDatabase } from '../helpers/db.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** The `error` listeners on the connection a pool of one hands out: what a run left on it. */
async function errorListenersOf(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    return client.listenerCount('error');
  } finally {
    client.release();
  }
}

describe('jobs run in one process at a time (advisory lock)', () => {
  it('a second runner skips while the first holds the lock, and runs after', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const first = runExclusive(database.pool, 99, async () => {
      runs += 1;
      await gate;
    });
    // Wait until the first runner holds the lock (its job has started), however busy the machine.
    while (runs === 0) await new Promise((r) => setTimeout(r, 10));
    // A second "process": its own connection pool on the same database.
    const other = new pg.Pool({ connectionString: database.url, max: 1 });
    expect(await runExclusive(other, 99, async () => void (runs += 1))).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await runExclusive(other, 99, async () => void (runs += 1))).toBe(true);
    expect(runs).toBe(2);
    await other.end();
  });

  it('leaves no listener on the pooled connection it held the lock on, however many runs', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    const errorListeners = () => errorListenersOf(pool);
    expect(await runExclusive(pool, 98, async () => undefined)).toBe(true);
    const after = await errorListeners();
    for (let run = 0; run < 20; run += 1) expect(await runExclusive(pool, 98, async () => undefined)).toBe(true);
    expect(await errorListeners()).toBe(after);
    await pool.end();
  });
});

describe('the occurrence a timer fires for', () => {
  it('is the instant it fired on, even on the very millisecond', () => {
    const everyMinute = new Cron('* * * * *', { paused: true, timezone: 'Europe/Rome' });
    expect(occurrenceAt(everyMinute, new Date('2026-11-27T00:27:00.000Z')).toISOString()).toBe('2026-11-27T00:27:00.000Z');
    expect(occurrenceAt(everyMinute, new Date('2026-11-27T00:27:00.004Z')).toISOString()).toBe('2026-11-27T00:27:00.000Z');
    expect(occurrenceAt(everyMinute, new Date('2026-11-27T00:27:59.999Z')).toISOString()).toBe('2026-11-27T00:27:00.000Z');
  });
});

describe('the lock session cut under a running job (issue 32)', () => {
  /** The backend holding advisory lock `key`, if any. */
  async function holder(key: number): Promise<number | undefined> {
    const { rows } = await database.pool.query<{ pid: number }>(
      `select pid from pg_locks where locktype = 'advisory' and objid = $1 and granted`,
      [key],
    );
    return rows[0]?.pid;
  }

  it('the process goes on, the lock is taken again at once, and the occurrence runs once', async () => {
    const key = 97;
    const at = new Date('2026-11-21T09:00:00Z');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const job = {
      name: 'prova-sessione',
      pattern: '* * * * *',
      lock: key,
      run: async () => {
        runs += 1;
        await gate;
      },
    };
    const running = runOccurrence(database.pool, job, at);
    while (runs === 0) await new Promise((r) => setTimeout(r, 10));
    const first = await holder(key);
    expect(first).toBeDefined();
    // A restart, or an operator, ends the session that holds the lock.
    await database.pool.query('select pg_terminate_backend($1)', [first]);
    // The lock is held again, by a new session of the same runner, while the job goes on.
    let again: number | undefined;
    const deadline = Date.now() + 10_000;
    while ((again = await holder(key)) === undefined || again === first) {
      if (Date.now() > deadline) release();
      expect(Date.now(), 'the lock was not taken again').toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 10));
    }
    const other = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      // Another process: neither the same occurrence nor the job beside this run.
      expect(await runOccurrence(other, job, at)).toBe(false);
      expect(await runExclusive(other, key, async () => void (runs += 1))).toBe(false);
      release();
      expect(await running).toBe(true);
      expect(runs).toBe(1);
      expect(await holder(key)).toBeUndefined();
      const { rows } = await database.pool.query<{ n: number; error: string | null }>(
        `select count(*)::int as n, max(error) as error from job_runs where job = $1 and finished_at is not null`,
        [job.name],
      );
      expect(rows[0]).toEqual({ n: 1, error: null });
      // The next turn takes the lock as usual.
      expect(await runExclusive(other, key, async () => void (runs += 1))).toBe(true);
      expect(runs).toBe(2);
    } finally {
      await other.end();
    }
  });

  it('the connection it takes the lock again on goes back to the pool with no listener of the run left on it', async () => {
    const key = 96;
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    const errorListeners = () => errorListenersOf(pool);
    const plain = await errorListeners();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = false;
    const running = runExclusive(pool, key, async () => {
      started = true;
      await gate;
    });
    while (!started) await new Promise((r) => setTimeout(r, 10));
    const first = await holder(key);
    await database.pool.query('select pg_terminate_backend($1)', [first]);
    let again: number | undefined;
    const deadline = Date.now() + 10_000;
    while ((again = await holder(key)) === undefined || again === first) {
      if (Date.now() > deadline) release();
      expect(Date.now(), 'the lock was not taken again').toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 10));
    }
    release();
    expect(await running).toBe(true);
    expect(await errorListeners()).toBe(plain);
    await pool.end();
  });
});

describe('each occurrence of a job runs once, whichever process asks (job_runs)', () => {
  it('the first to claim runs it; a second process, even later, skips it; the next occurrence runs again', async () => {
    const other = new pg.Pool({ connectionString: database.url, max: 2 });
    let runs = 0;
    const job = { name: 'prova', pattern: '* * * * *', lock: 98, run: async () => void (runs += 1) };
    const at = new Date('2026-11-21T10:00:00Z');
    expect(await runOccurrence(database.pool, job, at)).toBe(true);
    expect(await runOccurrence(other, job, at)).toBe(false);
    expect(await runOccurrence(other, job, new Date('2026-11-21T10:01:00Z'))).toBe(true);
    expect(runs).toBe(2);
    const { rows } = await database.pool.query('select finished_at is not null as finished, error from job_runs where job = $1', ['prova']);
    expect(rows).toEqual([
      { finished: true, error: null },
      { finished: true, error: null },
    ]);
    await other.end();
  });

  it('a failed run is recorded with its error and not run again by another process', async () => {
    const failing = { name: 'guasta', pattern: '* * * * *', lock: 97, run: () => Promise.reject(new Error('SMTP non raggiungibile')) };
    const at = new Date('2026-11-21T11:00:00Z');
    await expect(runOccurrence(database.pool, failing, at)).rejects.toThrow('SMTP non raggiungibile');
    expect(await runOccurrence(database.pool, { ...failing, run: async () => undefined }, at)).toBe(false);
    const { rows } = await database.pool.query('select error from job_runs where job = $1', ['guasta']);
    expect(rows).toEqual([{ error: 'SMTP non raggiungibile' }]);
  });

  it('rows older than 14 days are purged', async () => {
    await database.pool.query(
      `insert into job_runs (job, scheduled_at, runner) values ('vecchia', now() - interval '15 days', 'x'), ('recente', now() - interval '13 days', 'x')`,
    );
    expect(await purgeOldJobRuns(database.pool)).toBe(1);
    const { rows } = await database.pool.query(`select job from job_runs where job in ('vecchia', 'recente')`);
    expect(rows).toEqual([{ job: 'recente' }]);
  });
});
