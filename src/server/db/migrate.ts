import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type { Db } from './client.js';
import { runTransaction } from './transaction.js';
import { applyTriggerFiles } from './triggers.js';

/** The package root: the nearest folder above this file that has the committed migrations. */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cartella drizzle/ con le migrazioni non trovata');
    dir = parent;
  }
}

export const projectRoot = findRoot();
export const migrationsFolder = path.join(projectRoot, 'drizzle');

/** One migration run at a time across processes starting together (beside the jobs' 4_201_00x). */
const MIGRATION_LOCK = 4_201_000;

/**
 * The journal's migrations that `appliedAt` (the `created_at` of the rows of drizzle's own
 * table) does not hold yet, in the journal's order. A migration is known by its journal
 * instant, which drizzle records as `created_at`: not by the file's hash, since a migration
 * edited after it shipped must not run twice.
 */
export function pendingMigrations(journal: MigrationMeta[], appliedAt: ReadonlySet<number>): MigrationMeta[] {
  return journal.filter((m) => !appliedAt.has(m.folderMillis));
}

/**
 * Applies every migration of `drizzle/` not applied yet, in one transaction, under an
 * advisory lock. Drizzle's own migrator applies only those whose journal instant is later
 * than the last one applied; the journal's instants are not in order (0008 and 0009 were
 * generated before the hand-written 0007's instant), so a database that stood at 0007 would
 * have skipped 0008 and 0009. The table and its rows stay drizzle's (`drizzle.
 * __drizzle_migrations`: hash, created_at), so databases made by either runner agree, and
 * backups (db/backup.ts) read the same list. Then, once the schema is this version's whole one,
 * each owner's trigger files (db/triggers.ts, decision 050) that changed, in the same transaction.
 */
export async function runMigrations(
  db: Db,
  folder: string = migrationsFolder,
  /** Only these migrations (by journal instant): `db verify` builds the schema a backup was made on. */
  options: { only?: ReadonlySet<number>; sedePredefinita?: string } = {},
): Promise<number> {
  const journal = readMigrationFiles({ migrationsFolder: folder }).filter((m) => !options.only || options.only.has(m.folderMillis));
  return runTransaction(db, async (tx) => {
    // The lock first: two processes creating the schema at once can collide in the catalogue.
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    // The name of the first sede, for migration 0024 (issue 47): SEDE_PREDEFINITA.
    await tx.execute(sql`select set_config('bicielis.sede_predefinita', ${options.sedePredefinita ?? ''}, true)`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
    const applied = await tx.execute<{ created_at: string }>(sql`select created_at::text from drizzle.__drizzle_migrations`);
    const pending = pendingMigrations(journal, new Set(applied.rows.map((r) => Number(r.created_at))));
    for (const migration of pending) {
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
    }
    const done = new Set([...applied.rows.map((r) => Number(r.created_at)), ...pending.map((m) => m.folderMillis)]);
    const current = options.only || folder !== migrationsFolder ? readMigrationFiles({ migrationsFolder }) : journal;
    if (current.every((m) => done.has(m.folderMillis))) await applyTriggerFiles(tx, projectRoot, pending.length > 0);
    return pending.length;
  });
}
