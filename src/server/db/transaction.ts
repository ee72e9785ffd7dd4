import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { pgErrorCode, type Db } from './client.js';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './outage.js';
import { namedStatement } from './prepared.js';

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

/**
 * The server's timeline (the first 8 hex digits of the current WAL file's name): it changes
 * when a standby is promoted (a fail-over, or a point-in-time recovery). Read with the xid,
 * in the same statement, so it costs no round trip.
 */
const TIMELINE = sql`substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)`;

/** The transaction's id and timeline, read before its COMMIT: the same text in every transaction, so prepared once per connection. */
const fateStatement = namedStatement<Fate>('transaction_fate', () =>
  sql`select xid, case when xid is null then null else ${TIMELINE} end as timeline from (select txid_current_if_assigned()::text as xid) t`,
);

/** What decides a cut transaction's fate: its id (null: it wrote nothing) and its server's timeline. */
interface Fate {
  xid: string | null;
  timeline: string | null;
}

/**
 * The two columns of `Fate`, for the last write statement of a hot transaction to return with
 * its rows (the booking's insert, issue 51): `noteFate` then spares the statement of its own
 * before the COMMIT. The xid is the one of the transaction's first write and never changes
 * after, so a later write in the same transaction leaves it true. Only when it is not null.
 */
export const FATE_COLUMNS = sql`txid_current_if_assigned()::text as xid,
  case when txid_current_if_assigned() is null then null else ${TIMELINE} end as timeline`;

const noted = new WeakMap<Tx, Fate>();

/** Records the fate a statement of `tx` returned (`FATE_COLUMNS`); ignored while the transaction has written nothing. */
export function noteFate(tx: Tx, fate: Fate): void {
  if (fate.xid !== null && fate.timeline !== null) noted.set(tx, { xid: fate.xid, timeline: fate.timeline });
}

async function transactionOnce<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let committing: { value: T; xid: string | null; timeline: string | null } | undefined;
  try {
    // eslint-disable-next-line no-restricted-syntax -- the one place a transaction is opened
    return await db.transaction(async (tx) => {
      const value = await fn(tx);
      // A transaction that wrote has an xid, and runs on a primary (a standby refused the write).
      const [fate] = noted.has(tx) ? [noted.get(tx)] : await fateStatement.run(tx, {});
      committing = { value, xid: fate?.xid ?? null, timeline: fate?.timeline ?? null };
      return value;
    });
  } catch (err) {
    if (!isDatabaseUnavailable(err) || err instanceof DatabaseUnavailableError) throw err;
    if (!committing) throw new TransactionCutError(err);
    if (committing.xid === null || (await committed(db, committing.xid, committing.timeline))) return committing.value;
    throw new TransactionCutError(err);
  }
}

/** How long a transaction's fate may stay `in progress` (its old backend not yet gone). */
const IN_PROGRESS_WAIT_MS = 5_000;

/** txid_status of an xid the server never assigned: `transaction ID … is in the future`. */
const INVALID_PARAMETER_VALUE = '22023';

/**
 * Whether transaction `xid`, cut during its COMMIT on timeline `timeline`, committed: asked
 * once the database answers again.
 *
 * - Same timeline (a restart, a cut connection): PostgreSQL's answer is the fate.
 * - Another timeline (a standby promoted, decision 057): `aborted`, or an xid the new primary
 *   never saw (`in the future`), means the commit did not reach the standby, so it is not in
 *   the data anyone will read from now on, and the work runs again. `committed` may be ours,
 *   replicated before the old primary died, or another transaction's that reused the xid on the
 *   new primary (xids the old primary assigned last were never replicated). Those two cannot be
 *   told apart, so the answer is 503: never a success that is not in the data, never a second
 *   booking.
 */
async function committed(db: Db, xid: string, timeline: string | null): Promise<boolean> {
  const deadline = performance.now() + IN_PROGRESS_WAIT_MS;
  for (;;) {
    let row: { status: string | null; timeline: string | null } | undefined;
    try {
      ({
        rows: [row],
      } = await db.execute<{ status: string | null; timeline: string | null }>(
        sql`select txid_status(${xid}::bigint) as status, case when pg_is_in_recovery() then null else ${TIMELINE} end as timeline`,
      ));
    } catch (err) {
      if (pgErrorCode(err) === INVALID_PARAMETER_VALUE) return false;
      throw err;
    }
    // Asked of a standby: no answer that holds yet.
    if (!row || row.timeline === null) throw new DatabaseUnavailableError();
    const moved = timeline !== null && row.timeline !== timeline;
    if (row.status === 'committed') {
      if (moved) throw new DatabaseUnavailableError();
      return true;
    }
    if (row.status !== 'in progress') return false;
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
