import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.js';

/**
 * One md5 per table of the public schema, over all its rows (as text, in a fixed order), in
 * one round trip: two equal digests mean no row was written, changed or deleted.
 */
export async function tableDigests(db: Db, exclude: readonly string[] = []): Promise<Record<string, string>> {
  const tables = (
    await db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)
  ).rows
    .map((r) => r.tablename)
    .filter((t) => !exclude.includes(t));
  const parts = tables.map(
    (t) =>
      `select '${t}' as t, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as d from public."${t}" x`,
  );
  const rows = (await db.execute<{ t: string; d: string }>(sql.raw(parts.join(' union all ')))).rows;
  // UNION ALL gives no order: the entries are sorted, so that two equal digests stringify alike.
  return Object.fromEntries(rows.map((r) => [r.t, r.d]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
}

/**
 * Tables a refused request may write, by design: the rate-limit counters (decision 021)
 * count attempts, refused ones above all (a limited route counts every request before it is
 * validated, a failed login counts after). Everything else must stay as it was.
 */
export const WRITTEN_BY_REFUSALS = ['rate_limits'] as const;
