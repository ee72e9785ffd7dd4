import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrationsFolder, runMigrations } from '../../src/server/db/migrate.js';
import { auditLog } from '../../src/server/schema.js';
import { AUDIT_CSV_HEADER } from '../../src/server/modules/admin/audit-log.js';
import { tFor } from '../../src/shared/i18n/all.js';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditEntryDto } from '../../src/shared/schemas/audit.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { auditRows, call, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { createLoggedInUser } from '../helpers/factories.js';

/**
 * Issue 23, the audit log on screen: GET /api/admin/audit (filters, server paging, newest
 * first), GET /api/admin/audit.csv (every matching row, streamed), GET /api/admin/audit/admins,
 * admins only, and no route that changes an entry.
 */

let ctx: TestContext;
let admin: Person;
let other: Person;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  await truncateAll(ctx.database.db);
  admin = await person(ctx, { ruolo: 'admin', email: 'direzione@elis.org' });
  other = await person(ctx, { ruolo: 'admin', email: 'segreteria@elis.org' });
});

const db = () => ctx.database.db;

type Entry = typeof auditLog.$inferInsert;
/** Audit rows written straight into the table, at chosen instants (the app writes them with its clock). */
async function insertEntries(...entries: Partial<Entry>[]) {
  await db()
    .insert(auditLog)
    .values(
      entries.map((e) => ({
        actorId: admin.id,
        actorEmail: admin.email,
        action: 'bike.update',
        entity: 'bike',
        entityId: '1',
        before: { stato: 'disponibile' },
        after: { stato: 'manutenzione' },
        createdAt: TEST_NOW,
        ...e,
      })),
    );
}

const list = async (who: Person | null, query = '') => {
  const res = await call(ctx.app, who, 'GET', `/api/admin/audit${query}`);
  return { res, rows: res.statusCode === 200 ? (res.json() as AuditEntryDto[]) : [], total: res.headers['x-total-count'] };
};

function csvRows(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return parse(body, { delimiter: ';', bom: true, relaxQuotes: false }) as string[][];
}

