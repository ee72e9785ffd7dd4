import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prenotazioni, sessions, users } from '../../src/server/schema.js';
import { ADMIN_PAGE_SIZE_MAX } from '../../src/shared/schemas/admin.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { auditRows, call, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createResident, createUser } from '../helpers/factories.js';

const INITIAL_PASSWORD = 'Benvenuto-2026';
let ctx: TestContext;
let admin: Person;

beforeAll(async () => {
  ctx = await createTestApp({ env: { RESIDENT_INITIAL_PASSWORD: INITIAL_PASSWORD, RESIDENT_EMAIL_DOMAIN: 'elis.org' } });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  await truncateAll(ctx.database.db);
  admin = await person(ctx, { ruolo: 'admin' });
});

const db = () => ctx.database.db;
const TOMORROW = '2026-11-22';

describe('every admin route: 401 anonymous, 403 user, works for an admin', () => {
  async function routes() {
    const bike = await insertBike(db());
    const owner = await person(ctx);
    const booking = await insertBooking(db(), { userId: owner.id, biciId: bike, date: TOMORROW, from: '10:00', to: '11:00' });
    const target = await person(ctx);
    const doomed = await person(ctx);
    return [
      ['GET', '/api/admin/summary', undefined, 200],
      ['GET', '/api/admin/prenotazioni', undefined, 200],
      ['GET', '/api/admin/users', undefined, 200],
      ['GET', '/api/admin/biciclette', undefined, 200],
      ['DELETE', `/api/admin/prenotazioni/${booking}`, undefined, 200],
      ['PUT', `/api/admin/users/${target.id}`, { nome: 'Nuovo', cognome: 'Nome', email: 'nuovo@test.it', ruolo: 'user', isResidente: true, attiva: true }, 200],
      ['DELETE', `/api/admin/users/${doomed.id}`, undefined, 200],
      ['PUT', `/api/admin/biciclette/${bike}`, { stato: 'manutenzione' }, 200],
      ['POST', '/api/admin/biciclette', { numero: '99', modello: 'City Bike' }, 201],
      ['POST', '/api/admin/import-residents', undefined, 200],
    ] as const;
  }

  it('anonymous: 401 Non autenticato, nothing changes', async () => {
    for (const [method, url, body] of await routes()) {
      const res = await call(ctx.app, null, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Non autenticato' });
    }
    expect(await auditRows(db())).toHaveLength(0);
  });

  it('a logged-in user who is not an admin: 403, nothing changes', async () => {
    const user = await person(ctx);
    for (const [method, url, body] of await routes()) {
      const res = await call(ctx.app, user, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('Non hai i permessi per questa operazione');
    }
    expect(await auditRows(db())).toHaveLength(0);
    expect((await db().select({ n: count() }).from(prenotazioni))[0]!.n).toBe(1);
  });

  it('an admin: each route answers', async () => {
    for (const [method, url, body, status] of await routes()) {
      const res = await call(ctx.app, admin, method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    }
    // Six changes, six audit rows.
    expect((await auditRows(db())).map((r) => r.action).sort()).toEqual(
      ['bike.create', 'bike.update', 'booking.delete', 'residents.import', 'user.delete', 'user.update'],
    );
  });

  it('unknown ids: 404 with an Italian message', async () => {
    const cases = [
      ['DELETE', '/api/admin/prenotazioni/999', undefined, 'Prenotazione non trovata'],
      ['PUT', '/api/admin/users/999', { nome: 'A', cognome: '', email: 'a@test.it', ruolo: 'user', isResidente: false, attiva: true }, 'Utente non trovato'],
      ['DELETE', '/api/admin/users/999', undefined, 'Utente non trovato'],
      ['PUT', '/api/admin/biciclette/999', { stato: 'disponibile' }, 'Bicicletta non trovata'],
    ] as const;
    for (const [method, url, body, message] of cases) {
      const res = await call(ctx.app, admin, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe(message);
    }
    expect((await call(ctx.app, admin, 'DELETE', '/api/admin/users/abc')).statusCode).toBe(400);
  });
});

describe('PUT /api/admin/users/:id', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    nome: 'Maria',
    cognome: 'Rossi',
    email: 'maria.rossi@test.it',
    ruolo: 'user',
    isResidente: false,
    attiva: true,
    ...over,
  });

  it('updates the fields; the email is stored lower-case and stays unique case-insensitively (409)', async () => {
    const u = await person(ctx);
    const other = await person(ctx, { email: 'preso@test.it' });
    const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ email: '  Maria.Rossi@Test.IT ' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: u.id, nome: 'Maria', cognome: 'Rossi', email: 'maria.rossi@test.it', ruolo: 'user', isResidente: false, attiva: true });
    expect(res.json()).not.toHaveProperty('passwordHash');
    const dup = await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ email: 'PRESO@test.it' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Email già registrata');
    const [row] = await db().select().from(users).where(eq(users.id, u.id));
    expect(row!.email).toBe('maria.rossi@test.it');
    expect(other.id).not.toBe(u.id);
  });

  it('validation: Italian messages, nothing changes', async () => {
    const u = await person(ctx);
    const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ nome: '  ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Il nome è obbligatorio', fields: { nome: 'Il nome è obbligatorio' } });
    expect(await auditRows(db())).toHaveLength(0);
  });

  it('clearing isResidente makes the user external and frees their resident code', async () => {
    const code = await createResident(db());
    const u = await createUser(db(), { siglaResidente: code.sigla });
    const kept = await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ email: u.email, isResidente: true }));
    expect(kept.json()).toMatchObject({ isResidente: true, siglaResidente: code.sigla, sigla: code.sigla });
    const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ email: u.email, isResidente: false }));
    expect(res.json()).toMatchObject({ isResidente: false, siglaResidente: null, sigla: null });
  });

  it('the last active admin cannot be demoted or deactivated (409); with a second admin it can', async () => {
    const me = { nome: 'Admin', cognome: '', email: admin.email, isResidente: false };
    for (const change of [{ ruolo: 'user', attiva: true }, { ruolo: 'admin', attiva: false }]) {
      const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${admin.id}`, { ...me, ...change });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/almeno un amministratore attivo/);
    }
    // An inactive admin does not count.
    await person(ctx, { ruolo: 'admin', attiva: false });
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/users/${admin.id}`, { ...me, ruolo: 'user', attiva: true })).statusCode).toBe(409);
    await person(ctx, { ruolo: 'admin' });
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/users/${admin.id}`, { ...me, ruolo: 'user', attiva: true })).statusCode).toBe(200);
  });

  it('two admins demoting each other at the same time: exactly one succeeds', async () => {
    for (let round = 0; round < 8; round++) {
      await truncateAll(db());
      const a = await person(ctx, { ruolo: 'admin' });
      const b = await person(ctx, { ruolo: 'admin' });
      const demote = (actor: Person, target: Person) =>
        call(ctx.app, actor, 'PUT', `/api/admin/users/${target.id}`, {
          nome: 'X', cognome: '', email: target.email, ruolo: 'user', isResidente: false, attiva: true,
        });
      const results = await Promise.all([demote(a, b), demote(b, a)]);
      // The loser is refused by the guard (409) or, when the winner committed before its
      // request was even authorised, as a non-admin (403): never a second success.
      const [ok, refused] = results.map((r) => r.statusCode).sort();
      expect(ok, `round ${round}`).toBe(200);
      expect([403, 409], `round ${round}`).toContain(refused);
      const admins = await db().select({ n: count() }).from(users).where(sql`ruolo = 'admin' and attiva`);
      expect(admins[0]!.n).toBe(1);
    }
  });

  it('deactivating ends the user’s sessions at once: the next request is 401, even after reactivation', async () => {
    const u = await person(ctx);
    expect((await call(ctx.app, u, 'GET', '/api/current-user')).statusCode).toBe(200);
    const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ email: u.email, attiva: false }));
    expect(res.statusCode).toBe(200);
    expect(await db().select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    expect((await call(ctx.app, u, 'GET', '/api/current-user')).statusCode).toBe(401);
    await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ email: u.email, attiva: true }));
    expect((await call(ctx.app, u, 'GET', '/api/current-user')).statusCode).toBe(401);
  });

  it('writes an audit row: who, what, before and after, never a password hash', async () => {
    const u = await person(ctx, { nome: 'Prima' });
    await call(ctx.app, admin, 'PUT', `/api/admin/users/${u.id}`, body({ nome: 'Dopo', email: u.email }));
    const [row] = await auditRows(db());
    expect(row).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      action: 'user.update',
      entity: 'user',
      entityId: String(u.id),
      before: expect.objectContaining({ nome: 'Prima' }),
      after: expect.objectContaining({ nome: 'Dopo' }),
    });
    expect(JSON.stringify(row)).not.toMatch(/password|argon/i);
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it('deletes the user and all their bookings; not oneself (409)', async () => {
    const u = await person(ctx);
    const bike = await insertBike(db());
    await insertBooking(db(), { userId: u.id, biciId: bike, date: TOMORROW, from: '10:00', to: '11:00' });
    await insertBooking(db(), { userId: u.id, biciId: bike, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'completata' });
    const res = await call(ctx.app, admin, 'DELETE', `/api/admin/users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: u.id, deletedBookings: 2, refundedPayments: 0 });
    expect(await db().select().from(prenotazioni)).toHaveLength(0);
    expect((await call(ctx.app, u, 'GET', '/api/current-user')).statusCode).toBe(401);
    const self = await call(ctx.app, admin, 'DELETE', `/api/admin/users/${admin.id}`);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('Non puoi eliminare il tuo account');
    const [audit] = await auditRows(db());
    expect(audit).toMatchObject({ action: 'user.delete', entityId: String(u.id), after: { deletedBookings: 2, refundedPayments: 0 } });
  });
});

