import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminBookingDto, AdminDamageDto, AdminOverdueDto, AdminUserDto } from '../../src/shared/schemas/admin.js';
import type { AuditEntryDto } from '../../src/shared/schemas/audit.js';
import type { AdminWaitlistDto } from '../../src/shared/schemas/waitlist.js';
import type { AdminSedeDto } from '../../src/shared/schemas/sedi.js';
import type { AdminBikeDto } from '../../src/shared/schemas/admin.js';
import { zonedInstant } from '../../src/shared/time.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { call, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { allowedDay, readServiceDays } from '../helpers/days.js';

/**
 * Issue 47, /admin → Sedi: the admin CRUD of sedi under /api/admin/sedi (archiving refused while
 * bikes or future bookings remain, never the last open sede), the audit entries' sede derived
 * from what was acted on, and every admin list filtered by `?sedeId=`.
 */

let ctx: TestContext;
let admin: Person;
let first: number;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  await truncateAll(ctx.database.db);
  // Back to the install's one sede, open, as the migration left it.
  await db().execute(sql`delete from chiusure`);
  await db().execute(sql`delete from rastrelliera_link`);
  await db().execute(sql`delete from sedi where id <> (select min(id) from sedi)`);
  await db().execute(sql`update sedi set archiviata_at = null`);
  first = (await db().execute<{ id: number }>(sql`select min(id)::int as id from sedi`)).rows[0]!.id;
  admin = await person(ctx, { ruolo: 'admin', email: 'direzione@elis.org' });
});

const db = () => ctx.database.db;

const sediList = async () => (await call(ctx.app, admin, 'GET', '/api/admin/sedi')).json() as AdminSedeDto[];

async function newSede(nome: string, extra: object = {}): Promise<AdminSedeDto> {
  const res = await call(ctx.app, admin, 'POST', '/api/admin/sedi', { nome, ...extra });
  expect(res.statusCode).toBe(201);
  return res.json() as AdminSedeDto;
}

const bikeAt = async (sedeId: number, numero?: string) => {
  const id = await insertBike(db(), numero ? { numero } : {});
  await db().execute(sql`update biciclette set sede_id = ${sedeId} where id = ${id}`);
  return id;
};

const futureDay = async () => allowedDay(await readServiceDays(db()), { now: ctx.clock.now() });

const setLingua = (id: number, lingua: 'it' | 'en') => db().execute(sql`update users set lingua = ${lingua} where id = ${id}`);

