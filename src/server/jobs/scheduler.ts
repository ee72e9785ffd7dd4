import os from 'node:os';
import { Cron } from 'croner';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import type { AppMetrics } from '../metrics.js';
import { reachabilityOf } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/outage.js';

/** Keys of the PostgreSQL advisory locks that make each job run in one process at a time. */
export const JOB_LOCKS = { lifecycle: 4_201_001, reports: 4_201_002, sessions: 4_201_003, stats: 4_201_004, retention: 4_201_005, backup: 4_201_006, baseBackup: 4_201_007 } as const;

/**
 * Runs `fn` only if this process wins the advisory lock `key` (held on one pooled
 * connection for the duration). With several app processes on one database, exactly one
 * runs the job; the others skip this turn. Returns whether it ran.
 *
 * The lock's session can be cut under a running job (a database restart, a terminated
 * backend: issue 32). PostgreSQL then drops the lock. The process goes on, the job runs to
 * its end (each of its steps is a transaction of its own, retried as any other), and the
 * lock is taken again at once on a new connection, so that another process does not start
 * the same job beside this run; the same occurrence is never run twice anyway (`job_runs`).
 */
export async function runExclusive(pool: pg.Pool, key: number, fn: () => Promise<unknown>, log?: Logger): Promise<boolean> {
  const session = await LockSession.take(pool, key, log);
  if (!session) return false;
  try {
    await fn();
  } finally {
    await session.release();
  }
  return true;
}

