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
      // 0008's table, 0009's (its damage reports became 0025's tickets), and a later migration's.
      for (const table of ['rate_limits', 'interventi', 'azioni_offline']) expect(await tableExists(database.db, table), table).toBe(true);
      const rows = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(rows.rows[0]!.n).toBe(journal.length);
      expect(await runMigrations(database.db)).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('0024 (issue 47): a database of one place gets one sede, named by SEDE_PREDEFINITA, holding every row; the statistics per sede equal the day rows', async () => {
    const database = await createTestDatabase({ empty: true });
    const tags = (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] }).entries;
    const at = tags.findIndex((e) => e.tag.endsWith('_sedi'));
    try {
      expect(await runMigrations(database.db, earlierVersion(at))).toBe(at);
      const d = database.db;
      // Raw SQL: the schema of 0023, before sedi.
      const bike = (await d.execute<{ id: number }>(sql`insert into biciclette (numero, modello) values ('07', 'City Bike') returning id`)).rows[0]!.id;
      const user = (await d.execute<{ id: number }>(sql`insert into users (nome, cognome, email, password_hash) values ('Ada', 'Rossi', 'ada@example.org', 'x') returning id`)).rows[0]!.id;
      for (const [day, stato] of [['2026-11-10', 'completata'], ['2026-11-11', 'cancellata'], ['2026-11-11', 'completata']] as const) {
        await d.execute(sql`insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
          values (${user}, ${bike}, ${day}::date, '09:00', '10:30', (${day} || 'T08:00:00Z')::timestamptz, (${day} || 'T09:30:00Z')::timestamptz, ${stato})`);
      }
      await d.execute(sql`insert into stats_giornaliere (day, kind, key, rides, cancellations, seconds)
        select day, kind, key, sum(rides), sum(cancellations), sum(seconds) from stats_delta group by 1, 2, 3`);
      await d.execute(sql`delete from stats_delta`);
      expect(await runMigrations(database.db, migrationsFolder, { sedePredefinita: 'Residenza Centrale' })).toBe(journal.length - at);
      const sedi = (await d.execute<{ id: number; nome: string }>(sql`select id, nome from sedi`)).rows;
      expect(sedi.map((s) => s.nome)).toEqual(['Residenza Centrale']);
      const places = await d.execute<{ t: string; sede_id: number }>(sql`
        select 'bike' as t, sede_id from biciclette union all select 'user', sede_id from users union all select 'booking', sede_id from prenotazioni`);
      expect(places.rows.length).toBe(5);
      expect(places.rows.every((r) => r.sede_id === sedi[0]!.id)).toBe(true);
      const rollup = await d.execute<{ kind: string; day: string; rides: number; cancellations: number; seconds: number }>(sql`
        select kind, day::text as day, rides, cancellations, seconds::int as seconds from stats_giornaliere where kind in ('day', 'sede') order by day, kind`);
      const of = (kind: string) => rollup.rows.filter((r) => r.kind === kind).map(({ kind: _k, ...rest }) => rest);
      expect(of('sede')).toEqual(of('day'));
      expect(of('sede')).toEqual([
        { day: '2026-11-10', rides: 1, cancellations: 0, seconds: 5400 },
        { day: '2026-11-11', rides: 1, cancellations: 1, seconds: 5400 },
      ]);
    } finally {
      await database.drop();
    }
  });

  it('0025 and 0026 (issue 48): every damage report becomes a ticket on its bike, at its sede (open, or riparata when resolved); the old table goes', async () => {
    const database = await createTestDatabase({ empty: true });
    const tags = (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] }).entries;
    const at = tags.findIndex((e) => e.tag.endsWith('_staff_interventi'));
    try {
      expect(await runMigrations(database.db, earlierVersion(at))).toBe(at);
      const d = database.db;
      // Raw SQL: the schema of 0024, damage reports in segnalazioni_danni; a second sede for the second bike.
      const nord = (await d.execute<{ id: number }>(sql`insert into sedi (nome) values ('Residenza Nord') returning id`)).rows[0]!.id;
      const b07 = (await d.execute<{ id: number; sede_id: number }>(sql`insert into biciclette (numero, modello, sede_id) values ('07', 'City Bike', (select min(id) from sedi)) returning id, sede_id`)).rows[0]!;
      const b51 = (await d.execute<{ id: number }>(sql`insert into biciclette (numero, modello, sede_id) values ('51', 'City Bike', ${nord}) returning id`)).rows[0]!.id;
      const user = (await d.execute<{ id: number }>(sql`insert into users (nome, cognome, email, password_hash, sede_id) values ('Ada', 'Rossi', 'ada@example.org', 'x', ${b07.sede_id}) returning id`)).rows[0]!.id;
      const booking = (
        await d.execute<{ id: number }>(sql`insert into prenotazioni (user_id, bici_id, sede_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
          values (${user}, ${b07.id}, ${b07.sede_id}, '2026-11-10', '09:00', '10:30', '2026-11-10T08:00:00Z', '2026-11-10T09:30:00Z', 'completata') returning id`)
      ).rows[0]!.id;
      await d.execute(sql`insert into segnalazioni_danni (prenotazione_id, bici_id, user_id, categoria, descrizione, momento, created_at, risolta_at) values
        (${booking}, ${b07.id}, ${user}, 'freni', 'Freno lento', 'riconsegna', '2026-11-10T09:30:00Z', '2026-11-11T10:00:00Z'),
        (${booking}, ${b07.id}, ${user}, 'catena', 'Catena rotta', 'ritiro', '2026-11-10T08:00:00Z', null),
        (null, ${b51}, null, 'luci', 'Luce spenta', 'riconsegna', '2026-11-12T18:00:00Z', null)`);
      expect(await runMigrations(database.db)).toBe(journal.length - at);
      const tickets = await d.execute<{ bici_id: number; sede_id: number; prenotazione_id: number | null; segnalato_da: number | null; origine: string; categoria: string; descrizione: string; stato: string; created_at: string; chiuso_at: string | null }>(sql`
        select bici_id, sede_id, prenotazione_id, segnalato_da, origine, categoria, descrizione, stato, created_at, chiuso_at from interventi order by id`);
      const instant = (v: string | null) => (v === null ? null : new Date(v).toISOString());
      expect(tickets.rows.map((r) => ({ ...r, created_at: instant(r.created_at), chiuso_at: instant(r.chiuso_at) }))).toEqual([
        { bici_id: b07.id, sede_id: b07.sede_id, prenotazione_id: booking, segnalato_da: user, origine: 'riconsegna', categoria: 'freni', descrizione: 'Freno lento', stato: 'riparata', created_at: '2026-11-10T09:30:00.000Z', chiuso_at: '2026-11-11T10:00:00.000Z' },
        { bici_id: b07.id, sede_id: b07.sede_id, prenotazione_id: booking, segnalato_da: user, origine: 'ritiro', categoria: 'catena', descrizione: 'Catena rotta', stato: 'aperto', created_at: '2026-11-10T08:00:00.000Z', chiuso_at: null },
        { bici_id: b51, sede_id: nord, prenotazione_id: null, segnalato_da: null, origine: 'riconsegna', categoria: 'luci', descrizione: 'Luce spenta', stato: 'aperto', created_at: '2026-11-12T18:00:00.000Z', chiuso_at: null },
      ]);
      expect(await tableExists(d, 'segnalazioni_danni')).toBe(false);
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