describe('/api/admin/sedi: create, edit, list', () => {
  it('creates a sede (201), lists every sede with its counts, and edits name, address and note', async () => {
    const nord = await newSede('  Residenza Nord ', { indirizzo: 'Via Sandro Sandri 71', notaRastrelliera: 'Cortile interno, accanto alla portineria' });
    expect(nord).toMatchObject({
      nome: 'Residenza Nord',
      indirizzo: 'Via Sandro Sandri 71',
      notaRastrelliera: 'Cortile interno, accanto alla portineria',
      archiviata: false,
      bici: 0,
      prenotazioniFuture: 0,
      persone: 0,
    });
    await bikeAt(nord.id);
    const user = await person(ctx);
    await db().execute(sql`update users set sede_id = ${nord.id} where id = ${user.id}`);
    const listed = await sediList();
    expect(listed.map((s) => s.id)).toEqual([first, nord.id]);
    expect(listed[1]).toMatchObject({ bici: 1, persone: 1, prenotazioniFuture: 0 });
    expect(listed[0]).toMatchObject({ persone: 1, bici: 0 });

    const edit = await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${nord.id}`, { nome: 'Residenza Nord Est', indirizzo: '', notaRastrelliera: '  ' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ id: nord.id, nome: 'Residenza Nord Est', indirizzo: '', notaRastrelliera: null, bici: 1, persone: 1 });
    // The list anyone logged in reads shows the new name.
    expect(((await call(ctx.app, user, 'GET', '/api/sedi')).json() as AdminSedeDto[]).map((s) => s.nome)).toContain('Residenza Nord Est');
  });

  it('refuses a name already taken, whatever its case and spaces (409), on create and on rename', async () => {
    const nord = await newSede('Residenza Nord');
    const sud = await newSede('Residenza Sud');
    const taken = await call(ctx.app, admin, 'POST', '/api/admin/sedi', { nome: ' residenza NORD' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SEDE_NAME_TAKEN', message: 'Esiste già una sede con questo nome' });
    const rename = await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${sud.id}`, { nome: 'RESIDENZA nord' });
    expect(rename.statusCode).toBe(409);
    // Renaming a sede to its own name in another case is no clash.
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${nord.id}`, { nome: 'RESIDENZA NORD' })).statusCode).toBe(200);
    await setLingua(admin.id, 'en');
    const english = await call(ctx.app, admin, 'POST', '/api/admin/sedi', { nome: 'residenza sud' });
    expect(english.json().message).toBe('A location with this name already exists');
  });

  it('answers 404 for an unknown sede, 400 for an id that is not one', async () => {
    expect((await call(ctx.app, admin, 'PUT', '/api/admin/sedi/9999', { nome: 'X' })).statusCode).toBe(404);
    expect((await call(ctx.app, admin, 'POST', '/api/admin/sedi/9999/archivia')).statusCode).toBe(404);
    expect((await call(ctx.app, admin, 'POST', '/api/admin/sedi/9999/riattiva')).statusCode).toBe(404);
    const notAnId = await call(ctx.app, admin, 'POST', '/api/admin/sedi/01/archivia');
    expect(notAnId.statusCode).toBe(400);
    expect(notAnId.json().message).toBe('Sede non trovata');
  });

  it('validates the body by the table’s lengths, in the person’s language', async () => {
    const cases: [object, string, string][] = [
      [{}, 'Il nome della sede è obbligatorio', "The location's name is required"],
      [{ nome: '   ' }, 'Il nome della sede è obbligatorio', "The location's name is required"],
      [{ nome: 'x'.repeat(81) }, 'Nome della sede troppo lungo (al massimo 80 caratteri)', "The location's name is too long (80 characters at most)"],
      [{ nome: 'A', indirizzo: 'x'.repeat(201) }, 'Indirizzo troppo lungo (al massimo 200 caratteri)', 'Address too long (200 characters at most)'],
      [{ nome: 'A', notaRastrelliera: 'x'.repeat(201) }, 'Nota sulla rastrelliera troppo lunga (al massimo 200 caratteri)', 'Rack note too long (200 characters at most)'],
    ];
    for (const [body, it] of cases) {
      const res = await call(ctx.app, admin, 'POST', '/api/admin/sedi', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(it);
    }
    await setLingua(admin.id, 'en');
    for (const [body, , en] of cases) {
      const res = await call(ctx.app, admin, 'POST', '/api/admin/sedi', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(en);
    }
    // The longest allowed are taken.
    expect((await call(ctx.app, admin, 'POST', '/api/admin/sedi', { nome: 'x'.repeat(80), indirizzo: 'y'.repeat(200), notaRastrelliera: 'z'.repeat(200) })).statusCode).toBe(201);
  });

  it('is for admins only: 401 anonymous, 403 for a user', async () => {
    const user = await person(ctx);
    for (const [method, url] of [
      ['GET', '/api/admin/sedi'],
      ['POST', '/api/admin/sedi'],
      ['PUT', `/api/admin/sedi/${first}`],
      ['POST', `/api/admin/sedi/${first}/archivia`],
      ['POST', `/api/admin/sedi/${first}/riattiva`],
    ] as const) {
      expect((await call(ctx.app, null, method, url, { nome: 'X' })).statusCode).toBe(401);
      expect((await call(ctx.app, user, method, url, { nome: 'X' })).statusCode).toBe(403);
    }
    expect(await sediList()).toHaveLength(1);
  });
});

describe('archiving a sede', () => {
  it('is refused while a bike stands there or a booking there has not ended, and allowed once they are moved', async () => {
    const nord = await newSede('Residenza Nord');
    const bike = await bikeAt(nord.id, 'N1');
    const user = await person(ctx);
    const day = await futureDay();
    await insertBooking(db(), { userId: user.id, biciId: bike, date: day, from: '10:00', to: '11:00' });

    const refused = await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'SEDE_NOT_EMPTY',
      message: 'La sede ha ancora biciclette o prenotazioni future: spostale prima di archiviarla (1 bicicletta, 1 prenotazione futura)',
    });
    await setLingua(admin.id, 'en');
    expect((await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`)).json().message).toBe(
      'The location still has bikes or future bookings: move them before archiving it (1 bike, 1 future booking)',
    );

    // The bike's booking ended (cancelled), the bike still there: still refused, for the bike.
    await db().execute(sql`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'admin' where bici_id = ${bike}`);
    const bikeOnly = await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`);
    expect(bikeOnly.statusCode).toBe(409);
    expect(bikeOnly.json().message).toBe('The location still has bikes or future bookings: move them before archiving it (1 bike, 0 future bookings)');

    // The bike moved to the first sede: archived.
    await db().execute(sql`update biciclette set sede_id = ${first} where id = ${bike}`);
    const archived = await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ id: nord.id, archiviata: true, bici: 0, prenotazioniFuture: 0 });
    // Archived, it stays listed (last), and can be opened again.
    expect((await sediList()).map((s) => [s.id, s.archiviata])).toEqual([
      [first, false],
      [nord.id, true],
    ]);
    const again = await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/riattiva`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ archiviata: false });
  });

  it('counts a booking not yet ended even when its bike has gone (a booking at the sede: the sede is its own)', async () => {
    const nord = await newSede('Residenza Nord');
    const bike = await bikeAt(nord.id);
    const user = await person(ctx);
    const day = await futureDay();
    await insertBooking(db(), { userId: user.id, biciId: bike, date: day, from: '10:00', to: '11:00' });
    const [row] = await sediList().then((l) => l.filter((s) => s.id === nord.id));
    expect(row).toMatchObject({ bici: 1, prenotazioniFuture: 1 });
    // A booking that ended is no longer counted.
    ctx.clock.set(new Date(zonedInstant(day, '11:01', 'Europe/Rome')!.getTime()));
    const [later] = await sediList().then((l) => l.filter((s) => s.id === nord.id));
    expect(later).toMatchObject({ bici: 1, prenotazioniFuture: 0 });
  });

  it('never archives the last open sede', async () => {
    const refused = await call(ctx.app, admin, 'POST', `/api/admin/sedi/${first}/archivia`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'LAST_OPEN_SEDE', message: "L'ultima sede aperta non può essere archiviata" });
    // With a second sede archived, the first is still the last open one.
    const nord = await newSede('Residenza Nord');
    expect((await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`)).statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'POST', `/api/admin/sedi/${first}/archivia`)).statusCode).toBe(409);
    // With another open sede, the first (emptied of its people's homes) can go.
    const sud = await newSede('Residenza Sud');
    expect((await call(ctx.app, admin, 'POST', `/api/admin/sedi/${first}/archivia`)).statusCode).toBe(200);
    const stillHome = await db().execute<{ sede_id: number }>(sql`select sede_id from users where id = ${admin.id}`);
    expect(stillHome.rows[0]!.sede_id).toBe(sud.id);
  });

  it('moves the people whose home it is to the first open sede, in the same change', async () => {
    const nord = await newSede('Residenza Nord');
    const a = await person(ctx);
    const b = await person(ctx);
    await db().execute(sql`update users set sede_id = ${nord.id} where id in (${a.id}, ${b.id})`);
    const archived = await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`);
    expect(archived.json()).toMatchObject({ persone: 0 });
    const homes = await db().execute<{ sede_id: number }>(sql`select distinct sede_id from users`);
    expect(homes.rows.map((r) => r.sede_id)).toEqual([first]);
    const entry = ((await call(ctx.app, admin, 'GET', '/api/admin/audit?azione=sede.archive')).json() as AuditEntryDto[])[0]!;
    expect(entry.after).toMatchObject({ archiviata: true, personeSpostate: 2, nuovaSede: first });
  });
});

