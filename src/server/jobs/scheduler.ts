import { Cron } from 'croner';
import type pg from 'pg';
import type { Logger } from '../logger.js';

/** Keys of the PostgreSQL advisory locks that make each job run in one process at a time. */
export const JOB_LOCKS = { lifecycle: 4_201_001, reports: 4_201_002, sessions: 4_201_003 } as const;

/**
 * Runs `fn` only if this process wins the advisory lock `key` (held on one pooled
 * connection for the duration). With several app processes on one database, exactly one
 * runs the job; the others skip this turn. Returns whether it ran.
 */
export async function runExclusive(pool: pg.Pool, key: number, fn: () => Promise<unknown>): Promise<boolean> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
    if (!rows[0]?.locked) return false;
    try {
      await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key]);
    }
    return true;
  } finally {
    client.release();
  }
}

export interface JobSpec {
  name: string;
  /** Cron pattern, evaluated in the scheduler's time zone. */
  pattern: string;
  lock: number;
  run: () => Promise<unknown>;
}

/** Starts the jobs with croner; `stop()` ends them (waiting for none: each run is short). */
export function startScheduler(pool: pg.Pool, timeZone: string, jobs: JobSpec[], log: Logger) {
  const crons = jobs.map(
    (job) =>
      new Cron(job.pattern, { timezone: timeZone, protect: true, name: job.name }, async () => {
        try {
          const ran = await runExclusive(pool, job.lock, job.run);
          log.debug({ job: job.name, ran }, 'job tick');
        } catch (err) {
          log.error({ err, job: job.name }, 'job failed');
        }
      }),
  );
  return {
    stop() {
      for (const c of crons) c.stop();
    },
  };
}