describe('GET /api/admin/audit', () => {
  it('lists what admins did through the app: who, the action key, the thing, before and after; never a hash', async () => {
    const user = await person(ctx, { nome: 'Prima', email: 'utente@elis.org' });
    const bike = await insertBike(db());
    ctx.clock.set(new Date(TEST_NOW.getTime() + 60_000));
    const edit = await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, {
      nome: 'Dopo',
      cognome: 'Cognome',
      email: user.email,
      ruolo: 'user',
      isResidente: true,
      attiva: true,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    ctx.clock.set(new Date(TEST_NOW.getTime() + 120_000));
    expect((await call(ctx.app, other, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'manutenzione' })).statusCode).toBe(200);

    const { res, rows, total } = await list(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(total).toBe('2');
    expect(rows.map((r) => [r.action, r.actorEmail])).toEqual([
      ['bike.update', other.email],
      ['user.update', admin.email],
    ]);
    expect(rows[1]).toMatchObject({
      actorId: admin.id,
      entity: 'user',
      entityId: String(user.id),
      createdAt: new Date(TEST_NOW.getTime() + 60_000).toISOString(),
      before: expect.objectContaining({ nome: 'Prima' }),
      after: expect.objectContaining({ nome: 'Dopo' }),
    });
    expect(rows[0]).toMatchObject({ before: expect.objectContaining({ stato: 'disponibile' }), after: expect.objectContaining({ stato: 'manutenzione' }) });
    expect(res.body).not.toMatch(/password|argon/i);
  });

  it('names each subject as the staff know it: a bike by its number, a person by name, a booking by both (issue 31)', async () => {
    const bike = await insertBike(db(), { numero: '07' });
    const user = await person(ctx, { nome: 'Maria', cognome: 'Rossi' });
    // A booking deleted by the change that writes the entry is named from what it was.
    const booking = await insertBooking(db(), { userId: user.id, biciId: bike, date: '2026-11-10', from: '09:00', to: '10:00', stato: 'completata' });
    ctx.clock.set(new Date(TEST_NOW.getTime() + 60_000));
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${booking}`)).statusCode).toBe(200);
    ctx.clock.set(new Date(TEST_NOW.getTime() + 120_000));
    const edit = await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, {
      nome: 'Maria',
      cognome: 'Rossi',
      email: user.email,
      ruolo: 'user',
      isResidente: true,
      attiva: true,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    ctx.clock.set(new Date(TEST_NOW.getTime() + 180_000));
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'manutenzione' })).statusCode).toBe(200);
    ctx.clock.set(new Date(TEST_NOW.getTime() + 240_000));
    expect((await call(ctx.app, admin, 'PUT', '/api/admin/regole', (await call(ctx.app, admin, 'GET', '/api/admin/regole')).json())).statusCode).toBe(200);

    const { rows } = await list(admin);
    expect(rows.map((r) => [r.action, r.entityId, r.soggetto])).toEqual([
      ['rules.update', '1', null],
      ['bike.update', String(bike), 'Bici 07'],
      ['user.update', String(user.id), 'Maria Rossi'],
      ['booking.delete', String(booking), 'Bici 07 per Maria Rossi'],
    ]);
    // The subject is written with the entry: a later rename leaves it as it was then.
    await db().execute(sql`update biciclette set numero = '70' where id = ${bike}`);
    expect((await list(admin)).rows[1]!.soggetto).toBe('Bici 07');
  });

  it('an erased person stays [dato rimosso] in the subject; the bike and the other people keep their names (issue 31)', async () => {
    const bike = await insertBike(db(), { numero: '07' });
    const { user: gone, cookie } = await createLoggedInUser(ctx.app, db(), { nome: 'Gianna', cognome: 'Cancellata' });
    const stays = await person(ctx, { nome: 'Rita', cognome: 'Resta' });
    // Someone else with the same name: a name alone never decides (decision 029).
    const namesake = await person(ctx, { nome: 'Gianna', cognome: 'Cancellata' });
    for (const [who, date] of [
      [namesake.id, '2026-11-09'],
      [gone.id, '2026-11-10'],
      [stays.id, '2026-11-11'],
    ] as const) {
      const booking = await insertBooking(db(), { userId: who, biciId: bike, date, from: '09:00', to: '10:00', stato: 'completata' });
      expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${booking}`)).statusCode).toBe(200);
    }
    // A ride the desk closed: its entry holds no id of the person, the booking (kept, made anonymous) does.
    const ride = await insertBooking(db(), {
      userId: gone.id,
      biciId: bike,
      date: '2026-11-21',
      from: '08:00',
      to: '09:00',
      stato: 'attiva',
      ritirataAt: new Date('2026-11-21T07:05:00Z'),
    });
    const release = await call(ctx.app, admin, 'POST', `/api/admin/prenotazioni/${ride}/rilascia`);
    expect(release.statusCode, release.body).toBe(200);
    const edit = await call(ctx.app, admin, 'PUT', `/api/admin/users/${gone.id}`, {
      nome: 'Gianna',
      cognome: 'Cancellata',
      email: gone.email,
      ruolo: 'user',
      isResidente: true,
      attiva: true,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const subjects = async () => (await list(admin)).rows.map((r) => [r.action, r.soggetto]);
    expect(await subjects()).toEqual([
      ['user.update', 'Gianna Cancellata'],
      ['booking.release', 'Bici 07 per Gianna Cancellata'],
      ['booking.delete', 'Bici 07 per Rita Resta'],
      ['booking.delete', 'Bici 07 per Gianna Cancellata'],
      ['booking.delete', 'Bici 07 per Gianna Cancellata'],
    ]);

    const erase = await call(ctx.app, { cookie }, 'DELETE', '/api/profilo', { password: gone.password });
    expect(erase.statusCode, erase.body).toBe(200);
    expect(await subjects()).toEqual([
      ['user.update', '[dato rimosso]'],
      ['booking.release', 'Bici 07 per [dato rimosso]'],
      ['booking.delete', 'Bici 07 per Rita Resta'],
      ['booking.delete', 'Bici 07 per [dato rimosso]'],
      ['booking.delete', 'Bici 07 per Gianna Cancellata'],
    ]);
  });

  it('pages on the server, newest first (instant, then id), the total in X-Total-Count', async () => {
    const at = (minutes: number) => new Date(TEST_NOW.getTime() - minutes * 60_000);
    // Seven entries; two share an instant (the later id comes first).
    await insertEntries(
      { entityId: 'a', createdAt: at(50) },
      { entityId: 'b', createdAt: at(10) },
      { entityId: 'c', createdAt: at(30) },
      { entityId: 'd', createdAt: at(10) },
      { entityId: 'e', createdAt: at(40) },
      { entityId: 'f', createdAt: at(20) },
      { entityId: 'g', createdAt: at(60) },
    );
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const { res, rows, total } = await list(admin, `?page=${page}&pageSize=3`);
      expect(res.statusCode).toBe(200);
      expect(total).toBe('7');
      pages.push(rows.map((r) => r.entityId));
    }
    expect(pages).toEqual([['d', 'b', 'f'], ['c', 'e', 'a'], ['g'], []]);
    const { rows } = await list(admin);
    expect(rows).toHaveLength(7);
  });

  it('filters by admin, by action and by days of TZ_APP (both included), alone or together', async () => {
    // 2026-11-20 23:59:59 and 2026-11-21 00:00:00 in Rome (UTC+1).
    const lastOf20 = new Date('2026-11-20T22:59:59.999Z');
    const firstOf21 = new Date('2026-11-20T23:00:00.000Z');
    const lastOf21 = new Date('2026-11-21T22:59:59.999Z');
    const firstOf22 = new Date('2026-11-21T23:00:00.000Z');
    await insertEntries(
      { entityId: '1', createdAt: lastOf20, action: 'user.update', entity: 'user' },
      { entityId: '2', createdAt: firstOf21, action: 'bike.update' },
      { entityId: '3', createdAt: lastOf21, action: 'user.update', entity: 'user', actorId: other.id, actorEmail: other.email },
      { entityId: '4', createdAt: firstOf22, action: 'booking.delete', entity: 'booking', actorId: other.id, actorEmail: other.email },
    );
    const ids = async (query: string) => {
      const { res, rows, total } = await list(admin, query);
      expect(res.statusCode, res.body).toBe(200);
      expect(total).toBe(String(rows.length));
      return rows.map((r) => r.entityId);
    };
    expect(await ids('')).toEqual(['4', '3', '2', '1']);
    expect(await ids(`?admin=${admin.id}`)).toEqual(['2', '1']);
    expect(await ids(`?admin=${other.id}`)).toEqual(['4', '3']);
    expect(await ids('?azione=user.update')).toEqual(['3', '1']);
    expect(await ids('?dal=2026-11-21')).toEqual(['4', '3', '2']);
    expect(await ids('?al=2026-11-21')).toEqual(['3', '2', '1']);
    expect(await ids('?dal=2026-11-21&al=2026-11-21')).toEqual(['3', '2']);
    expect(await ids(`?dal=2026-11-21&al=2026-11-21&azione=user.update&admin=${other.id}`)).toEqual(['3']);
    expect(await ids(`?azione=booking.delete&admin=${admin.id}`)).toEqual([]);
    // An empty filter in the address is no filter.
    expect(await ids('?admin=&azione=&dal=&al=')).toEqual(['4', '3', '2', '1']);
  });

  it('refuses a bad filter or page with an Italian message (400), nothing else', async () => {
    const cases: [string, string][] = [
      ['?azione=user.erase', 'Azione non valida'],
      ['?azione=Utente%20modificato', 'Azione non valida'],
      ['?dal=2026-02-30', 'Data iniziale non valida: usa il formato AAAA-MM-GG'],
      ['?al=21/11/2026', 'Data finale non valida: usa il formato AAAA-MM-GG'],
      ['?dal=2026-11-22&al=2026-11-21', 'La data finale non può precedere quella iniziale'],
      ['?admin=abc', 'Amministratore non valido'],
      ['?admin=-1', 'Amministratore non valido'],
      ['?pageSize=201', 'Al massimo 200 righe per pagina'],
      ['?page=0', 'Pagina non valida'],
    ];
    for (const [query, message] of cases) {
      const { res } = await list(admin, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(message);
      const csv = await call(ctx.app, admin, 'GET', `/api/admin/audit.csv${query}`);
      // The export has no page: its page parameters are ignored, its filters refused alike.
      if (!query.startsWith('?page')) {
        expect(csv.statusCode, query).toBe(400);
        expect(csv.json().message, query).toContain(message);
      }
    }
  });
});