describe('POST /api/admin/import-residents', () => {
  it('creates an account for each active code without one; a second run skips them all', async () => {
    const r1 = await createResident(db(), { nome: 'Anna', cognome: 'Bianchi' });
    const r2 = await createResident(db());
    const r3 = await createResident(db());
    await createUser(db(), { siglaResidente: r3.sigla }); // has an account by sigla
    const r4 = await createResident(db());
    await createUser(db(), { email: `${r4.sigla.toLowerCase()}@elis.org` }); // by email
    await createResident(db(), { attivo: false });

    const first = await call(ctx.app, admin, 'POST', '/api/admin/import-residents');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ imported: 2, skipped: 2 });
    const [created] = await db().select().from(users).where(eq(users.siglaResidente, r1.sigla));
    expect(created).toMatchObject({
      email: `${r1.sigla.toLowerCase()}@elis.org`,
      nome: 'Anna',
      cognome: 'Bianchi',
      ruolo: 'user',
      isResidente: true,
      attiva: true,
      mustChangePassword: true,
    });
    expect(created!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await db().select().from(users).where(eq(users.siglaResidente, r2.sigla))).toHaveLength(1);

    const second = await call(ctx.app, admin, 'POST', '/api/admin/import-residents');
    expect(second.json()).toEqual({ imported: 0, skipped: 4 });
    expect((await auditRows(db())).filter((r) => r.action === 'residents.import')).toHaveLength(2);

    // The imported resident logs in with the initial password and must change it first.
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: created!.email, password: INITIAL_PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ requiresPasswordChange: true, userId: created!.id });
  });

  it('without RESIDENT_INITIAL_PASSWORD: 409 with a clear message, nothing changes', async () => {
    const bare = await createTestApp();
    try {
      await createResident(bare.database.db);
      const a = await person(bare, { ruolo: 'admin' });
      const res = await call(bare.app, a, 'POST', '/api/admin/import-residents');
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/RESIDENT_INITIAL_PASSWORD/);
      expect((await bare.database.db.select({ n: count() }).from(users))[0]!.n).toBe(1);
      expect(await auditRows(bare.database.db)).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});

