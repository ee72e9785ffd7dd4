import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { DatabaseReachability, DatabaseUnavailableError, isDatabaseUnavailable, READ_ONLY_SERVER } from './outage.js';
/** A Drizzle handle with no relational schema: queries name their tables, imported from their owners. */
export type Db = NodePgDatabase;

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** Whether the database is reachable now, as this pool sees it (issue 32, decision 038). */
  reachability: DatabaseReachability;
  close(): Promise<void>;
}

// `date` columns come back as 'YYYY-MM-DD' strings, never shifted through a JS Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/** Pool sizing and queueing (DATABASE_POOL_MAX, DATABASE_POOL_WAIT_MS, DATABASE_POOL_QUEUE_MAX; decision 023). */
export interface PoolOptions {
  /** Connections this process opens at most. */
  max?: number;
  /** How long a request may wait for a free connection before it is answered 503. */
  waitMs?: number;
  /** How many requests may wait at once; one more is answered 503 at once. */
  queueMax?: number;
  /**
   * How long a request waits for the database to come back when it is away (a restart)
   * before the answer is 503 (DATABASE_OUTAGE_WAIT_MS; decision 038).
   */
  outageWaitMs?: number;
}

export const POOL_DEFAULTS = { max: 10, waitMs: 5_000, queueMax: 1_000, outageWaitMs: 3_000 } as const;

/**
 * No connection could be had within the bound (all in use for `waitMs`, or `queueMax`
 * requests already waiting). The error handler answers 503 with Retry-After: an overload,
 * not a failure (decision 023).
 */
export class PoolBusyError extends Error {
  constructor(reason: 'timeout' | 'queue') {
    super(reason === 'timeout' ? 'no database connection free within the wait bound' : 'too many requests waiting for a database connection');
    this.name = 'PoolBusyError';
  }
}

