import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, incarichi, prenotazioni, users } from '../../src/server/schema.js';
import { hashSessionToken } from '../../src/server/modules/auth/sessions.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { tableDigests } from '../helpers/db-digest.js';

/**
 * Issue 48's staff roles on the server: the roles written with the user (the whole list,
 * replacing; open sedi only; audited), seen by the person's next request, and a porter's desk
 * (booking, pick-up and return on the person's behalf) kept to their sede and audited with
 * their role.
 */

let ctx: TestContext;
let admin: Person;
let sedeA: number;
let sedeB: number;
let archived: number;

beforeAll(async () => {
  ctx = await createTestApp({ sessionCache: true, deps: { mailer: capturingMailer() } });
});
afterAll(async () => {
  await ctx?.close();
});

beforeEach(async () => {
  const db = ctx.database.db;
  await truncateAll(db);
  await db.execute(sql`delete from sedi where id <> (select min(id) from sedi) and nome not in ('Sede B', 'Sede Chiusa')`);
  await db.execute(sql`insert into sedi (nome) values ('Sede B'), ('Sede Chiusa') on conflict do nothing`);
  await db.execute(sql`update sedi set archiviata_at = case when nome = 'Sede Chiusa' then '2026-11-01T00:00:00Z'::timestamptz end`);
  const id = async (nome: string) => (await db.execute<{ id: number }>(sql`select id from sedi where nome = ${nome}`)).rows[0]!.id;
  sedeA = (await db.execute<{ id: number }>(sql`select min(id) as id from sedi`)).rows[0]!.id;
  sedeB = await id('Sede B');
  archived = await id('Sede Chiusa');
  admin = await person(ctx, { ruolo: 'admin' });
});

const edit = (target: { id: number; email: string }, extra: object) => ({
  nome: 'Mario',
  cognome: 'Rossi',
  email: target.email,
  ruolo: 'user',
  isResidente: true,
  attiva: true,
  ...extra,
});

async function bikeAt(sedeId: number): Promise<number> {
  const id = await insertBike(ctx.database.db);
  await ctx.database.db.execute(sql`update biciclette set sede_id = ${sedeId} where id = ${id}`);
  return id;
}

async function porterOf(sedeId: number): Promise<Person> {
  const porter = await person(ctx);
  await ctx.database.db.insert(incarichi).values({ userId: porter.id, sedeId, ruolo: 'portineria' });
  return porter;
}

const lastAudit = async () => (await ctx.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]!;

describe('incarichi written with the user (PUT /api/admin/users/:id)', () => {
  it('replaces the whole list, a pair given twice once; the user list and the audit entry (before/after, role admin) carry it', async () => {
    const target = await person(ctx);
    const first = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, {
      incarichi: [
        { sedeId: sedeB, ruolo: 'officina' },
        { sedeId: sedeA, ruolo: 'portineria' },
        { sedeId: sedeA, ruolo: 'portineria' },
      ],
    }));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().incarichi).toEqual([
      { sedeId: sedeA, ruolo: 'portineria' },
      { sedeId: sedeB, ruolo: 'officina' },
    ]);
    const entry = await lastAudit();
    expect(entry.action).toBe('user.update');
    expect(entry.actorRuolo).toBe('admin');
    expect((entry.before as { incarichi: unknown }).incarichi).toEqual([]);
    expect((entry.after as { incarichi: unknown[] }).incarichi).toHaveLength(2);

    const list = await call(ctx.app, admin, 'GET', '/api/admin/users?page=1&pageSize=50');
    expect(list.json().find((u: { id: number }) => u.id === target.id).incarichi).toHaveLength(2);

    // Absent: unchanged; another list: replaces; empty: none.
    const kept = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { nome: 'Maria' }));
    expect(kept.json().incarichi).toHaveLength(2);
    const replaced = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { incarichi: [{ sedeId: sedeB, ruolo: 'portineria' }] }));
    expect(replaced.json().incarichi).toEqual([{ sedeId: sedeB, ruolo: 'portineria' }]);
    const cleared = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { incarichi: [] }));
    expect(cleared.json().incarichi).toEqual([]);
    expect(await ctx.database.db.select().from(incarichi).where(eq(incarichi.userId, target.id))).toEqual([]);
  });

  it('an archived or unknown sede, or an unknown role: 400 in the person’s language, nothing changes', async () => {
    const target = await person(ctx);
    await ctx.database.db.insert(incarichi).values({ userId: target.id, sedeId: sedeA, ruolo: 'officina' });
    // An admin whose account is in English, made before the digests: a new person also counts in
    // the people's counter (contatori_delta, decision 065).
    const englishAdmin = await person(ctx, { ruolo: 'admin' });
    await ctx.database.db.update(users).set({ lingua: 'en' }).where(eq(users.id, englishAdmin.id));
    const before = await tableDigests(ctx.database.db, ['rate_limits', 'users']);
    const closed = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { nome: 'Altro', incarichi: [{ sedeId: archived, ruolo: 'portineria' }] }));
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toBe('Un incarico è in una sede chiusa o inesistente');
    const unknown = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { incarichi: [{ sedeId: 999_999, ruolo: 'portineria' }] }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Un incarico è in una sede chiusa o inesistente');
    const badRole = await call(ctx.app, admin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { incarichi: [{ sedeId: sedeA, ruolo: 'custode' }] }));
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().message).toContain('Incarico non valido');
    // An admin whose account is in English reads it in English.
    const english = await call(ctx.app, englishAdmin, 'PUT', `/api/admin/users/${target.id}`, edit(target, { incarichi: [{ sedeId: archived, ruolo: 'portineria' }] }));
    expect(english.statusCode).toBe(400);
    expect(english.json().message).toBe('A role is at a location that is closed or does not exist');
    // Nothing changed (the English admin's session aside).
    const after = await tableDigests(ctx.database.db, ['rate_limits', 'users']);
    expect(Object.keys(after).filter((t) => after[t] !== before[t] && t !== 'sessions')).toEqual([]);
    expect((await ctx.database.db.select({ nome: users.nome }).from(users).where(eq(users.id, target.id)))[0]!.nome).not.toBe('Altro');
    expect(await ctx.database.db.select({ ruolo: incarichi.ruolo }).from(incarichi).where(eq(incarichi.userId, target.id))).toEqual([{ ruolo: 'officina' }]);
  });
});

