import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// `date` columns come back as 'YYYY-MM-DD' strings, never shifted through a JS Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export function connectDatabase(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // Connections are kept for ten idle minutes: opening one costs a SCRAM handshake.
    idleTimeoutMillis: 600_000,
    // How long a query may wait for a connection (new or freed) before failing.
    connectionTimeoutMillis: 10_000,
  });
  // A connection dropped by the server (restart, network) must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
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