describe('the audit log: every change to a sede, and the sede of every entry', () => {
  it('records sede.create, sede.update, sede.archive and sede.reactivate, each with its sede and its name', async () => {
    const nord = await newSede('Residenza Nord');
    await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${nord.id}`, { nome: 'Residenza Nord Est' });
    await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/archivia`);
    await call(ctx.app, admin, 'POST', `/api/admin/sedi/${nord.id}/riattiva`);
    const rows = (await call(ctx.app, admin, 'GET', '/api/admin/audit')).json() as AuditEntryDto[];
    expect(rows.map((r) => [r.action, r.entity, r.entityId, r.sedeId, r.soggetto])).toEqual([
      ['sede.reactivate', 'sede', String(nord.id), nord.id, 'Residenza Nord Est'],
      ['sede.archive', 'sede', String(nord.id), nord.id, 'Residenza Nord Est'],
      ['sede.update', 'sede', String(nord.id), nord.id, 'Residenza Nord Est'],
      ['sede.create', 'sede', String(nord.id), nord.id, 'Residenza Nord'],
    ]);
    expect(rows[2]!.before).toMatchObject({ nome: 'Residenza Nord' });
    expect(rows[2]!.after).toMatchObject({ nome: 'Residenza Nord Est' });
  });

  it('derives the sede of an entry from its thing (bike, booking, user, damage), with the callers unchanged', async () => {
    const nord = await newSede('Residenza Nord');
    const bike = await bikeAt(nord.id, 'N7');
    const user = await person(ctx);
    await db().execute(sql`update users set sede_id = ${nord.id} where id = ${user.id}`);
    const day = await futureDay();
    const booking = await insertBooking(db(), { userId: user.id, biciId: bike, date: day, from: '10:00', to: '11:00' });
    const [damage] = (
      await db().execute<{ id: number }>(
        sql`insert into interventi (bici_id, segnalato_da, categoria, descrizione, origine) values (${bike}, ${user.id}, 'altro', 'Campanello rotto', 'ritiro') returning id`,
      )
    ).rows;

    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'fuori_servizio' })).statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'POST', `/api/admin/danni/${damage!.id}/risolta`)).statusCode).toBe(200);
    const edit = await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, {
      nome: 'Maria',
      cognome: 'Rossi',
      email: 'maria@elis.org',
      ruolo: 'user',
      isResidente: true,
      attiva: true,
    });
    expect(edit.statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${booking}`)).statusCode).toBe(200);
    // An entry about the install's rules has no sede.
    const rules = (await call(ctx.app, admin, 'GET', '/api/admin/regole')).json();
    expect((await call(ctx.app, admin, 'PUT', '/api/admin/regole', rules)).statusCode).toBe(200);

    const rows = (await call(ctx.app, admin, 'GET', '/api/admin/audit')).json() as AuditEntryDto[];
    const sedeOf = (action: string) => rows.find((r) => r.action === action)?.sedeId;
    expect(sedeOf('bike.update')).toBe(nord.id);
    expect(sedeOf('damage.resolve')).toBe(nord.id);
    expect(sedeOf('user.update')).toBe(nord.id);
    // Deleted in the same change: the sede is read from what the entry remembers.
    expect(sedeOf('booking.delete')).toBe(nord.id);
    expect(sedeOf('rules.update')).toBeNull();

    // The filter by sede, on the list and on the CSV.
    const byNord = (await call(ctx.app, admin, 'GET', `/api/admin/audit?sedeId=${nord.id}`)).json() as AuditEntryDto[];
    expect(byNord.map((r) => r.action).sort()).toEqual(['bike.update', 'booking.delete', 'damage.resolve', 'sede.create', 'user.update']);
    const byFirst = await call(ctx.app, admin, 'GET', `/api/admin/audit?sedeId=${first}`);
    expect(byFirst.json()).toEqual([]);
    expect(byFirst.headers['x-total-count']).toBe('0');
    const csv = await call(ctx.app, admin, 'GET', `/api/admin/audit.csv?sedeId=${nord.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(1 + 5);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/audit.csv?sedeId=')).statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/audit?sedeId=abc')).statusCode).toBe(400);
  });
});

