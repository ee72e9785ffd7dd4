import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from '../db/columns.js';

/**
 * Counters of the rate limits (behaviour.md §5), shared by every app process on this
 * database (src/server/http/rate-limit-store.ts): one row per limit and client (or email),
 * its hits in the current window and when the window ends. Expired rows are purged hourly.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: tstz('reset_at').notNull(),
  },
  (t) => [check('rate_limits_hits_positive', sql`${t.hits} > 0`), index('rate_limits_reset_idx').on(t.resetAt)],
);