describe('the session sees a role at once', () => {
  it('a staff member’s next request has the role given, without logging in again; taken away, it is gone', async () => {
    const staff = await person(ctx);
    const ask = () => call(ctx.app, staff, 'GET', '/api/admin/prenotazioni?page=1&pageSize=10');
    expect((await ask()).statusCode).toBe(403);
    expect(ctx.sessionCache!.get(hashSessionToken(staff.cookie.split('=')[1]!))).toBeDefined();
    const given = await call(ctx.app, admin, 'PUT', `/api/admin/users/${staff.id}`, edit(staff, { incarichi: [{ sedeId: sedeA, ruolo: 'portineria' }] }));
    expect(given.statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(200);
    expect((await call(ctx.app, staff, 'GET', '/api/current-user')).json().incarichi).toEqual([{ sedeId: sedeA, ruolo: 'portineria' }]);
    const taken = await call(ctx.app, admin, 'PUT', `/api/admin/users/${staff.id}`, edit(staff, { incarichi: [] }));
    expect(taken.statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(403);
  });

  it('a role written by anyone (another process, SQL) evicts the person’s cached sessions: the trigger NOTIFYs', async () => {
    const staff = await person(ctx);
    const hash = hashSessionToken(staff.cookie.split('=')[1]!);
    expect((await call(ctx.app, staff, 'GET', '/api/current-user')).json().incarichi).toEqual([]);
    expect(ctx.sessionCache!.get(hash)).toBeDefined();
    await ctx.database.db.insert(incarichi).values({ userId: staff.id, sedeId: sedeA, ruolo: 'officina' });
    let evicted = false;
    for (let i = 0; i < 200 && !evicted; i++) {
      evicted = ctx.sessionCache!.get(hash) === undefined;
      if (!evicted) await new Promise((r) => setTimeout(r, 10));
    }
    expect(evicted).toBe(true);
    expect((await call(ctx.app, staff, 'GET', '/api/current-user')).json().incarichi).toEqual([{ sedeId: sedeA, ruolo: 'officina' }]);
  });
});

describe('a porter’s desk (capability banco), kept to their sede', () => {
  it('books for a person at their sede (201, audited as portineria); a bike of another sede is 404 and nothing changes', async () => {
    const porter = await porterOf(sedeA);
    const guest = await person(ctx);
    const body = (biciId: number) => ({ userId: guest.id, dataPrenotazione: '2026-11-23', orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, biciId });
    const other = await bikeAt(sedeB);
    const before = await tableDigests(ctx.database.db, ['rate_limits']);
    const refused = await call(ctx.app, porter, 'POST', '/api/admin/prenotazioni', body(other));
    expect(refused.statusCode).toBe(404);
    expect(await tableDigests(ctx.database.db, ['rate_limits'])).toEqual(before);
    const booked = await call(ctx.app, porter, 'POST', '/api/admin/prenotazioni', body(await bikeAt(sedeA)));
    expect(booked.statusCode, booked.body).toBe(201);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: 'booking.create_for_user', actorId: porter.id, actorRuolo: 'portineria' });
  });

  it('picks up and returns on the person’s behalf, each audited with the porter and their role; another sede’s booking is 404', async () => {
    const porter = await porterOf(sedeA);
    const rider = await person(ctx);
    const bookingId = await insertBooking(ctx.database.db, { userId: rider.id, biciId: await bikeAt(sedeA), date: '2026-11-21', from: '10:00', to: '11:00' });
    const elsewhere = await insertBooking(ctx.database.db, { userId: (await person(ctx)).id, biciId: await bikeAt(sedeB), date: '2026-11-21', from: '10:00', to: '11:00' });

    expect((await call(ctx.app, porter, 'POST', `/api/admin/prenotazioni/${elsewhere}/ritiro`)).statusCode).toBe(404);
    expect((await call(ctx.app, porter, 'GET', `/api/admin/prenotazioni/${elsewhere}`)).statusCode).toBe(404);
    const detail = await call(ctx.app, porter, 'GET', `/api/admin/prenotazioni/${bookingId}`);
    expect(detail.json()).toMatchObject({ id: bookingId, sedeId: sedeA, fase: 'da_ritirare' });

    const picked = await call(ctx.app, porter, 'POST', `/api/admin/prenotazioni/${bookingId}/ritiro`);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().ritirataAt).not.toBeNull();
    expect(await lastAudit()).toMatchObject({ action: 'booking.pickup_for_user', actorId: porter.id, actorRuolo: 'portineria', entityId: String(bookingId) });

    const returned = await call(ctx.app, porter, 'POST', `/api/admin/prenotazioni/${bookingId}/riconsegna`, { danno: { categoria: 'freni', descrizione: 'Freno morbido' } });
    expect(returned.statusCode, returned.body).toBe(200);
    const [row] = await ctx.database.db.select({ stato: prenotazioni.stato }).from(prenotazioni).where(eq(prenotazioni.id, bookingId));
    expect(row!.stato).toBe('completata');
    expect(await lastAudit()).toMatchObject({ action: 'booking.return_for_user', actorId: porter.id, actorRuolo: 'portineria' });

    // The admin reads the role in the log.
    const log = await call(ctx.app, admin, 'GET', '/api/admin/audit?page=1&pageSize=5');
    expect(log.json()[0]).toMatchObject({ action: 'booking.return_for_user', actorRuolo: 'portineria' });
    expect((await call(ctx.app, porter, 'GET', '/api/admin/audit?page=1&pageSize=5')).statusCode).toBe(403);
  });

  it('a bike’s state, yes; its sede, admins only (403); a closure of every sede, admins only (403); nothing changes', async () => {
    const porter = await porterOf(sedeA);
    const bike = await bikeAt(sedeA);
    const before = await tableDigests(ctx.database.db, ['rate_limits']);
    const moved = await call(ctx.app, porter, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'manutenzione', sedeId: sedeB });
    expect(moved.statusCode).toBe(403);
    expect(moved.json().message).toBe("Solo un amministratore può spostare una bici in un'altra sede");
    const everywhere = await call(ctx.app, porter, 'POST', '/api/admin/chiusure', { dal: '2026-12-24', al: '2026-12-26', motivo: 'Natale' });
    expect(everywhere.statusCode).toBe(403);
    expect(everywhere.json().message).toBe('Solo un amministratore può chiudere tutte le sedi');
    expect(await tableDigests(ctx.database.db, ['rate_limits'])).toEqual(before);

    expect((await call(ctx.app, porter, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'manutenzione' })).statusCode).toBe(200);
    expect((await call(ctx.app, porter, 'POST', '/api/admin/chiusure', { dal: '2026-12-24', al: '2026-12-26', motivo: 'Natale', sedeId: sedeA })).statusCode).toBe(201);
    // The admin's closure of every sede is not the porter's to see.
    expect((await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: '2027-01-02', al: '2027-01-03', motivo: 'Inventario' })).statusCode).toBe(201);
    const seen = await call(ctx.app, porter, 'GET', '/api/admin/chiusure');
    expect(seen.json().map((c: { sedeId: number | null }) => c.sedeId)).toEqual([sedeA]);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/chiusure')).json()).toHaveLength(2);
  });

  it('lists, summary and statistics keep to the porter’s sede; another sede asked is 404', async () => {
    const porter = await porterOf(sedeA);
    const mine = await bikeAt(sedeA);
    await bikeAt(sedeB);
    const user = await person(ctx);
    await insertBooking(ctx.database.db, { userId: user.id, biciId: mine, date: '2026-11-19', from: '10:00', to: '11:00', stato: 'completata' });
    const bikes = await call(ctx.app, porter, 'GET', '/api/admin/biciclette');
    expect(bikes.json().map((b: { id: number }) => b.id)).toEqual([mine]);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/biciclette')).json()).toHaveLength(2);
    const summary = (await call(ctx.app, porter, 'GET', '/api/admin/summary')).json();
    expect(summary).toMatchObject({ biciTotali: 1, bookingsByStato: { completata: 1 } });
    const stats = await call(ctx.app, porter, 'GET', '/api/admin/stats?period=7');
    expect(stats.statusCode).toBe(200);
    expect(stats.json().sedi.map((s: { sedeId: number }) => s.sedeId)).toEqual([sedeA]);
    expect(stats.json().bikes.map((b: { id: number }) => b.id)).toEqual([mine]);
    expect(stats.json().totals.rides).toBe(1);
    expect((await call(ctx.app, porter, 'GET', `/api/admin/stats?period=7&sedeId=${sedeB}`)).statusCode).toBe(404);
    const csv = await call(ctx.app, porter, 'GET', '/api/admin/stats/export.csv?period=7');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(2);
    // The nightly PDF reports stay the admins'.
    expect((await call(ctx.app, porter, 'GET', '/api/reports')).statusCode).toBe(403);
  });
});
