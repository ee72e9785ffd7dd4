import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/client.js';
import { migrationsFolder, pendingMigrations, runMigrations } from '../../src/server/db/migrate.js';
import { createTestDatabase } from '../helpers/db.js';

const journal = readMigrationFiles({ migrationsFolder });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bicielis-migrations-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of drizzle/ whose journal stops after its first `count` migrations: the app as an earlier version shipped it. */
function earlierVersion(count: number): string {
  const folder = path.join(tmp, `first-${count}`);
  cpSync(migrationsFolder, folder, { recursive: true });
  const file = path.join(folder, 'meta', '_journal.json');
  const meta = JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] };
  writeFileSync(file, JSON.stringify({ ...meta, entries: meta.entries.slice(0, count) }));
  return folder;
}

async function tableExists(db: ReturnType<typeof connectDatabase>['db'], name: string): Promise<boolean> {
  const r = await db.execute<{ t: string | null }>(sql`select to_regclass(${name})::text as t`);
  return r.rows[0]?.t !== null;
}

describe('migrations', () => {
  it('the journal instants are not in order: drizzle’s own rule (later than the last applied) would skip some', () => {
    const at7 = journal[7]!.folderMillis;
    const skippedByDrizzle = journal.slice(8).filter((m) => m.folderMillis <= at7).map((m) => m.folderMillis);
    // 0008 and 0009 were generated before 0007's hand-written instant.
    expect(skippedByDrizzle.length).toBeGreaterThan(0);
    // Ours runs whatever is not recorded, whatever its instant.
    const pending = pendingMigrations(journal, new Set(journal.slice(0, 8).map((m) => m.folderMillis)));
    expect(pending.map((m) => m.folderMillis)).toEqual(journal.slice(8).map((m) => m.folderMillis));
  });

  it('a database that stood at 0007 gets every later migration, 0008 and 0009 included; a second run does nothing', async () => {
    const database = await createTestDatabase({ empty: true });
    try {
      expect(await runMigrations(database.db, earlierVersion(8))).toBe(8);
      expect(await tableExists(database.db, 'rate_limits')).toBe(false);
      expect(await runMigrations(database.db)).toBe(journal.length - 8);
      // 0008's table, 0009's, and the newest migration's.
      for (const table of ['rate_limits', 'segnalazioni_danni', 'azioni_offline']) expect(await tableExists(database.db, table), table).toBe(true);
      const rows = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(rows.rows[0]!.n).toBe(journal.length);
      expect(await runMigrations(database.db)).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('two processes starting together on an empty database: each migration applied once', async () => {
    const database = await createTestDatabase({ empty: true });
    const other = connectDatabase(database.url, { max: 2 });
    try {
      const counts = await Promise.all([runMigrations(database.db), runMigrations(other.db)]);
      expect(counts.sort((a, b) => a - b)).toEqual([0, journal.length]);
      const rows = await database.db.execute<{ n: number; d: number }>(
        sql`select count(*)::int as n, count(distinct created_at)::int as d from drizzle.__drizzle_migrations`,
      );
      expect(rows.rows[0]).toEqual({ n: journal.length, d: journal.length });
    } finally {
      await other.close();
      await database.drop();
    }
  });
});
