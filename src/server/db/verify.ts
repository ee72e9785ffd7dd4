import { randomBytes } from 'node:crypto';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { BackupError, readBackupHeader, restoreDatabase, type BackupHeader } from './backup.js';
import { connectDatabase } from './client.js';
import { migrationsFolder, runMigrations } from './migrate.js';

/**
 * `db verify <file>` (decision 033): the backup restored into a scratch database created for
 * the purpose on the same PostgreSQL server, migrated to the backup's own list of migrations,
 * each table's rows counted against the file's header, the scratch database dropped at the
 * end whatever happened. The live database is only used to run CREATE/DROP DATABASE.
 */

export interface TableCheck {
  table: string;
  /** Rows the header announces. */
  expected: number;
  /** Rows counted in the scratch database after the restore. */
  found: number;
}

export interface VerifyResult {
  header: BackupHeader;
  tables: TableCheck[];
  ok: boolean;
  rows: number;
  fileBytes: number;
  seconds: number;
  /** The scratch database's name (already dropped). */
  scratch: string;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The journal instants of the backup's migrations, all of which this version must know. */
function migrationsOf(header: BackupHeader): Set<number> {
  const journal = readMigrationFiles({ migrationsFolder });
  const known = new Map(journal.map((m) => [m.folderMillis, m.hash]));
  const unknown = header.migrations.filter((m) => known.get(Number(m.createdAt)) !== m.hash);
  if (unknown.length > 0) {
    throw new BackupError(
      `il backup è stato fatto con una versione di BiciElis che ha ${unknown.length} migrazioni sconosciute a questa: ` +
        'verificalo con la versione che lo ha creato',
    );
  }
  return new Set(header.migrations.map((m) => Number(m.createdAt)));
}

/**
 * Restores `file` into a new database beside the one `pool` reaches (`url`), counts, drops it.
 * Throws BackupError (Italian) when the file cannot be restored; returns `ok: false` when it
 * restored but a table's count differs from the header's.
 */
export async function verifyBackup(
  pool: pg.Pool,
  url: string,
  file: string,
  /** Told the scratch database's name once it exists. */
  onScratch: (name: string) => void = () => undefined,
): Promise<VerifyResult> {
  const started = performance.now();
  const header = await readBackupHeader(file);
  const only = migrationsOf(header);
  const scratch = `bicielis_verify_${randomBytes(6).toString('hex')}`;
  try {
    await pool.query(`create database ${ident(scratch)}`);
  } catch (err) {
    throw new BackupError(
      `impossibile creare il database temporaneo ${scratch} sullo stesso server (serve il permesso CREATEDB): ` +
        (err instanceof Error ? err.message : String(err)),
    );
  }
  onScratch(scratch);
  try {
    const target = connectDatabase(withDatabase(url, scratch), { max: 1 });
    try {
      await runMigrations(target.db, migrationsFolder, { only });
      const summary = await restoreDatabase(target.pool, file);
      const tables: TableCheck[] = [];
      for (const t of header.tables) {
        const { rows } = await target.pool.query<{ n: string }>(`select count(*)::text as n from ${ident(t.name)}`);
        tables.push({ table: t.name, expected: t.rows, found: Number(rows[0]!.n) });
      }
      return {
        header,
        tables,
        ok: tables.every((t) => t.expected === t.found),
        rows: tables.reduce((n, t) => n + t.found, 0),
        fileBytes: summary.fileBytes,
        seconds: (performance.now() - started) / 1000,
        scratch,
      };
    } finally {
      await target.close();
    }
  } finally {
    await pool.query(`drop database if exists ${ident(scratch)} with (force)`);
  }
}
