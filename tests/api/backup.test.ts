import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/server/cli.js';
import { backupDatabase, restoreDatabase, type BackupHeader } from '../../src/server/db/backup.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { ROOT } from '../helpers/server-process.js';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

let database: TestDatabase;
let dir: string;
const config = testConfig();
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n\\x00 \0 "quoted" \n'), randomBytes(40_000)]);

async function run(db: TestDatabase, ...argv: string[]) {
  const lines: string[] = [];
  const code = await runCommand(argv, { config, database: db, out: (l) => lines.push(l) });
  return { code, output: lines.join('\n') };
}

/** Per table of `public`: its row count and an md5 of every row's text, in a fixed order. */
async function digests(db: TestDatabase): Promise<Record<string, string>> {
  const { rows: tables } = await db.pool.query<{ name: string }>(
    `select relname::text as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await db.pool.query<{ n: string; d: string }>(
      `select count(*)::text as n, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as d from "${name}" t`,
    );
    out[name] = `${rows[0]!.n}:${rows[0]!.d}`;
  }
  return out;
}

/** One of everything: users of every kind, bookings in every state, payments, reports, … */
async function seed(db: TestDatabase) {
  await db.pool.query(`
    insert into residenti (sigla, nome, cognome, corso_di_studi, anno_corso, attivo) values
      ('RES1', 'Anna', 'Rossi', 'Fisica', 2, true), ('RES2', 'Luca', 'Bianchi', null, null, false), ('RES3', 'Pia', 'Neri', 'Arte', 1, true);
    insert into users (nome, cognome, email, password_hash, ruolo, is_residente, sigla_residente, must_change_password,
                       temp_password_hash, temp_password_expires_at) values
      ('Anna', 'Rossi', 'res1@elis.org', '$argon2id$v=19$m=19456,t=2,p=1$a$b', 'user', true, 'RES1', false, null, null),
      ('Pia', 'Neri', 'res3@elis.org', '$argon2id$x', 'user', true, 'RES3', true, '$argon2id$tmp', now() + interval '1 day'),
      ('Ugo', 'D''Esterno', 'ugo@example.it', '$argon2id$y', 'user', false, null, false, null, null),
      ('Eva', 'Ester "Na"', 'eva@example.it', '$argon2id$z', 'user', false, null, false, null, null),
      ('Carla', 'Capo', 'admin@collegio.it', '$argon2id$w', 'admin', false, null, false, null, null);
    update users set attiva = false where email = 'eva@example.it';
    insert into biciclette (numero, modello, stato, stato_auto) values
      ('1', 'City', 'disponibile', false), ('2', 'Mountain', 'prenotata', true), ('3', 'Hybrid', 'manutenzione', false),
      ('4', 'City', 'fuori_servizio', false);
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato) values
      (1, 2, '2026-11-22', '10:00', '12:00', '2026-11-22 09:00:00.123456+00', '2026-11-22 11:00+00', E'Via "Roma" 1\\n\\\\ — è\\t', 'attiva'),
      (3, 1, '2026-11-20', '08:00', '09:30', '2026-11-20 07:00+00', '2026-11-20 08:30+00', null, 'completata'),
      (4, 1, '2026-11-19', '15:00', '16:00', '2026-11-19 14:00+00', '2026-11-19 15:00+00', 'Colosseo', 'cancellata'),
      (3, 4, '2026-11-23', '07:00', '08:00', '2026-11-23 06:00+00', '2026-11-23 07:00+00', 'Tor Vergata', 'attiva'),
      (2, 3, '2026-03-29', '01:30', '03:30', '2026-03-29 00:30+00', '2026-03-29 01:30+00', null, 'completata');
    insert into pagamenti (prenotazione_id, provider, status, provider_payment_id, completed_at, refunded_at) values
      (2, 'simulated', 'completed', 'pi_sim_2', now() - interval '1 hour', null),
      (3, 'stripe', 'refunded', 'pi_str_3', now() - interval '2 hours', now()),
      (4, 'simulated', 'pending', null, null, null);
    insert into pagamenti (prenotazione_id, booking_date, booking_deleted_at, provider, status, provider_payment_id, completed_at)
      values (null, '2026-11-18', now(), 'simulated', 'completed', 'pi_sim_gone', now() - interval '3 days');
    insert into provider_events (id, provider, type, payload) values
      ('evt_1', 'stripe', 'payment_intent.succeeded', '{"id": "evt_1", "data": {"object": {"amount": 250, "nested": [1, 2.50, null, "è\\u00e8\\n\\"x"]}}}'),
      ('evt_2', 'simulated', 'weird.null', 'null'),
      ('evt_3', 'simulated', 'weird.string', '"testo"');
    insert into simulated_payment_intents (id, client_secret, booking_id, amount, currency, status, idempotency_key, succeeded_at)
      values ('pi_sim_2', 'pi_sim_2_secret', 2, 250, 'eur', 'succeeded', 'idem-1', now()),
             ('pi_sim_4', 'pi_sim_4_secret', 4, 250, 'eur', 'requires_payment_method', null, null);
    insert into simulated_checkout_sessions (id, booking_id, amount, currency, status, payment_intent_id, success_url, cancel_url, expires_at, completed_at)
      values ('cs_1', 2, 250, 'eur', 'complete', 'pi_sim_2', 'http://x/ok', 'http://x/no', now() + interval '30 minutes', now());
    insert into simulated_refunds (id, payment_intent_id, amount) values ('re_1', 'pi_sim_2', 250);
    insert into simulated_provider_settings (id, webhook_secret) values (1, 'whsec_sim');
    insert into sessions (token_hash, user_id, kind, expires_at) values
      ('hash-a', 1, 'session', now() + interval '30 days'), ('hash-b', 5, 'password_change', now() + interval '10 minutes');
    insert into audit_log (actor_id, actor_email, action, entity, entity_id, before, after) values
      (5, 'admin@collegio.it', 'update', 'bike', '3', '{"stato": "disponibile"}', '{"stato": "manutenzione"}'),
      (5, 'admin@collegio.it', 'create', 'user', '4', 'null'::jsonb, null);
  `);
  await db.pool.query(
    `insert into reports (file_name, report_date, pdf, file_size, email_sent, email_attempts, last_email_error)
     values ('report-2026-11-20.pdf', '2026-11-20', $1, $2, false, 2, 'SMTP 451')`,
    [PDF, PDF.length],
  );
  // A gap at the end of the bookings' sequence: id 6 was used, then deleted.
  await db.pool.query(
    `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
     values (4, 3, '2026-11-10', '10:00', '11:00', '2026-11-10 09:00+00', '2026-11-10 10:00+00', 'cancellata')`,
  );
  await db.pool.query(`delete from prenotazioni where id = 6`);
}

/** Deletes, changes and adds rows in most tables. */
async function scribble(db: TestDatabase) {
  await db.pool.query(`
    delete from sessions where token_hash = 'hash-a';
    update prenotazioni set stato = 'cancellata' where id = 1;
    update pagamenti set status = 'refunded', refunded_at = now() where id = 1;
    delete from reports;
    delete from users where email = 'res3@elis.org';
    insert into biciclette (numero, modello) values ('99', 'Nuova');
    update residenti set attivo = false;
    insert into provider_events (id, provider, type, payload) values ('evt_x', 'stripe', 'x', '{}');
    update simulated_provider_settings set webhook_secret = 'changed';
    insert into audit_log (action, entity) values ('scribble', 'test');
  `);
}

async function gunzipLines(file: string): Promise<string[]> {
  return gunzipSync(await fs.readFile(file)).toString('utf8').split('\n');
}

async function writeLines(file: string, lines: string[]) {
  await fs.writeFile(file, gzipSync(Buffer.from(lines.join('\n'))));
}

let backupFile: string;
let seeded: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-backup-'));
  await seed(database);
  seeded = await digests(database);
  backupFile = path.join(dir, 'seeded.bicielis.gz');
  const r = await run(database, 'db', 'backup', backupFile);
  expect(r.code, r.output).toBe(0);
});
afterAll(async () => {
  await database.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('db backup', () => {
  it('writes one gzip file with a header, every table and an end line, and no .partial left', async () => {
    expect((await fs.readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    const lines = await gunzipLines(backupFile);
    const header = JSON.parse(lines[0]!) as BackupHeader;
    expect(header).toMatchObject({ format: 'bicielis-backup', version: 1 });
    expect(header.serverVersion).toMatch(/^\d+/);
    const journal = JSON.parse(await fs.readFile(path.join(ROOT, 'drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(header.migrations).toHaveLength(journal.entries.length);
    const names = header.tables.map((t) => t.name);
    // Parents before children.
    for (const [parent, child] of [
      ['residenti', 'users'],
      ['users', 'prenotazioni'],
      ['biciclette', 'prenotazioni'],
      ['prenotazioni', 'pagamenti'],
      ['users', 'sessions'],
      ['simulated_payment_intents', 'simulated_refunds'],
    ]) {
      expect(names.indexOf(parent!), `${parent} before ${child}`).toBeLessThan(names.indexOf(child!));
    }
    expect(Object.keys(seeded).sort()).toEqual([...names].sort());
    for (const t of header.tables) expect(`${t.name} ${t.rows}`).toBe(`${t.name} ${seeded[t.name]!.split(':')[0]}`);
    expect(header.sequences).toContainEqual({ table: 'prenotazioni', column: 'id', lastValue: '6' });
    expect(JSON.parse(lines.at(-2)!)).toEqual({ end: true, rows: header.tables.reduce((n, t) => n + t.rows, 0) });
    expect(lines.at(-1)).toBe('');
  });

  it('refuses a database without the schema, and leaves no file', async () => {
    const empty = await createTestDatabase({ empty: true });
    try {
      const file = path.join(dir, 'nothing.gz');
      const r = await run(empty, 'db', 'backup', file);
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/Backup non riuscito.*nessuna migrazione/);
      await expect(fs.stat(file)).rejects.toThrow();
      await expect(fs.stat(`${file}.partial`)).rejects.toThrow();
    } finally {
      await empty.drop();
    }
  });
});

describe('db verify', () => {
  /** Runs `db verify`; checks the scratch database it named is gone and the live data unchanged. */
  async function verify(file: string) {
    const before = await digests(database);
    const r = await run(database, 'db', 'verify', file);
    const scratch = /database temporaneo (bicielis_verify_[0-9a-f]+)/.exec(r.output)?.[1];
    if (scratch) {
      const { rows } = await database.pool.query(`select 1 from pg_database where datname = $1`, [scratch]);
      expect(rows, `${scratch} left behind`).toEqual([]);
    }
    expect(await digests(database)).toEqual(before);
    return { ...r, scratch };
  }

  it('restores a good file into a scratch database, counts every table, says it is usable, and leaves the live data alone', async () => {
    const r = await verify(backupFile);
    expect(r.code, r.output).toBe(0);
    expect(r.scratch).toBeDefined();
    expect(r.output).toMatch(/^ {2}prenotazioni +5 righe +OK$/m);
    expect(r.output).toMatch(/^ {2}reports +1 riga +OK$/m);
    expect(r.output.match(/ OK$/gm)).toHaveLength(Object.keys(seeded).length);
    expect(r.output).toMatch(
      new RegExp(`Backup utilizzabile: ${Object.values(seeded).reduce((n, d) => n + Number(d.split(':')[0]), 0)} righe in ${Object.keys(seeded).length} tabelle`),
    );
    expect(await digests(database)).toEqual(seeded);
  });

  it('fails, in Italian, on a truncated file, a corrupt one and one whose header does not match its rows', async () => {
    const bytes = await fs.readFile(backupFile);
    const cut = path.join(dir, 'verify-cut.gz');
    await fs.writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const c = await verify(cut);
    expect(c.code, c.output).toBe(1);
    expect(c.output).toMatch(/Verifica non riuscita: il backup NON è utilizzabile\. File di backup non valido o danneggiato/);
    expect(c.output).not.toMatch(/\n\s+at /);

    // Cut at a line boundary: a valid gzip whose end line is missing.
    const lines = await gunzipLines(backupFile);
    const short = path.join(dir, 'verify-short.gz');
    await writeLines(short, lines.slice(0, -3));
    const s = await verify(short);
    expect(s.code, s.output).toBe(1);
    expect(s.output).toMatch(/troncato|riga finale/);

    const corrupt = path.join(dir, 'verify-corrupt.gz');
    const damaged = Buffer.from(bytes);
    for (let i = Math.floor(damaged.length / 2); i < Math.floor(damaged.length / 2) + 64; i++) damaged[i] = damaged[i]! ^ 0xff;
    await fs.writeFile(corrupt, damaged);
    const d = await verify(corrupt);
    expect(d.code, d.output).toBe(1);
    expect(d.output).toMatch(/Verifica non riuscita: .*(danneggiato|malformat|illeggibile|errore del database)/);

    const header = JSON.parse(lines[0]!) as BackupHeader;
    const mismatched = path.join(dir, 'verify-mismatch.gz');
    await writeLines(mismatched, lines.with(0, JSON.stringify({ ...header, tables: header.tables.map((t) => (t.name === 'users' ? { ...t, rows: t.rows + 1 } : t)) })));
    const m = await verify(mismatched);
    expect(m.code, m.output).toBe(1);
    expect(m.output).toMatch(/attesa la tabella users/);
  });

  it('refuses a missing file and a backup of a version with migrations it does not know, before creating anything', async () => {
    const missing = await verify(path.join(dir, 'absent.gz'));
    expect(missing).toMatchObject({ code: 1, scratch: undefined });
    expect(missing.output).toMatch(/non trovato/);
    const lines = await gunzipLines(backupFile);
    const header = JSON.parse(lines[0]!) as BackupHeader;
    const newer = path.join(dir, 'verify-newer.gz');
    await writeLines(newer, lines.with(0, JSON.stringify({ ...header, migrations: [...header.migrations, { hash: 'f'.repeat(64), createdAt: '99999999999999' }] })));
    const n = await verify(newer);
    expect(n).toMatchObject({ code: 1, scratch: undefined });
    expect(n.output).toMatch(/1 migrazioni sconosciute/);
  });
});

describe('db restore', () => {
  it('brings back every table exactly, without firing the triggers, and tells the session caches', async () => {
    await scribble(database);
    const scribbled = await digests(database);
    expect(scribbled).not.toEqual(seeded);
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (m) => payloads.push(m.payload ?? ''));
    await listener.query('listen bicielis_auth');
    try {
      const r = await run(database, 'db', 'restore', backupFile);
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/^ {2}prenotazioni +5 righe +\d+\.\d kB$/m);
      expect(r.output).toMatch(new RegExp(`Ripristino completato .* \\d+ righe in ${Object.keys(seeded).length} tabelle`));
      expect(await digests(database)).toEqual(seeded);
      await expect.poll(() => payloads).toEqual(['restore']);
    } finally {
      await listener.end();
    }
    // The triggers are back on: the statistics follow a new change again.
    const { rows } = await database.pool.query<{ tgname: string; tgenabled: string }>(
      `select tgname, tgenabled from pg_trigger where not tgisinternal and tgrelid::regclass::text in ('prenotazioni', 'pagamenti', 'users', 'sessions')`,
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const t of rows) expect(`${t.tgname} ${t.tgenabled}`).toBe(`${t.tgname} O`);
  });

  it('continues every sequence after the restored rows (and after the saved sequence value)', async () => {
    await database.pool.query(`select setval('prenotazioni_id_seq', 1)`);
    await run(database, 'db', 'restore', backupFile);
    const { rows } = await database.pool.query<{ id: number }>(
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
       values (2, 1, '2026-11-30', '10:00', '11:00', '2026-11-30 09:00+00', '2026-11-30 10:00+00', 'completata') returning id`,
    );
    // Max restored id is 5; 6 was handed out (then deleted) before the backup.
    expect(rows[0]!.id).toBe(7);
    const audit = await database.pool.query<{ id: string }>(`insert into audit_log (action, entity) values ('a', 'b') returning id`);
    expect(audit.rows[0]!.id).toBe('3');
    const bike = await database.pool.query<{ id: number }>(`insert into biciclette (numero, modello) values ('77', 'X') returning id`);
    expect(bike.rows[0]!.id).toBe(5);
    await run(database, 'db', 'restore', backupFile);
    expect(await digests(database)).toEqual(seeded);
  });

  it('restores into a brand-new database once it is migrated', async () => {
    const fresh = await createTestDatabase({ empty: true });
    try {
      await runMigrations(fresh.db);
      const s = await restoreDatabase(fresh.pool, backupFile);
      expect(s.rows).toBe(Object.values(seeded).reduce((n, d) => n + Number(d.split(':')[0]), 0));
      expect(await digests(fresh)).toEqual(seeded);
      // And a backup of the copy restores to the same again.
      const again = path.join(dir, 'again.gz');
      await backupDatabase(fresh.pool, again);
      await scribble(fresh);
      await restoreDatabase(fresh.pool, again);
      expect(await digests(fresh)).toEqual(seeded);
    } finally {
      await fresh.drop();
    }
  });

  describe('refuses a bad file and changes nothing', () => {
    let before: Record<string, string>;
    beforeAll(async () => {
      await scribble(database);
      before = await digests(database);
    });

    async function refused(file: string, message: RegExp) {
      const r = await run(database, 'db', 'restore', file);
      expect(r.code, r.output).toBe(1);
      expect(r.output).toMatch(/^Ripristino non riuscito, nessuna modifica al database\./);
      expect(r.output).toMatch(message);
      expect(await digests(database)).toEqual(before);
    }

    it('a missing file, a file that is not gzip, a file that is not a backup', async () => {
      await refused(path.join(dir, 'absent.gz'), /non trovato/);
      const plain = path.join(dir, 'plain.gz');
      await fs.writeFile(plain, 'sigla,nome\n');
      await refused(plain, /danneggiato/);
      const other = path.join(dir, 'other.gz');
      await fs.writeFile(other, gzipSync('{"hello": 1}\n'));
      await refused(other, /non è un backup di BiciElis/);
    });

    it('a file cut short, at any point', async () => {
      const bytes = await fs.readFile(backupFile);
      const cut = path.join(dir, 'cut.gz');
      for (const at of [10, Math.floor(bytes.length / 2), bytes.length - 9, bytes.length - 1]) {
        await fs.writeFile(cut, bytes.subarray(0, at));
        await refused(cut, /danneggiato/);
      }
      // Whole gzip, but the end line is missing (or some rows are).
      const lines = await gunzipLines(backupFile);
      await writeLines(cut, lines.slice(0, -2));
      await refused(cut, /troncato \(manca la riga finale\)/);
      await writeLines(cut, lines.slice(0, 20));
      await refused(cut, /troncato/);
      await writeLines(cut, [...lines.slice(0, -2), JSON.stringify({ end: true, rows: 1 }), '']);
      await refused(cut, /riga finale non valida/);
      await writeLines(cut, [...lines.slice(0, -1), '[]', '']);
      await refused(cut, /dati dopo la fine/);
    });

    it('a corrupted byte', async () => {
      const bytes = Buffer.from(await fs.readFile(backupFile));
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      const bad = path.join(dir, 'flipped.gz');
      await fs.writeFile(bad, bytes);
      await refused(bad, /danneggiato|errore del database/);
    });

    it('a row the database rejects half-way through the load (after the tables were emptied)', async () => {
      const lines = await gunzipLines(backupFile);
      const header = JSON.parse(lines[0]!) as BackupHeader;
      // The last table loaded that holds rows (some tables come empty, e.g. the passkeys' challenges).
      const last = [...header.tables].reverse().find((t) => t.rows > 0)!;
      const marker = lines.findIndex((l) => l === JSON.stringify({ table: last.name, rows: last.rows }));
      expect(last.rows).toBeGreaterThan(0);
      const bad = path.join(dir, 'rejected.gz');
      // A row with one value too few, then a row whose value is not of its column's type.
      const row = JSON.parse(lines[marker + 1]!) as unknown[];
      await writeLines(bad, lines.with(marker + 1, JSON.stringify(row.slice(1))));
      await refused(bad, /righe malformate/);
      const typed = header.tables.find((t) => t.name === 'users')!;
      const um = lines.findIndex((l) => l === JSON.stringify({ table: 'users', rows: typed.rows }));
      const user = JSON.parse(lines[um + 1]!) as unknown[];
      user[typed.columns.indexOf('created_at')] = 'not a time';
      await writeLines(bad, lines.with(um + 1, JSON.stringify(user)));
      await refused(bad, /errore del database.*not a time/);
    });

    it('a backup made with another list of migrations', async () => {
      const lines = await gunzipLines(backupFile);
      const header = JSON.parse(lines[0]!) as BackupHeader;
      const bad = path.join(dir, 'other-migrations.gz');
      await writeLines(bad, lines.with(0, JSON.stringify({ ...header, migrations: header.migrations.slice(0, -1) })));
      await refused(bad, /un'altra versione dello schema/);
      const changed = header.migrations.map((m, i) => (i === 3 ? { ...m, hash: 'f'.repeat(64) } : m));
      await writeLines(bad, lines.with(0, JSON.stringify({ ...header, migrations: changed })));
      await refused(bad, /un'altra versione dello schema/);
      await writeLines(bad, lines.with(0, JSON.stringify({ ...header, version: 2 })));
      await refused(bad, /Versione del formato di backup non supportata/);
    });

    it('a database that has another list of migrations', async () => {
      const other = await createTestDatabase();
      try {
        await other.pool.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('extra', 99999999999999)`);
        const before = await digests(other);
        // A new database holds only its first sede (migration 0024, issue 47).
        expect(Object.entries(before).filter(([, d]) => !d.startsWith('0:')).map(([t]) => t)).toEqual(['sedi']);
        const r = await run(other, 'db', 'restore', backupFile);
        expect(r.code).toBe(1);
        expect(r.output).toMatch(/un'altra versione dello schema/);
        expect(await digests(other)).toEqual(before);
      } finally {
        await other.drop();
      }
    });
  });
});

describe('the CLI as a process', () => {
  it('backs up and restores through DATABASE_URL', async () => {
    const exec = promisify(execFile);
    const target = await createTestDatabase();
    try {
      await seed(target);
      const original = await digests(target);
      const env = { ...process.env, DATABASE_URL: target.url, DATA_DIR: dir, LOG_LEVEL: 'warn', NODE_ENV: 'test' };
      const file = path.join(dir, 'cli.bicielis.gz');
      const cli = (...args: string[]) => exec(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], { cwd: ROOT, env });
      const b = await cli('db', 'backup', file);
      expect(b.stdout).toMatch(/Backup completato: .*cli\.bicielis\.gz — \d+ righe in \d+ tabelle, [\d.]+ kB compressi/);
      const v = await cli('db', 'verify', file);
      expect(v.stdout).toMatch(/Backup utilizzabile: \d+ righe/);
      const cut = path.join(dir, 'cli-cut.gz');
      await fs.writeFile(cut, (await fs.readFile(file)).subarray(0, 200));
      await expect(cli('db', 'verify', cut)).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/Verifica non riuscita: il backup NON è utilizzabile/) as unknown,
        stderr: '',
      });
      await scribble(target);
      const r = await cli('db', 'restore', file);
      expect(r.stdout).toMatch(/^ {2}reports +1 riga +\d+\.\d kB$/m);
      expect(r.stdout).toMatch(/Ripristino completato/);
      expect(await digests(target)).toEqual(original);
      await expect(cli('db', 'restore', path.join(dir, 'absent.gz'))).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/non trovato/) as unknown,
      });
    } finally {
      await target.drop();
    }
  }, 180_000);
});