describe('lists: paging, filter, search', () => {
  async function bookings() {
    const bike = await insertBike(db(), { numero: '7' });
    const other = await insertBike(db(), { numero: '12' });
    const rossi = await person(ctx, { nome: 'Mario', cognome: 'Rossi', email: 'mario.rossi@test.it' });
    const verdi = await person(ctx, { nome: 'Lucia', cognome: 'Verdi', email: 'lucia@test.it' });
    const ids = [
      await insertBooking(db(), { userId: rossi.id, biciId: bike, date: '2026-11-18', from: '10:00', to: '11:00', stato: 'completata', destinazione: 'Colosseo' }),
      await insertBooking(db(), { userId: rossi.id, biciId: bike, date: '2026-11-19', from: '10:00', to: '11:00', stato: 'cancellata', destinazione: 'Sconto 100% sul gelato' }),
      await insertBooking(db(), { userId: verdi.id, biciId: other, date: '2026-11-19', from: '15:00', to: '16:00', stato: 'completata', destinazione: 'a_b' }),
      await insertBooking(db(), { userId: verdi.id, biciId: other, date: '2026-11-20', from: '09:00', to: '10:00', stato: 'completata' }),
      await insertBooking(db(), { userId: rossi.id, biciId: bike, date: TOMORROW, from: '10:00', to: '11:00' }),
    ];
    return ids;
  }
  const list = (query: string) => call(ctx.app, admin, 'GET', `/api/admin/prenotazioni${query}`);

  it('bookings: newest first, paged with X-Total-Count', async () => {
    const ids = await bookings();
    const all = await list('');
    expect(all.headers['x-total-count']).toBe('5');
    expect(all.json().map((b: { id: number }) => b.id)).toEqual([...ids].reverse());
    const page2 = await list('?page=2&pageSize=2');
    expect(page2.headers['x-total-count']).toBe('5');
    expect(page2.json().map((b: { id: number }) => b.id)).toEqual([ids[2], ids[1]]);
    expect((await list('?page=9&pageSize=2')).json()).toEqual([]);
    expect(all.json()[0]).toEqual({
      id: ids[4],
      utente: 'Mario Rossi',
      biciNumero: '7',
      destinazione: null,
      dataPrenotazione: TOMORROW,
      orarioInizio: '10:00',
      orarioFine: '11:00',
      stato: 'attiva',
      userName: 'Mario',
      userSurname: 'Rossi',
      userEmail: 'mario.rossi@test.it',
      biciModello: 'City Bike',
      paymentStatus: null,
      createdAt: expect.any(String),
      fase: 'da_ritirare',
      ritirataAt: null,
      riconsegnataAt: null,
      motivoCancellazione: null,
      // The booking's sede (issue 47): its bike's, the install's one sede.
      sedeId: expect.any(Number),
    });
    const tooBig = await list(`?pageSize=${ADMIN_PAGE_SIZE_MAX + 1}`);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe('Al massimo 200 righe per pagina');
  });

  it('bookings: status filter and case-insensitive search on user, bike number and destination; % and _ are literal', async () => {
    const ids = await bookings();
    const idsOf = async (query: string) => (await list(query)).json().map((b: { id: number }) => b.id);
    expect(await idsOf('?stato=completata')).toEqual([ids[3], ids[2], ids[0]]);
    expect((await list('?stato=completata')).headers['x-total-count']).toBe('3');
    expect(await idsOf('?q=ROSSI')).toEqual([ids[4], ids[1], ids[0]]);
    expect(await idsOf('?q=mario%20rossi')).toEqual([ids[4], ids[1], ids[0]]);
    expect(await idsOf('?q=LUCIA%40')).toEqual([ids[3], ids[2]]);
    expect(await idsOf('?q=12')).toEqual([ids[3], ids[2]]);
    expect(await idsOf('?q=colosseo')).toEqual([ids[0]]);
    expect(await idsOf('?q=%25')).toEqual([ids[1]]);
    expect(await idsOf('?q=_')).toEqual([ids[2]]);
    expect(await idsOf('?q=rossi&stato=cancellata')).toEqual([ids[1]]);
    expect((await list('?stato=boh')).json().message).toBe('Stato non valido');
  });

  it('users: by id, paged, searched', async () => {
    await person(ctx, { nome: 'Giulia', cognome: 'Neri' });
    await person(ctx, { nome: 'Paolo', cognome: 'Neri' });
    await person(ctx, { nome: 'Sara', cognome: 'Blu' });
    const res = await call(ctx.app, admin, 'GET', '/api/admin/users?pageSize=2&page=2');
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.json().map((u: { nome: string }) => u.nome)).toEqual(['Paolo', 'Sara']);
    const neri = await call(ctx.app, admin, 'GET', '/api/admin/users?q=neri');
    expect(neri.headers['x-total-count']).toBe('2');
    expect(neri.json()[0]).toEqual(expect.objectContaining({ nome: 'Giulia', sigla: null, attiva: true }));
    expect(neri.json()[0]).not.toHaveProperty('passwordHash');
  });
});