/** One advisory lock held on a connection of its own, taken again if that connection is cut. */
class LockSession {
  private released = false;
  private retaking: Promise<void> | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly key: number,
    private client: pg.PoolClient | undefined,
    private readonly log: Logger | undefined,
  ) {
    this.watch(client!);
  }

  static async take(pool: pg.Pool, key: number, log?: Logger): Promise<LockSession | undefined> {
    const client = await LockSession.lockOn(pool, key);
    return client && new LockSession(pool, key, client, log);
  }

  /** A pooled connection that holds advisory lock `key`; none when another session holds it. */
  private static async lockOn(pool: pg.Pool, key: number): Promise<pg.PoolClient | undefined> {
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      if (rows[0]?.locked) return client;
      client.release();
      return undefined;
    } catch (err) {
      client.release(err instanceof Error ? err : true);
      throw err;
    }
  }

  /** Lets the lock go and gives the connection back to the pool (or drops it, when the unlock failed with it). */
  private static async unlock(client: pg.PoolClient, key: number): Promise<void> {
    try {
      await client.query('select pg_advisory_unlock($1)', [key]);
      client.release();
    } catch (err) {
      // The session went with the unlock: the lock went with it.
      client.release(err instanceof Error ? err : true);
    }
  }

  /** The listener on `client` while the lock is held on it: removed when the connection goes back to the pool. */
  private onLost: ((err: Error) => void) | undefined;

  private watch(client: pg.PoolClient) {
    this.onLost = (err) => {
      this.onLost = undefined;
      if (this.client !== client) return;
      this.client = undefined;
      client.release(err);
      if (this.released) return;
      this.log?.warn({ err, lock: this.key }, 'job lock session lost: taking the lock again');
      this.retaking = this.retake();
    };
    client.once('error', this.onLost);
  }

  /** Takes the lock again on a new connection, as long as the run goes on. */
  private async retake(): Promise<void> {
    for (let delay = 50; !this.released; delay = Math.min(delay * 2, 1_000)) {
      try {
        const client = await LockSession.lockOn(this.pool, this.key);
        if (!client) {
          this.log?.error({ lock: this.key }, 'job lock taken by another process while this run goes on');
          return;
        }
        if (this.released) return void (await LockSession.unlock(client, this.key));
        this.client = client;
        this.watch(client);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  async release(): Promise<void> {
    this.released = true;
    await this.retaking;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A pooled connection outlives the run: a listener left on it would hold this session, one more
    // each minute the jobs run (11 on one connection raised Node's leak warning in the e2e server).
    if (this.onLost) client.removeListener('error', this.onLost);
    this.onLost = undefined;
    await LockSession.unlock(client, this.key);
  }
}

export interface JobSpec {
  name: string;
  /** Cron pattern, evaluated in the scheduler's time zone. */
  pattern: string;
  lock: number;
  /** `scheduledAt`: the occurrence being run (the nightly backup names its file after it); absent when run by hand. */
  run: (scheduledAt?: Date) => Promise<unknown>;
}

/** Who runs an occurrence, in `job_runs.runner`. */
const RUNNER = `${os.hostname()}:${process.pid}`;

/**
 * Claims one occurrence of a job for this process: true for the first process (of any
 * machine) to ask, false for every other. The row stays as the record of the run.
 */
export async function claimOccurrence(pool: pg.Pool, job: string, scheduledAt: Date): Promise<boolean> {
  const { rowCount } = await pool.query(
    'insert into job_runs (job, scheduled_at, runner) values ($1, $2, $3) on conflict do nothing',
    [job, scheduledAt, RUNNER],
  );
  return rowCount === 1;
}

async function recordEnd(pool: pg.Pool, job: string, scheduledAt: Date, error?: unknown) {
  await pool.query('update job_runs set finished_at = now(), error = $3 where job = $1 and scheduled_at = $2', [
    job,
    scheduledAt,
    error === undefined ? null : (error instanceof Error ? error.message : String(error)).slice(0, 500),
  ]);
}

/**
 * Runs one occurrence of `job` (its scheduled instant `scheduledAt`) in exactly one of the
 * processes whose timers fire for it: the first to claim it in `job_runs` runs it, under
 * the job's advisory lock so that it never overlaps a slow previous run. A timer that fires
 * late, or on a machine whose clock is a little off, finds the occurrence taken. Returns
 * whether this process ran it.
 *
 * Every job is measured here, whatever it is (decision 032), in the app's `metrics`: a run, its duration, a failure (the job threw), or a skip (the previous run
 * still held the lock). An occurrence another process claimed is not this process's to count.
 */
export async function runOccurrence(
  pool: pg.Pool,
  job: JobSpec,
  scheduledAt: Date,
  log?: Logger,
  metrics?: AppMetrics,
  onClaimed?: () => void,
): Promise<boolean> {
  if (!(await claimOccurrence(pool, job.name, scheduledAt))) return false;
  onClaimed?.();
  try {
    const run = () => job.run(scheduledAt);
    const ran = await runExclusive(pool, job.lock, metrics ? () => metrics.timeJob(job.name, run) : run, log);
    if (!ran) metrics?.jobRuns.inc({ job: job.name, outcome: 'skipped' });
    // A previous occurrence still running (hours-long, in theory) keeps the lock: this one is
    // skipped, and says so.
    await recordEnd(pool, job.name, scheduledAt, ran ? undefined : 'saltata: esecuzione precedente ancora in corso');
    return ran;
  } catch (err) {
    await recordEnd(pool, job.name, scheduledAt, err).catch(() => undefined);
    throw err;
  }
}

/** Rows of `job_runs` older than this are purged (the hourly purge job). */
export const JOB_RUNS_KEPT_DAYS = 14;

export async function purgeOldJobRuns(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query(`delete from job_runs where scheduled_at < now() - make_interval(days => $1)`, [
    JOB_RUNS_KEPT_DAYS,
  ]);
  return rowCount ?? 0;
}

/**
 * Starts the jobs with croner. Every process may start the same jobs: each occurrence runs
 * once among them. `stop()` stops the timers and resolves when the runs in flight have
 * finished, so that the caller may then close the pool under them.
 */
export function startScheduler(pool: pg.Pool, timeZone: string, jobs: JobSpec[], log: Logger, metrics?: AppMetrics) {
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();
  const crons = jobs.map(
    (job) =>
      new Cron(job.pattern, { timezone: timeZone, protect: true, name: job.name }, (self: Cron) => {
        // The occurrence this timer fired for: the latest scheduled instant up to now.
        const scheduledAt = occurrenceAt(self, new Date());
        const latest = () => occurrenceAt(self, new Date());
        const tick = runThroughOutage(pool, job, scheduledAt, latest, stopping.signal, log, metrics).then(
          (ran) => log.debug({ job: job.name, scheduledAt, ran }, 'job tick'),
          (err: unknown) => log.error({ err, job: job.name }, 'job failed'),
        );
        inFlight.add(tick);
        void tick.finally(() => inFlight.delete(tick));
        return tick;
      }),
  );
  return {
    async stop() {
      for (const c of crons) c.stop();
      stopping.abort();
      await Promise.all([...inFlight]);
    },
  };
}

/**
 * The occurrence a timer fires for at `now`: the latest scheduled instant up to and including
 * `now`. croner fires at or after the instant, never before, but `previousRuns` excludes its
 * reference: a timer that fired on the very millisecond (it does, now and then) was labelled
 * with the occurrence before, already claimed, and that turn of the job was skipped.
 */
export function occurrenceAt(cron: Cron, now: Date): Date {
  return cron.previousRuns(1, new Date(now.getTime() + 1))[0] ?? now;
}

/**
 * `runOccurrence`, but an occurrence that found the database away waits for it to come back
 * and then runs (issue 32): a job missed during a restart runs once when it is over. Its
 * timer's next ticks are skipped meanwhile (croner's `protect`), so one waiting occurrence
 * stands for all those the outage swallowed.
 *
 * An occurrence claimed before the outage does not stand for it: the outage began under its
 * run (its statements waited for the database, or its end could not be recorded). It is not
 * run again, but the ticks skipped while it waited still get their one run, as the latest of
 * them (`latest()` when the database is back). Without that, a tick that ran a moment before
 * a restart swallowed every tick of the outage.
 */
async function runThroughOutage(
  pool: pg.Pool,
  job: JobSpec,
  first: Date,
  latest: () => Date,
  stop: AbortSignal,
  log: Logger,
  metrics?: AppMetrics,
): Promise<boolean> {
  const reachability = reachabilityOf(pool);
  let scheduledAt = first;
  let ran = false;
  /** The pool's outage count when the occurrence was claimed: an outage after it is one the occurrence does not stand for. */
  let claimedAt: number | undefined;
  const onClaimed = () => (claimedAt = reachability?.outages);
  /** The latest tick, if the occurrence claimed predates an outage the database is now back from. */
  const swallowed = () => {
    if (!reachability || claimedAt === undefined || reachability.outages === claimedAt || stop.aborted) return undefined;
    const next = latest();
    return next.getTime() > scheduledAt.getTime() ? next : undefined;
  };
  for (;;) {
    try {
      claimedAt = undefined;
      ran = (await runOccurrence(pool, job, scheduledAt, log, metrics, onClaimed)) || ran;
    } catch (err) {
      if (!reachability || !isDatabaseUnavailable(err) || stop.aborted) throw err;
      log.warn({ job: job.name, scheduledAt }, 'job waiting for the database to come back');
      while (!reachability.up && !stop.aborted) await reachability.waitUntilUp(1_000);
      if (stop.aborted) throw err;
      // Not claimed: the same occurrence, now. Claimed (it ran, or began to): the latest tick.
      scheduledAt = swallowed() ?? scheduledAt;
      continue;
    }
    const next = swallowed();
    if (!next) return ran;
    log.info({ job: job.name, scheduledAt: next }, 'job running the latest tick an outage swallowed');
    scheduledAt = next;
  }
}
