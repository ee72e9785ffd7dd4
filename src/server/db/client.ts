import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
/** A Drizzle handle with no relational schema: queries name their tables, imported from their owners. */
export type Db = NodePgDatabase;

export interface Database {
  db: Db;
  pool: pg.Pool;
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
}

export const POOL_DEFAULTS = { max: 10, waitMs: 5_000, queueMax: 5_000 } as const;

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
 * pg's Pool with two changes (decision 023):
 * - `query` keeps its connection when PostgreSQL answers with an error (a constraint
 *   violation, a deadlock victim): pg-pool's own `query` destroys the connection on any
 *   error, so under contention every 409 cost a new backend and a SCRAM handshake, and the
 *   pool starved. A connection that is really broken is still dropped: the pool checks it.
 * - `connect` fails with a typed PoolBusyError when the wait bound or the queue bound is
 *   exceeded, instead of pg-pool's plain Error.
 */
class AppPool extends pg.Pool {
  readonly queueMax: number;

  constructor(config: pg.PoolConfig & { queueMax: number }) {
    super(config);
    this.queueMax = config.queueMax;
  }

  // pg's overloads (promise or callback) are kept: a callback is passed through.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const full = this.waitingCount >= this.queueMax && this.idleCount === 0;
    if (callback) {
      if (full) return void setImmediate(() => callback(new PoolBusyError('queue'), undefined, () => undefined));
      return super.connect((err, client, done) => callback(err ? busyOr(err) : undefined, client, done));
    }
    if (full) return Promise.reject(new PoolBusyError('queue'));
    return super.connect().catch((err: unknown) => Promise.reject(busyOr(err)));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's many overloads of query
  override query(config: any, values?: any, callback?: any): any {
    if (typeof values === 'function' || typeof callback === 'function' || typeof config === 'function') {
      return super.query(config, values, callback);
    }
    return this.queryKeepingConnection(config, values);
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
      if (!(err instanceof pg.DatabaseError)) broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }
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
  });
  // A connection dropped by the server (restart, network) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool);
  let closed = false;
  return {
    db,
    pool,
    async close() {
      if (closed) return;
      closed = true;
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