describe('GET /api/admin/summary', () => {
  it('counts in SQL; Completate Oggi is today in TZ_APP', async () => {
    const inUse = await insertBike(db());
    const free = await insertBike(db());
    await insertBike(db(), { stato: 'manutenzione' });
    const [u1, u2, u3] = [await person(ctx), await person(ctx), await person(ctx)];
    // Now is 2026-11-21 10:00 in Rome.
    // Picked up at its start (decision 022: else it would be a no-show by now).
    const ride = await insertBooking(db(), {
      userId: u1.id,
      biciId: inUse,
      date: '2026-11-21',
      from: '09:30',
      to: '11:00',
      ritirataAt: new Date('2026-11-21T08:30:00Z'),
    });
    await insertBooking(db(), { userId: u2.id, biciId: free, date: TOMORROW, from: '09:30', to: '11:00' });
    await insertBooking(db(), { userId: u3.id, biciId: free, date: '2026-11-21', from: '07:00', to: '08:00', stato: 'completata' });
    // Ends at 00:30 in Rome = 23:30 UTC of the day before: today in TZ_APP.
    await insertBooking(db(), { userId: u3.id, biciId: free, date: '2026-11-21', from: '00:00', to: '00:30', stato: 'completata' });
    // Yesterday 23:30 in Rome: not today.
    await insertBooking(db(), { userId: u3.id, biciId: free, date: '2026-11-20', from: '22:00', to: '23:30', stato: 'completata' });
    await insertBooking(db(), { userId: u3.id, biciId: free, date: '2026-11-21', from: '12:00', to: '13:00', stato: 'cancellata' });
    const res = await call(ctx.app, admin, 'GET', '/api/admin/summary');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      biciInUsoOra: 1,
      prenotazioniAttive: 2,
      biciDisponibili: 1,
      biciTotali: 3,
      utentiTotali: 4,
      completateOggi: 2,
      bikesByStato: { disponibile: 1, prenotata: 1, manutenzione: 1, fuori_servizio: 0 },
      bookingsByStato: { attiva: 2, completata: 3, cancellata: 1 },
      ritardi: 0,
      danniAperti: 0,
    });
    // At 11:30 the ride is past its end, not returned: in ritardo, the bike still in use.
    ctx.clock.set(new Date('2026-11-21T10:30:00Z'));
    expect((await call(ctx.app, admin, 'GET', '/api/admin/summary')).json()).toMatchObject({ ritardi: 1, biciDisponibili: 1 });
    // Returned: completed today, the bike free again.
    expect((await call(ctx.app, u1, 'POST', `/api/prenotazioni/${ride}/riconsegna`)).statusCode).toBe(200);
    const later = (await call(ctx.app, admin, 'GET', '/api/admin/summary')).json();
    expect(later).toMatchObject({ biciInUsoOra: 0, completateOggi: 3, biciDisponibili: 2, prenotazioniAttive: 1 });
    // The next day, nothing of yesterday counts.
    ctx.clock.set(new Date('2026-11-21T23:30:00Z'));
    expect((await call(ctx.app, admin, 'GET', '/api/admin/summary')).json().completateOggi).toBe(0);
  });
});
