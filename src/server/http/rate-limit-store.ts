import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';

/** What @fastify/rate-limit expects back from a store: hits in the window and ms left in it. */
interface WindowState {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, state: WindowState) => void;
/**
 * What `child` really receives: the limit's merged options, whose `routeInfo` is the route
 * (the plugin's types call it the route's options).
 */
interface LimitOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * Counts a hit and answers in one statement: a new key or an ended window starts at 1 with
 * a fresh window, otherwise the count goes up and the window keeps its end. The row lock of
 * the upsert serialises the hits of one key, whichever process sends them.
 */
const INCREMENT = `
  insert into rate_limits as r (key, hits, reset_at)
  values ($1, 1, now() + $2 * interval '1 millisecond')
  on conflict (key) do update
     set hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
         reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
  returning hits, greatest(0, extract(epoch from r.reset_at - now()) * 1000)::float8 as ttl`;

const READ = `
  select hits, greatest(0, extract(epoch from reset_at - now()) * 1000)::float8 as ttl
    from rate_limits where key = $1 and reset_at > now()`;

/**
 * A store for @fastify/rate-limit whose counters live in PostgreSQL (table `rate_limits`),
 * so that N app processes on one database allow what one would, not N times as much
 * (issue 12). The plugin makes one store per limit with `child`: its route (method and
 * address) prefixes the key, so the same client counts separately on each limited route.
 * Limits made with `createRateLimit` carry no route: their key generators name them.
 * Time is PostgreSQL's own `now()`, the one clock every process shares.
 */
export function postgresRateLimitStore(pool: pg.Pool) {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string;

    constructor(options: object = {}) {
      const { method, url } = (options as LimitOptions).routeInfo ?? {};
      this.scope = url ? `${[method].flat().join(',')} ${url}|` : '';
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      pool.query<{ hits: number; ttl: number }>(INCREMENT, [this.scope + key, timeWindow]).then(
        ({ rows: [row] }) => cb(null, { current: row!.hits, ttl: Math.round(row!.ttl) }),
        (err: Error) => cb(err, { current: 0, ttl: 0 }),
      );
    }

    read(key: string, cb: Callback): void {
      pool.query<{ hits: number; ttl: number }>(READ, [this.scope + key]).then(
        ({ rows: [row] }) => cb(null, row ? { current: row.hits, ttl: Math.round(row.ttl) } : { current: 0, ttl: 0 }),
        (err: Error) => cb(err, { current: 0, ttl: 0 }),
      );
    }

    child(routeOptions: object): PostgresRateLimitStore {
      return new PostgresRateLimitStore(routeOptions);
    }
  };
}

/** Removes the counters whose window has ended (the hourly purge job); returns how many. */
export async function purgeExpiredRateLimits(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query('delete from rate_limits where reset_at <= now()');
  return rowCount ?? 0;
}

/** Forgets the counters keyed by `email` (login, recovery): an account erased leaves none. */
export async function forgetRateLimitsOf(tx: { execute(query: SQL): Promise<unknown> }, email: string): Promise<void> {
  await tx.execute(sql`delete from rate_limits where position(${email} in lower(key)) > 0`);
}