/** True when `err`, or an error it wraps (Drizzle's `cause`), is a PoolBusyError. */
export function isPoolBusy(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e instanceof PoolBusyError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const PG_POOL_TIMEOUT = 'timeout exceeded when trying to connect';

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A single statement that only reads: run again on a new connection when its connection
 * broke under it (nothing it did can have been applied). A write's fate is unknown then, so
 * it is not repeated: the request answers 503, and transactions have their own guard
 * (`runTransaction`, which asks PostgreSQL whether the commit landed).
 */
const READ_ONLY = /^\s*select\b/i;
const NOT_ONLY_READING = /\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b|\bpg_advisory|\bnextval\s*\(|\bsetval\s*\(|\bpg_notify\s*\(/i;
function onlyReads(config: unknown): boolean {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' && READ_ONLY.test(text) && !NOT_ONLY_READING.test(text);
}

/**
 * pg's Pool with these changes (decisions 023 and 038):
 * - `query` keeps its connection when PostgreSQL answers with an error (a constraint
 *   violation, a deadlock victim): pg-pool's own `query` destroys the connection on any
 *   error, so under contention every 409 cost a new backend and a SCRAM handshake, and the
 *   pool starved. A connection that is really broken is still dropped: the pool checks it.
 * - `connect` fails with a typed PoolBusyError when the wait bound or the queue bound is
 *   exceeded, instead of pg-pool's plain Error.
 * - Every connection has an `error` listener for its whole life: a connection the server
 *   ends (a restart: 57P01) while it is checked out (in a transaction, in a job's
 *   advisory-lock session) emits `error` with no one listening, which crashed the process.
 *   Now the error reaches the statement that was waiting, the connection is dropped at its
 *   release, and the process goes on.
 * - While the database is away (a new connection refused), `connect` waits for it to come
 *   back, up to `outageWaitMs`, then fails with DatabaseUnavailableError (answered 503). One
 *   prober per pool knocks meanwhile (`DatabaseReachability`), not every request.
 * - A read cut with its connection runs again once on a new one.
 */
class AppPool extends pg.Pool {
  readonly queueMax: number;
  readonly outageWaitMs: number;
  readonly reachability: DatabaseReachability;

  constructor(config: pg.PoolConfig & { queueMax: number; outageWaitMs: number }) {
    super(config);
    this.queueMax = config.queueMax;
    this.outageWaitMs = config.outageWaitMs;
    this.on('connect', (client) => {
      client.on('error', () => undefined);
      this.watchForStandby(client);
    });
    // A connection that met a standby is closed when it comes back, so that the pool opens a new
    // one to wherever the address leads once it leads to a primary again.
    this.on('release', (_err: unknown, client: pg.PoolClient) => {
      if (!this.metStandby.delete(client)) return;
      void client.end().catch(() => undefined); // pg-pool then drops it (`_ending`)
    });
    this.reachability = new DatabaseReachability(async () => {
      // A connection of its own, outside the pool: the pool's slots are for requests.
      const probe = new pg.Client({ ...config, connectionTimeoutMillis: 1_000 });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        // Up means writable: a standby behind the address (a fail-over half done) is still away.
        const { rows } = await probe.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
        if (rows[0]?.recovery) throw new Error('the server is in recovery (a standby)');
      } finally {
        await probe.end().catch(() => undefined);
      }
    });
  }

  /** Connections that got SQLSTATE 25006 (a write on a standby) while checked out. */
  private readonly metStandby = new WeakSet<pg.PoolClient>();

  /**
   * Every statement of the connection, whoever sends it (Drizzle's transactions use the
   * client directly), is watched for SQLSTATE 25006: the address leads to a standby. The
   * database is then away for the whole pool (`markDown`: requests wait for the prober to find
   * a primary), and this connection is closed at its release.
   */
  private watchForStandby(client: pg.PoolClient) {
    const query = client.query;
    const onError = (err: unknown) => {
      if (pgErrorCode(err) !== READ_ONLY_SERVER) return;
      this.metStandby.add(client);
      this.reachability.markDown();
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's many overloads of query
    client.query = function (this: pg.PoolClient, ...args: any[]) {
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) result.catch(onError);
      return result;
    } as typeof client.query;
  }

  // pg's overloads (promise or callback) are kept: a callback is passed through.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (callback) {
      const full = this.waitingCount >= this.queueMax && this.idleCount === 0;
      if (full) return void setImmediate(() => callback(new PoolBusyError('queue'), undefined, () => undefined));
      return super.connect((err, client, done) => callback(err ? busyOr(err) : undefined, client, done));
    }
    return this.connectThroughOutage();
  }

  private async connectThroughOutage(): Promise<pg.PoolClient> {
    const deadline = performance.now() + this.outageWaitMs;
    for (;;) {
      if (!this.reachability.up && !(await this.reachability.waitUntilUp(deadline - performance.now()))) {
        throw new DatabaseUnavailableError();
      }
      if (this.waitingCount >= this.queueMax && this.idleCount === 0) throw new PoolBusyError('queue');
      try {
        return await super.connect();
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw busyOr(err);
        this.reachability.markDown();
        if (performance.now() >= deadline) throw new DatabaseUnavailableError(err);
      }
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's many overloads of query
  override query(config: any, values?: any, callback?: any): any {
    if (typeof values === 'function' || typeof callback === 'function' || typeof config === 'function') {
      return super.query(config, values, callback);
    }
    return this.queryKeepingConnection(config, values).catch((err: unknown) => {
      if (!isDatabaseUnavailable(err) || err instanceof DatabaseUnavailableError) throw err;
      // A write refused by a standby did nothing: it runs again once a primary answers (the
      // connection waits for it). A read cut with its connection runs again too.
      if (!onlyReads(config) && pgErrorCode(err) !== READ_ONLY_SERVER) throw err;
      return this.queryKeepingConnection(config, values);
    });
  }

  private async queryKeepingConnection(config: unknown, values: unknown): Promise<pg.QueryResult> {
    const client = await this.connect();
    let broken: Error | undefined;
    // An error on the connection itself while the query runs (the server went away).
    const onError = (err: Error) => (broken = err);
    client.once('error', onError);
    try {
      return await client.query(config as pg.QueryConfig, values as unknown[]);
    } catch (err) {
      // PostgreSQL answered (the connection is fine, the statement was refused): keep it.
      // A server that is ending this backend answers too (57P01): that one is broken.
      if (!(err instanceof pg.DatabaseError) || isDatabaseUnavailable(err)) broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }
}

/** The reachability of one of our pools (a plain pg.Pool, as some tests pass, has none). */
export function reachabilityOf(pool: pg.Pool): DatabaseReachability | undefined {
  return pool instanceof AppPool ? pool.reachability : undefined;
}

function busyOr(err: unknown): Error {
  if (err instanceof Error && err.message === PG_POOL_TIMEOUT) return new PoolBusyError('timeout');
  return err instanceof Error ? err : new Error(String(err));
}

export function connectDatabase(url: string, options: PoolOptions = {}): Database {
  const pool = new AppPool({
    connectionString: url,
    max: options.max ?? POOL_DEFAULTS.max,
    // Connections are kept for ten idle minutes: opening one costs a SCRAM handshake.
    idleTimeoutMillis: 600_000,
    // How long a query may wait for a connection (new or freed) before the 503.
    connectionTimeoutMillis: options.waitMs ?? POOL_DEFAULTS.waitMs,
    queueMax: options.queueMax ?? POOL_DEFAULTS.queueMax,
    outageWaitMs: options.outageWaitMs ?? POOL_DEFAULTS.outageWaitMs,
    // A connection cut without a word (a fail-over, a network partition) is noticed.
    keepAlive: true,
  });
  // An idle connection dropped by the server (restart, network) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool);
  let closed = false;
  return {
    db,
    pool,
    reachability: pool.reachability,
    async close() {
      if (closed) return;
      closed = true;
      pool.reachability.stop();
      await pool.end();
    },
  };
}

/** SQLSTATE of a PostgreSQL error, whether raw (pg) or wrapped by Drizzle (`cause`). */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function pgConstraint(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
