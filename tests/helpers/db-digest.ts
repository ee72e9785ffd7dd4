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

/** The log table and its trigger function, made in a test's own database only. */
const LOG_TABLE = 'test_write_log';

/**
 * Every row written from now on, noted by row-level triggers on each table of the public schema
 * but `exclude`: an insert, a delete, an update that changed the row. What a digest of every table
 * tells (did anything change?), at the cost of one indexed read instead of a pass over every row
 * (the fuzz read each table twice per request: 352 s, then 162 s with two tables left out).
 * A transaction rolled back leaves no note. For a test's own database only (createTestDatabase).
 */
export interface WriteLog {
  /** Where the log stands now: compare with a later `writtenSince`. */
  mark(): Promise<number>;
  /** The tables written since `mark`, each once, sorted. */
  writtenSince(mark: number): Promise<string[]>;
}

export async function installWriteLog(db: Db, exclude: readonly string[] = []): Promise<WriteLog> {
  await db.execute(sql.raw(`create table if not exists ${LOG_TABLE} (id bigint generated always as identity primary key, tabella text not null)`));
  await db.execute(
    sql.raw(`create or replace function test_note_write() returns trigger language plpgsql as $$
      begin insert into ${LOG_TABLE} (tabella) values (tg_table_name); return null; end $$`),
  );
  const tables = (
    await db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)
  ).rows
    .map((r) => r.tablename)
    .filter((t) => t !== LOG_TABLE && !exclude.includes(t));
  for (const t of tables) {
    await db.execute(
      sql.raw(`create or replace trigger test_write_note after insert or delete on public."${t}" for each row execute function test_note_write();
        create or replace trigger test_write_change after update on public."${t}" for each row when (old.* is distinct from new.*) execute function test_note_write()`),
    );
  }
  return {
    async mark() {
      const { rows } = await db.execute<{ id: string }>(sql.raw(`select coalesce(max(id), 0)::text as id from ${LOG_TABLE}`));
      return Number(rows[0]!.id);
    },
    async writtenSince(mark) {
      const { rows } = await db.execute<{ tabella: string }>(
        sql.raw(`select distinct tabella from ${LOG_TABLE} where id > ${Number(mark)} order by tabella`),
      );
      return rows.map((r) => r.tabella);
    },
  };
}