describe('GET /api/admin/audit.csv', () => {
  it('every matching row with an Italian header, times in TZ_APP, before/after as JSON text, formulas defused', async () => {
    await insertEntries(
      // 23:30 UTC on 20 November is 00:30 on the 21st in Rome.
      {
        entityId: '7',
        createdAt: new Date('2026-11-20T23:30:05Z'),
        action: 'user.update',
        entity: 'user',
        before: { nome: 'Anna "la rossa"', attiva: true },
        after: { nome: '=HYPERLINK("http://x")', attiva: false },
      },
      { entityId: '@SUM(A1)', createdAt: new Date('2026-07-01T10:00:00Z'), actorEmail: '+39@elis.org', before: null },
      { entityId: '9', createdAt: new Date('2026-11-21T08:00:00Z'), action: 'rules.update', entity: 'rules' },
    );
    const res = await call(ctx.app, admin, 'GET', '/api/admin/audit.csv?azione=');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="registro_attivita_2026-11-21.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual(AUDIT_CSV_HEADER);
    expect(header).toEqual(['ID', 'Data e ora', 'Amministratore', 'Azione', 'Codice azione', 'Oggetto', 'ID oggetto', 'Prima', 'Dopo']);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r[6])).toEqual(['9', '7', "'@SUM(A1)"]);
    const [rules, user, bike] = rows as [string[], string[], string[]];
    expect(rules.slice(1, 7)).toEqual(['21/11/2026 09:00:00', admin.email, 'Regole modificate', 'rules.update', 'Regole', '9']);
    expect(user.slice(1, 7)).toEqual(['21/11/2026 00:30:05', admin.email, 'Utente modificato', 'user.update', 'Utente', '7']);
    expect(JSON.parse(user[7]!)).toEqual({ nome: 'Anna "la rossa"', attiva: true });
    expect(JSON.parse(user[8]!)).toEqual({ nome: '=HYPERLINK("http://x")', attiva: false });
    // Summer time: 10:00 UTC is 12:00 in Rome. A cell that would start a formula gets an apostrophe.
    expect(bike.slice(1, 9)).toEqual(['01/07/2026 12:00:00', "'+39@elis.org", 'Stato bicicletta modificato', 'bike.update', 'Bicicletta', "'@SUM(A1)", '', '{"stato":"manutenzione"}']);
    // Every cell is quoted, quotes doubled.
    expect(res.body).toContain('"{""nome"":""Anna \\""la rossa\\"""",""attiva"":true}"');
  });

  it('streams past one batch: every row once, newest first, instants to the microsecond', async () => {
    // 1,203 entries in groups of three sharing an instant, a microsecond apart from the next group.
    await db().execute(sql`
      insert into audit_log (actor_id, actor_email, action, entity, entity_id, before, after, created_at)
      select ${admin.id}, ${admin.email}, case when i % 2 = 0 then 'bike.update' else 'user.update' end, 'bike', i::text, null,
             jsonb_build_object('n', i), timestamptz '2026-11-20 10:00:00.000001+00' + ((i / 3) * interval '1 microsecond')
        from generate_series(1, 1203) as i`);
    const res = await call(ctx.app, admin, 'GET', '/api/admin/audit.csv');
    expect(res.statusCode).toBe(200);
    const rows = csvRows(res.body).slice(1);
    expect(rows).toHaveLength(1203);
    const ids = rows.map((r) => Number(r[6]));
    expect(new Set(ids).size).toBe(1203);
    // Newest first: the highest microsecond group first, then the highest id within it.
    const expected = Array.from({ length: 1203 }, (_, k) => k + 1).sort((a, b) => Math.floor(b / 3) - Math.floor(a / 3) || b - a);
    const entryIds = (await db().execute<{ entity_id: string }>(sql`select entity_id from audit_log order by created_at desc, id desc`)).rows.map((r) =>
      Number(r.entity_id),
    );
    expect(entryIds).toEqual(expected);
    expect(ids).toEqual(expected);

    const filtered = csvRows((await call(ctx.app, admin, 'GET', '/api/admin/audit.csv?azione=bike.update')).body).slice(1);
    expect(filtered).toHaveLength(601);
    expect(filtered.every((r) => r[4] === 'bike.update')).toBe(true);
  });

  it('an empty log: the header alone', async () => {
    const res = await call(ctx.app, admin, 'GET', `/api/admin/audit.csv?admin=${other.id}`);
    expect(res.statusCode).toBe(200);
    expect(csvRows(res.body)).toEqual([AUDIT_CSV_HEADER]);
  });
});