describe('every admin list, filtered by ?sedeId=', () => {
  it('bookings, bikes, users, damage reports, overdue rides, waitlists: only the sede’s rows, each naming its sede', async () => {
    const nord = await newSede('Residenza Nord');
    const here = await bikeAt(first, 'C1');
    const there = await bikeAt(nord.id, 'N1');
    const maria = await person(ctx, { nome: 'Maria' });
    const luca = await person(ctx, { nome: 'Luca' });
    const gianni = await person(ctx, { nome: 'Gianni' });
    await db().execute(sql`update users set sede_id = ${nord.id} where id in (${luca.id}, ${gianni.id})`);
    const day = await futureDay();
    await insertBooking(db(), { userId: maria.id, biciId: here, date: day, from: '10:00', to: '11:00' });
    await insertBooking(db(), { userId: luca.id, biciId: there, date: day, from: '10:00', to: '11:00' });
    // A ride at the north sede picked up yesterday and never returned.
    await insertBooking(db(), {
      userId: gianni.id,
      biciId: there,
      date: '2026-11-20',
      from: '10:00',
      to: '11:00',
      stato: 'completata',
    });
    await db().execute(sql`
      insert into interventi (bici_id, segnalato_da, categoria, descrizione, origine)
      values (${here}, ${maria.id}, 'altro', 'Sella', 'ritiro'), (${there}, ${luca.id}, 'altro', 'Freni', 'ritiro')`);

    const get = async <T>(url: string) => {
      const res = await call(ctx.app, admin, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      return res.json() as T;
    };
    const bookings = await get<AdminBookingDto[]>(`/api/admin/prenotazioni?sedeId=${nord.id}`);
    expect(bookings.map((b) => [b.biciNumero, b.sedeId])).toEqual([
      ['N1', nord.id],
      ['N1', nord.id],
    ]);
    expect(bookings[0]!.dataPrenotazione).toBe(day);
    expect((await get<AdminBookingDto[]>(`/api/admin/prenotazioni?sedeId=${first}&stato=attiva`)).map((b) => b.biciNumero)).toEqual(['C1']);
    expect(await get<AdminBookingDto[]>('/api/admin/prenotazioni')).toHaveLength(3);

    expect((await get<AdminBikeDto[]>(`/api/admin/biciclette?sedeId=${nord.id}`)).map((b) => b.numero)).toEqual(['N1']);
    expect((await get<AdminBikeDto[]>('/api/admin/biciclette')).map((b) => b.numero).sort()).toEqual(['C1', 'N1']);

    const users = await get<AdminUserDto[]>(`/api/admin/users?sedeId=${nord.id}`);
    expect(users.map((u) => [u.id, u.sedeId])).toEqual([
      [luca.id, nord.id],
      [gianni.id, nord.id],
    ]);
    expect((await get<AdminUserDto[]>(`/api/admin/users?sedeId=${first}&q=Maria`)).map((u) => u.id)).toEqual([maria.id]);

    const damages = await get<AdminDamageDto[]>(`/api/admin/danni?sedeId=${nord.id}`);
    expect(damages.map((d) => [d.descrizione, d.sedeId])).toEqual([['Freni', nord.id]]);
    expect(await get<AdminDamageDto[]>('/api/admin/danni')).toHaveLength(2);

    // A ride in ritardo at each sede: picked up, its end passed.
    const at = ctx.clock.now();
    await db().execute(sql`update prenotazioni set stato = 'attiva', ritirata_at = ${new Date(at.getTime() - 3_600_000).toISOString()}::timestamptz,
      fine = ${new Date(at.getTime() - 60_000).toISOString()}::timestamptz where data_prenotazione = '2026-11-20'`);
    const overdue = await get<AdminOverdueDto[]>(`/api/admin/ritardi?sedeId=${nord.id}`);
    expect(overdue.map((o) => [o.biciNumero, o.sedeId])).toEqual([['N1', nord.id]]);
    expect(await get<AdminOverdueDto[]>(`/api/admin/ritardi?sedeId=${first}`)).toEqual([]);

    // A wait for today at the first sede (the wait is given no sede: the first open one).
    const today = '2026-11-21';
    await db().execute(sql`insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine)
      values (${maria.id}, ${today}::date, '15:00', '16:00', ${zonedInstant(today, '15:00', 'Europe/Rome')!.toISOString()}::timestamptz,
              ${zonedInstant(today, '16:00', 'Europe/Rome')!.toISOString()}::timestamptz)`);
    expect((await get<AdminWaitlistDto>(`/api/admin/attese?sedeId=${nord.id}`)).inAttesa).toBe(0);
    expect((await get<AdminWaitlistDto>(`/api/admin/attese?sedeId=${first}`)).inAttesa).toBe(1);
    expect((await get<AdminWaitlistDto>('/api/admin/attese')).inAttesa).toBe(1);

    for (const path of ['prenotazioni', 'biciclette', 'users', 'danni', 'attese', 'ritardi', 'audit']) {
      const bad = await call(ctx.app, admin, 'GET', `/api/admin/${path}?sedeId=1.5`);
      expect(bad.statusCode, path).toBe(400);
      expect(bad.json().message).toBe('Sede non trovata');
    }
  });

  it('reads the bookings of one sede along its index, in the list’s order', async () => {
    const nord = await newSede('Residenza Nord');
    const { rows } = await db().execute<{ 'QUERY PLAN': string }>(sql`
      explain select id from prenotazioni where sede_id = ${nord.id} and stato <> 'offerta'
       order by data_prenotazione desc, orario_inizio desc, id desc limit 50`);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/prenotazioni_sede_order_idx/);
  });
});

