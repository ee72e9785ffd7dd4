import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { z } from 'zod';
import { migrationsFolder, pendingMigrations } from '../../db/migrate.js';
import type { Db } from '../../db/client.js';
import { pgErrorCode } from '../../db/client.js';
import { testo, type Testo } from '../../../shared/i18n/index.js';

/** GET /api/ready's answer when the process can take traffic (decision 032). */
export const readySchema = z.object({
  status: z.literal('ready'),
  db: z.literal('ok'),
  /** Migrations of drizzle's journal, all applied. */
  migrations: z.number().int(),
});

/** The shared error shape, with the reason in `code`. */
export const notReadySchema = z.object({
  message: z.string(),
  code: z.enum(['SHUTTING_DOWN', 'MIGRATIONS_PENDING', 'DB_UNAVAILABLE']),
  /**
   * Present when the database cannot take the app's writes: `down` (it does not answer: a
   * restart), `read-only` (the address leads to a standby: a fail-over half done, decision 057).
   */
  db: z.enum(['down', 'read-only']).optional(),
});

export type ReadyAnswer =
  | { ready: true; body: z.infer<typeof readySchema> }
  | { ready: false; body: Omit<z.infer<typeof notReadySchema>, 'message'> & { message: Testo } };

/** How long the database may take to answer the readiness query. */
const READY_TIMEOUT_MS = 2_000;

let journal: MigrationMeta[] | undefined;

/** The committed migrations (drizzle/meta/_journal.json and its files), read once per process. */
function journalMigrations(folder: string): MigrationMeta[] {
  if (folder !== migrationsFolder) return readMigrationFiles({ migrationsFolder: folder });
  journal ??= readMigrationFiles({ migrationsFolder: folder });
  return journal;
}

/**
 * Whether this process should get traffic: not draining, the database answering as a primary
 * (not a standby in recovery), and every migration of the journal applied (compared as runMigrations does, by journal instant).
 * One query of a few rows; nothing is locked.
 */
export async function checkReadiness(db: Db, draining: boolean, folder: string = migrationsFolder, reachable = true): Promise<ReadyAnswer> {
  if (draining) return { ready: false, body: { message: testo('system.shuttingDown'), code: 'SHUTTING_DOWN' } };
  // The pool already knows the database is away: say so at once, without waiting for it.
  if (!reachable) return dbDown();
  const expected = journalMigrations(folder);
  let applied: Set<number>;
  try {
    const result = await Promise.race([
      db.execute<{ recovery: boolean; applied: string[] }>(
        sql`select pg_is_in_recovery() as recovery, array(select created_at::text from drizzle.__drizzle_migrations) as applied`,
      ),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS).unref()),
    ]);
    const row = result.rows[0]!;
    if (row.recovery) return readOnly();
    applied = new Set(row.applied.map(Number));
  } catch (err) {
    // No migrations table (42P01) or no drizzle schema (3F000): nothing applied yet.
    const code = pgErrorCode(err);
    if (code === '42P01' || code === '3F000') return notMigrated();
    return dbDown();
  }
  if (pendingMigrations(expected, applied).length > 0) return notMigrated();
  return { ready: true, body: { status: 'ready', db: 'ok', migrations: expected.length } };
}

const dbDown = (): ReadyAnswer => ({ ready: false, body: { message: testo('http.dbUnavailable'), code: 'DB_UNAVAILABLE', db: 'down' } });
const readOnly = (): ReadyAnswer => ({ ready: false, body: { message: testo('http.dbUnavailable'), code: 'DB_UNAVAILABLE', db: 'read-only' } });
const notMigrated = (): ReadyAnswer => ({ ready: false, body: { message: testo('system.migrationsPending'), code: 'MIGRATIONS_PENDING' } });