describe('GET /api/admin/audit/admins', () => {
  it("today's admins and whoever acted as one, by email; a deleted account is not offered but its entries keep the email", async () => {
    const former = await person(ctx, { ruolo: 'user', email: 'ex-admin@elis.org' });
    const gone = await person(ctx, { ruolo: 'admin', email: 'andato@elis.org' });
    await person(ctx, { ruolo: 'user', email: 'utente@elis.org' });
    await insertEntries({ actorId: former.id, actorEmail: former.email }, { actorId: gone.id, actorEmail: gone.email });
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/users/${gone.id}`)).statusCode).toBe(200);
    const res = await call(ctx.app, admin, 'GET', '/api/admin/audit/admins');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: admin.id, email: admin.email },
      { id: former.id, email: former.email },
      { id: other.id, email: other.email },
    ]);
    const { rows } = await list(admin, '?azione=bike.update');
    expect(rows.find((r) => r.actorEmail === gone.email)).toMatchObject({ actorId: null });
  });
});

describe('who may read it, and that nobody can change it', () => {
  const READS = ['/api/admin/audit', '/api/admin/audit.csv', '/api/admin/audit/admins'];

  it('anonymous: 401 Non autenticato; a user: 403', async () => {
    const user = await person(ctx);
    for (const url of READS) {
      const anonymous = await call(ctx.app, null, 'GET', url);
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json().message).toBe('Non autenticato');
      const refused = await call(ctx.app, user, 'GET', url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toEqual(expect.any(String));
      expect(refused.body).not.toContain('bike.update');
    }
  });

  it('no PUT, PATCH, DELETE or POST under the audit path answers anything but 404/405; the entries stay', async () => {
    await insertEntries({ entityId: '1' });
    const [entry] = await auditRows(db());
    const before = await auditRows(db());
    const paths = ['/api/admin/audit', `/api/admin/audit/${entry!.id}`, '/api/admin/audit.csv', '/api/admin/audit/admins'];
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      for (const url of paths) {
        const res = await ctx.app.inject({ method, url, headers: { cookie: admin.cookie }, payload: { action: 'rules.update', after: null } });
        expect([404, 405], `${method} ${url} → ${res.statusCode}`).toContain(res.statusCode);
      }
    }
    expect(await auditRows(db())).toEqual(before);
  });
});

describe('the labels', () => {
  it('every action has one Italian label, all different', () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).sort()).toEqual([...AUDIT_ACTIONS].sort());
    const italian = tFor('it');
    const labels = Object.values(AUDIT_ACTION_LABELS).map((key) => italian(key));
    expect(new Set(labels).size).toBe(labels.length);
    expect(italian(AUDIT_ACTION_LABELS['booking.delete'])).toBe('Prenotazione eliminata');
    expect(italian(AUDIT_ACTION_LABELS['user.update'])).toBe('Utente modificato');
    expect(tFor('en')(AUDIT_ACTION_LABELS['booking.delete'])).toBe('Booking deleted');
  });
});

describe('the migration that adds the subject (issue 31)', () => {
  it('names the entries written before it where the bike or the person still exists', async () => {
    // drizzle/ as it stood before the migration (found by its name: the number may change).
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'bicielis-audit-subject-'));
    const journalFile = path.join(tmp, 'meta', '_journal.json');
    cpSync(migrationsFolder, tmp, { recursive: true });
    const meta = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = meta.entries.findIndex((e) => e.tag.endsWith('_audit_subject'));
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalFile, JSON.stringify({ ...meta, entries: meta.entries.slice(0, at) }));
    const database = await createTestDatabase({ empty: true });
    try {
      expect(await runMigrations(database.db, tmp)).toBe(at);
      const d = database.db;
      // Raw SQL: the schema's later columns (the users' `lingua`, every table's `sede_id`, the bookings' own) do not exist at this migration.
      const { rows: bikeRows } = await d.execute<{ id: number }>(sql`insert into biciclette (numero, modello) values ('07', 'City Bike') returning id`);
      const bike = bikeRows[0]!.id;
      const { rows: mariaRows } = await d.execute<{ id: number }>(sql`
        insert into users (nome, cognome, email, password_hash) values ('Maria', 'Rossi', 'maria.rossi@example.org', 'x') returning id`);
      const maria = { id: mariaRows[0]!.id };
      const { rows: keptRows } = await d.execute<{ id: number }>(sql`
        insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
        values (${maria.id}, ${bike}, '2026-11-10', '09:00', '10:00', '2026-11-10T08:00:00Z', '2026-11-10T09:00:00Z', 'completata')
        returning id`);
      const kept = keptRows[0]!.id;
      const entries: [string, string, string | null, object | null][] = [
        ['bike.update', 'bike', String(bike), null],
        ['user.update', 'user', String(maria.id), null],
        ['booking.release', 'booking', String(kept), null],
        // A booking deleted since: its `before` kept the ids.
        ['booking.delete', 'booking', '999', { biciId: bike, userId: maria.id }],
        // Gone: a deleted person, and an erased one.
        ['user.delete', 'user', '998', { nome: 'Nessuno' }],
        ['user.update', 'user', '997', { nome: '[dato rimosso]', email: '[dato rimosso]' }],
        ['rules.update', 'rules', '1', null],
      ];
      for (const [action, entity, entityId, before] of entries) {
        await d.execute(sql`insert into audit_log (action, entity, entity_id, before) values (${action}, ${entity}, ${entityId}, ${before === null ? null : JSON.stringify(before)}::jsonb)`);
      }
      expect(await runMigrations(database.db)).toBe(meta.entries.length - at);
      const rows = (await d.execute<{ action: string; soggetto: string | null }>(sql`select action, soggetto from audit_log order by id`)).rows;
      expect(rows.map((r) => [r.action, r.soggetto])).toEqual([
        ['bike.update', 'Bici 07'],
        ['user.update', 'Maria Rossi'],
        ['booking.release', 'Bici 07 per Maria Rossi'],
        ['booking.delete', 'Bici 07 per Maria Rossi'],
        ['user.delete', null],
        ['user.update', '[dato rimosso]'],
        ['rules.update', null],
      ]);
    } finally {
      await database.drop();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
