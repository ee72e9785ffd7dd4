import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { pgErrorCode, type Db } from './client.js';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './outage.js';

/** A transaction of the app's database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * SQLSTATEs after which the whole transaction may simply run again: PostgreSQL rolled it
 * back to break a deadlock (40P01) or a serialisation conflict (40001). Decision 023.
 */
const RETRYABLE = new Set(['40P01', '40001']);

/** Attempts in all (the first and up to three retries). */
export const MAX_ATTEMPTS = 4;

/**
 * A transaction that certainly did not commit because its connection broke: cut before its
 * COMMIT was sent, or after, when PostgreSQL says it was aborted (decision 038). Safe to run
 * again, as a deadlock victim is.
 */
export class TransactionCutError extends Error {
  constructor(cause: unknown) {
    super('transaction cut with its connection, not committed', { cause });
    this.name = 'TransactionCutError';
  }
}

export const isRetryable = (err: unknown): boolean => err instanceof TransactionCutError || RETRYABLE.has(pgErrorCode(err) ?? '');

/** The SQLSTATE, or for a cut transaction the reason, counted and logged for a retry. */
const retryReason = (err: unknown): string => (err instanceof TransactionCutError ? 'connection' : pgErrorCode(err)!);

interface RetryScope {
  /** Effects outside the database already made by an earlier attempt, by key. */
  effects: Map<string, Promise<unknown>>;
}
const scopes = new AsyncLocalStorage<RetryScope>();

/** Retries so far in this process, by SQLSTATE (read by tests and, later, metrics). */
export const retryCounts = new Map<string, number>();

export interface RetryLog {
  warn(obj: object, msg: string): void;
}

/**
 * Runs `work` and, when PostgreSQL rolled it back as a deadlock victim or for a
 * serialisation conflict, runs it again, at most MAX_ATTEMPTS times in all, after a short
 * random pause (so two victims do not meet again at once). `work` must be a whole
 * transaction or a single statement: nothing of a failed attempt is left in the database.
 *
 * An effect outside the database inside `work` (a call to the payment provider) goes
 * through `onceAcrossRetries`, so a retry reuses the first attempt's result instead of
 * calling again. Emails and pushes are sent after the commit, outside `work`.
 */
export async function retryTransient<T>(work: () => Promise<T>, log?: RetryLog): Promise<T> {
  const parent = scopes.getStore();
  // A nested retry shares its parent's effects: an outer retry must not repeat them either.
  const scope: RetryScope = { effects: parent?.effects ?? new Map() };
  return scopes.run(scope, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (err) {
        if (!isRetryable(err) || attempt >= MAX_ATTEMPTS) throw err instanceof TransactionCutError ? err.cause : err;
        const code = retryReason(err);
        retryCounts.set(code, (retryCounts.get(code) ?? 0) + 1);
        log?.warn({ sqlstate: code, attempt }, 'transaction rolled back by PostgreSQL: running it again');
        await sleep(5 + Math.random() * 20 * attempt);
      }
    }
  });
}

/**
 * `db.transaction(fn)` with the retry of `retryTransient`. Every transaction of the server
 * goes through here (ESLint refuses `.transaction(` elsewhere in src/server).
 *
 * A transaction whose connection breaks (a database restart, a terminated backend) is run
 * again too, and never applied twice (decision 038). Cut before its COMMIT, it did not
 * commit. Cut during the COMMIT, its fate is unknown to us: its transaction id, read just
 * before, is asked of PostgreSQL once it is back (`txid_status`). Committed: the answer of
 * the first attempt stands. Aborted: it runs again. A transaction that wrote nothing has no
 * id, and its answer stands.
 */
export function runTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, log?: RetryLog): Promise<T> {
  return retryTransient(() => transactionOnce(db, fn), log);
}

async function transactionOnce<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let committing: { value: T; xid: string | null } | undefined;
  try {
    // eslint-disable-next-line no-restricted-syntax -- the one place a transaction is opened
    return await db.transaction(async (tx) => {
      const value = await fn(tx);
      const { rows } = await tx.execute<{ xid: string | null }>(sql`select txid_current_if_assigned()::text as xid`);
      committing = { value, xid: rows[0]?.xid ?? null };
      return value;
    });
  } catch (err) {
    if (!isDatabaseUnavailable(err) || err instanceof DatabaseUnavailableError) throw err;
    if (!committing) throw new TransactionCutError(err);
    if (committing.xid === null || (await committed(db, committing.xid))) return committing.value;
    throw new TransactionCutError(err);
  }
}

/** How long a transaction's fate may stay `in progress` (its old backend not yet gone). */
const IN_PROGRESS_WAIT_MS = 5_000;

/** Whether transaction `xid` committed, asked once the database answers again. */
async function committed(db: Db, xid: string): Promise<boolean> {
  const deadline = performance.now() + IN_PROGRESS_WAIT_MS;
  for (;;) {
    const { rows } = await db.execute<{ status: string | null }>(sql`select txid_status(${xid}::bigint) as status`);
    const status = rows[0]?.status;
    if (status === 'committed') return true;
    if (status !== 'in progress') return false;
    if (performance.now() >= deadline) throw new DatabaseUnavailableError();
    await sleep(50);
  }
}

/**
 * Runs an effect outside the database once per `retryTransient` scope: an attempt after a
 * rollback gets the first attempt's result (or its error) instead of a second call. The key
 * names the effect (e.g. `refund:<intent>`); outside any scope the effect simply runs.
 */
export function onceAcrossRetries<T>(key: string, effect: () => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  if (!scope) return effect();
  const known = scope.effects.get(key);
  if (known) return known as Promise<T>;
  const running = effect();
  scope.effects.set(key, running);
  return running;
}