describe('PUT /api/admin/users/:id with a home sede', () => {
  const body = (sedeId?: unknown) => ({ nome: 'Maria', cognome: 'Rossi', email: 'maria@elis.org', ruolo: 'user', isResidente: true, attiva: true, ...(sedeId === undefined ? {} : { sedeId }) });

  it('sets an open sede; refuses an archived or unknown one (400) and a malformed id; without it the home stays', async () => {
    const nord = await newSede('Residenza Nord');
    const sud = await newSede('Residenza Sud');
    await call(ctx.app, admin, 'POST', `/api/admin/sedi/${sud.id}/archivia`);
    const user = await person(ctx);
    const moved = await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, body(nord.id));
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ sedeId: nord.id });
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, body())).json()).toMatchObject({ sedeId: nord.id });
    for (const closed of [sud.id, 9999]) {
      const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, body(closed));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'SEDE_NOT_OPEN', message: 'Sede non trovata o archiviata' });
    }
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/users/${user.id}`, body('2'))).statusCode).toBe(400);
    const audit = ((await call(ctx.app, admin, 'GET', `/api/admin/audit?sedeId=${nord.id}&azione=user.update`)).json() as AuditEntryDto[]).at(-1)!;
    expect(audit.before).toMatchObject({ sedeId: first });
    expect(audit.after).toMatchObject({ sedeId: nord.id });
  });
});
