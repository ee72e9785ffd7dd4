import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase } from '../../src/server/db/client.js';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { biciclette, pagamenti, prenotazioni, simulatedRefunds, users } from '../../src/server/schema.js';
import { applyLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { USER_BOOKING_LOCK } from '../../src/server/modules/bookings/index.js';
import { loadRules, RULES_CHANNEL, RulesCache } from '../../src/server/modules/rules/store.js';
import type { RulesUpdate } from '../../src/shared/schemas/rules.js';
import { minuteJob } from '../helpers/minute-job.js';
import { createTestApp, TEST_NOW, testConfig, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { bookingOf, bookThroughApi, paymentOf, payThroughApi } from '../helpers/booking-fixtures.js';
import { ManualClock } from '../../src/server/clock.js';

/**
 * Issue 20: the service's rules set by the admins and enforced by the server. TEST_NOW is
 * Saturday 2026-11-21 10:00 in Rome; 2026-11-22 is a Sunday, 2026-11-23 a Monday.
 */
let ctx: TestContext;
let admin: Person;
const mailer = capturingMailer();
const SUNDAY = '2026-11-22';
const MONDAY = '2026-11-23';
const OPEN = { apertura: '00:00', chiusura: '23:59' };

const db = () => ctx.database.db;

/** The first start's rules, as ensureRulesRow makes them from the test configuration. */
const DEFAULTS: RulesUpdate = {
  orari: Array.from({ length: 7 }, () => OPEN),
  durataMassimaMinuti: null,
  prenotazioniSettimanaliMax: null,
  preavvisoMinimoMinuti: null,
  orizzonteGiorni: 30,
  attesaPagamentoMinuti: 30,
  mancatoRitiroMinuti: 30,
  offertaMinuti: 15,
  sospensione: null,
};

async function setRules(change: Partial<RulesUpdate>) {
  const res = await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...DEFAULTS, ...change });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const book = (who: Person, payload: object) =>
  call(ctx.app, who, 'POST', '/api/prenotazioni', { dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, ...payload });

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer } });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  mailer.sent.length = 0;
  await truncateAll(db());
  await db().execute(sql`truncate chiusure, manutenzioni restart identity cascade`);
  admin = await person(ctx, { ruolo: 'admin' });
  await setRules({});
});

describe('the rules screen', () => {
  it('starts from the environment, saves the whole set with an audit row, and refuses bad input in Italian, changing nothing', async () => {
    const first = (await call(ctx.app, admin, 'GET', '/api/admin/regole')).json();
    expect(first).toMatchObject({ ...DEFAULTS, updatedBy: admin.email });

    const hours = [...Array.from({ length: 5 }, () => ({ apertura: '07:00', chiusura: '23:00' })), { apertura: '08:00', chiusura: '22:00' }, null];
    const saved = await setRules({ orari: hours, durataMassimaMinuti: 180, sospensione: { soglia: 3, finestraGiorni: 30, giorni: 7 } });
    expect(saved).toMatchObject({ orari: hours, durataMassimaMinuti: 180, sospensione: { soglia: 3, finestraGiorni: 30, giorni: 7 } });
    const [audit] = await auditRows(db());
    expect(audit).toMatchObject({ action: 'rules.update', actorEmail: admin.email, after: { durataMassimaMinuti: 180 }, before: { durataMassimaMinuti: null } });

    for (const bad of [
      { orari: hours.slice(0, 6) },
      { orari: [{ apertura: '23:00', chiusura: '07:00' }, ...hours.slice(1)] },
      { durataMassimaMinuti: 0 },
      { orizzonteGiorni: 'trenta' },
    ]) {
      const res = await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...DEFAULTS, ...bad });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/[a-zà-ù]/);
      expect(res.body).not.toMatch(/invalid|expected|Error:/);
    }
    expect((await call(ctx.app, admin, 'GET', '/api/admin/regole')).json()).toMatchObject({ durataMassimaMinuti: 180 });
    expect(await call(ctx.app, await person(ctx), 'PUT', '/api/admin/regole', DEFAULTS)).toHaveProperty('statusCode', 403);
  });

  it('a change reaches a process that keeps the rules in memory at once (NOTIFY), and the next booking obeys it', async () => {
    const cache = new RulesCache();
    const listener = listenForChanges(ctx.database.url, { [RULES_CHANNEL]: cache }, pino({ level: 'silent' }));
    await listener.ready;
    try {
      expect((await cache.get(db())).durataMassimaMinuti).toBeNull();
      await setRules({ durataMassimaMinuti: 60 });
      await expect.poll(async () => (await cache.get(db())).durataMassimaMinuti, { timeout: 10_000 }).toBe(60);
    } finally {
      await listener.stop();
    }
  });
});

describe('opening hours, closures and the time zone', () => {
  it('refuses a window outside the day’s hours and a closed day, with the exact Italian message, and books inside them', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const user = await person(ctx);
    await setRules({ orari: [...Array.from({ length: 6 }, () => ({ apertura: '07:00', chiusura: '23:00' })), { apertura: '08:00', chiusura: '22:00' }] });
    const early = await book(user, { biciId: bike, orarioInizio: '07:00', orarioFine: '09:00' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ message: 'La domenica il servizio è aperto dalle 08:00 alle 22:00', code: 'OUTSIDE_HOURS' });
    const late = await call(ctx.app, user, 'POST', '/api/biciclette/available', { dataPrenotazione: SUNDAY, orarioInizio: '21:00', orarioFine: '22:30' });
    expect(late.statusCode).toBe(400);

    await setRules({ orari: [...DEFAULTS.orari.slice(0, 6), null] });
    expect((await book(user, { biciId: bike })).json()).toMatchObject({ message: 'La domenica il servizio è chiuso' });
    expect((await book(user, { biciId: bike, dataPrenotazione: MONDAY })).statusCode).toBe(201);
    expect(await db().select().from(prenotazioni)).toHaveLength(1);
  });

  it('a closure: the preview shows whose bookings it covers; confirmed, they are cancelled (chiusura), the paid one refunded once, each user emailed; then nothing can be booked inside it', async () => {
    const [b1, b2] = [await insertBike(db(), { numero: '01' }), await insertBike(db(), { numero: '02' })];
    const resident = await person(ctx, { nome: 'Giulia', cognome: 'Verdi' });
    const external = await person(ctx, { residente: false, nome: 'Paolo', cognome: 'Neri' });
    const free = await bookThroughApi(ctx.app, resident, b1, { dataPrenotazione: MONDAY });
    const paid = await bookThroughApi(ctx.app, external, b2, { dataPrenotazione: MONDAY });
    await payThroughApi(ctx.app, db(), external, paid);
    mailer.sent.length = 0;
    const closure = { dal: MONDAY, al: '2026-11-24', motivo: 'Lavori nel cortile' };

    const preview = await call(ctx.app, admin, 'POST', '/api/admin/chiusure/anteprima', closure);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      chiusura: null,
      cancellate: [
        { id: free, utente: 'Giulia Verdi', pagata: false },
        { id: paid, utente: 'Paolo Neri', pagata: true },
      ],
    });
    expect((await bookingOf(db(), free))?.stato).toBe('attiva');

    const created = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', closure);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ chiusura: { ...closure }, cancellate: [{ id: free }, { id: paid }] });
    for (const id of [free, paid]) expect(await bookingOf(db(), id)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'chiusura' });
    expect((await paymentOf(db(), paid))?.status).toBe('refunded');
    expect(await db().select().from(simulatedRefunds)).toHaveLength(1);
    expect(mailer.sent.map((m) => m.to).sort()).toEqual([resident.email, external.email].sort());
    expect(mailer.sent.find((m) => m.to === external.email)?.text).toMatch(/Lavori nel cortile[\s\S]*rimborsato/);
    expect((await auditRows(db()))[0]).toMatchObject({ action: 'closure.create', entity: 'closure' });

    const refused = await book(resident, { biciId: b1, dataPrenotazione: '2026-11-24' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Il servizio è chiuso dal 23/11/2026 al 24/11/2026: Lavori nel cortile');
    const dto = (await call(ctx.app, resident, 'GET', '/api/regole')).json();
    expect(dto.chiusure).toEqual([closure]);

    // Deleted: the days can be booked again; what was cancelled stays cancelled.
    const id = created.json().chiusura.id as number;
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/chiusure/${id}`)).statusCode).toBe(200);
    expect((await book(resident, { biciId: b1, dataPrenotazione: '2026-11-24' })).statusCode).toBe(201);
    expect((await bookingOf(db(), free))?.stato).toBe('cancellata');
  });

  it('says the issue’s sentence for a closure over the holidays', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    await setRules({ orizzonteGiorni: null });
    expect((await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' })).statusCode).toBe(201);
    const res = await book(await person(ctx), { biciId: bike, dataPrenotazione: '2026-12-31' });
    expect(res.json()).toMatchObject({ message: 'Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia', code: 'CLOSED' });
  });

  it('says the refusals in English to a person who reads English (issue 36)', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    await setRules({ orizzonteGiorni: null, durataMassimaMinuti: 120 });
    expect((await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' })).statusCode).toBe(201);
    const reader = await person(ctx);
    await db().update(users).set({ lingua: 'en' }).where(eq(users.id, reader.id));
    expect((await book(reader, { biciId: bike, dataPrenotazione: '2026-12-31' })).json()).toMatchObject({
      message: 'The service is closed from 24/12/2026 to 06/01/2027: Chiusura natalizia',
      code: 'CLOSED',
    });
    expect((await book(reader, { biciId: bike, dataPrenotazione: '2027-01-12', orarioInizio: '09:00', orarioFine: '12:30' })).json()).toMatchObject({
      message: 'A booking can last at most 2 hours',
      code: 'TOO_LONG',
    });
    const invalid = await book(reader, { biciId: bike, dataPrenotazione: '2027-01-12', orarioInizio: '9', orarioFine: '12:00' });
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { orarioInizio: 'Invalid start time: use the format HH:mm' } });
  });

  it('on the night the clocks go forward, the maximum duration counts real time, and a time that does not exist is refused', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const user = await person(ctx);
    await setRules({ orizzonteGiorni: null, durataMassimaMinuti: 120 });
    const DST = '2027-03-28'; // Rome: 02:00 → 03:00
    const tooLong = await book(user, { biciId: bike, dataPrenotazione: DST, orarioInizio: '01:00', orarioFine: '04:30' });
    expect(tooLong.json()).toMatchObject({ message: 'Una prenotazione può durare al massimo 2 ore', code: 'TOO_LONG' });
    expect((await book(user, { biciId: bike, dataPrenotazione: DST, orarioInizio: '02:30', orarioFine: '04:00' })).json()).toMatchObject({
      code: 'NONEXISTENT_TIME',
    });
    // 01:00–04:00 on that night is two hours of real time.
    const ok = await book(user, { biciId: bike, dataPrenotazione: DST, orarioInizio: '01:00', orarioFine: '04:00' });
    expect(ok.statusCode, ok.body).toBe(201);
    const [row] = await db().select().from(prenotazioni);
    expect(row!.fine.getTime() - row!.inizio.getTime()).toBe(2 * 3_600_000);
  });
});

describe('fair-use limits', () => {
  it('the maximum duration, the minimum notice and the horizon refuse in Italian; switched off, they do not', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const user = await person(ctx);
    await setRules({ durataMassimaMinuti: 90, preavvisoMinimoMinuti: 120, orizzonteGiorni: 7 });
    expect((await book(user, { biciId: bike })).json()).toMatchObject({ message: 'Una prenotazione può durare al massimo 1 ora e 30 minuti' });
    const soon = await book(user, { biciId: bike, dataPrenotazione: '2026-11-21', orarioInizio: '11:00', orarioFine: '12:00' });
    expect(soon.json()).toMatchObject({ message: "Prenota almeno 2 ore prima dell'inizio", code: 'TOO_SHORT_NOTICE' });
    expect((await book(user, { biciId: bike, dataPrenotazione: '2026-11-29', orarioFine: '11:00' })).json()).toMatchObject({ code: 'BEYOND_HORIZON' });
    await setRules({ orizzonteGiorni: null });
    expect((await book(user, { biciId: bike, dataPrenotazione: '2027-05-01' })).statusCode).toBe(201);
  });

  it('the weekly limit counts the bookings of any 7 days, no-shows included, cancellations not', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const user = await person(ctx);
    await setRules({ prenotazioniSettimanaliMax: 2 });
    await insertBooking(db(), { userId: user.id, biciId: bike, date: '2026-11-17', from: '10:00', to: '11:00', stato: 'completata' });
    await insertBooking(db(), { userId: user.id, biciId: bike, date: '2026-11-18', from: '10:00', to: '11:00', stato: 'cancellata' });
    expect((await book(user, { biciId: bike })).statusCode).toBe(201);
    await db().update(prenotazioni).set({ stato: 'completata' }).where(eq(prenotazioni.stato, 'attiva'));
    const third = await book(user, { biciId: bike, dataPrenotazione: MONDAY });
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({ message: 'Puoi fare al massimo 2 prenotazioni in 7 giorni', code: 'WEEKLY_LIMIT' });
    // 11-23 shares 11-17…11-23 with both; 11-24 shares no 7 days with 11-17: booked.
    expect((await book(user, { biciId: bike, dataPrenotazione: '2026-11-24' })).statusCode).toBe(201);
  });

  it('two processes booking for one user at once, five times: one booking each time, the other refused', async () => {
    const [b1, b2] = [await insertBike(db(), { numero: '01' }), await insertBike(db(), { numero: '02' })];
    await setRules({ prenotazioniSettimanaliMax: 2 });
    const second = connectDatabase(ctx.database.url, { max: 4 });
    const other = await buildApp({ config: testConfig(), database: second, clock: new ManualClock(TEST_NOW), logger: false, mailer });
    try {
      for (let round = 0; round < 5; round++) {
        await db().execute(sql`truncate prenotazioni, pagamenti restart identity cascade`);
        const user = await person(ctx);
        await insertBooking(db(), { userId: user.id, biciId: b1, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'completata' });
        const [x, y] = await Promise.all([
          book(user, { biciId: b1 }),
          other.inject({
            method: 'POST',
            url: '/api/prenotazioni',
            headers: { cookie: user.cookie },
            payload: { dataPrenotazione: MONDAY, orarioInizio: '10:00', orarioFine: '12:00', biciId: b2 },
          }),
        ]);
        const codes = [x.statusCode, y.statusCode].sort();
        expect(codes).toEqual([201, 409]);
        // Refused early (the other's booking already committed) or by the weekly count made
        // after the other's commit: never let through.
        const loser = x.statusCode === 409 ? x : y;
        expect(['WEEKLY_LIMIT', 'ALREADY_ACTIVE']).toContain(loser.json().code);
        expect(await db().select().from(prenotazioni).where(eq(prenotazioni.stato, 'attiva'))).toHaveLength(1);
      }
    } finally {
      await other.close();
      await second.close();
    }
  });

  it('the weekly count waits for the user’s other booking in flight: it is counted after that one commits', async () => {
    // A raw connection plays another process's booking of this user that has taken the
    // user's lock and not committed yet (a completed one, so the one-active index is not
    // what decides). The request must wait for it and count it: without the lock it would
    // count one booking and answer 201.
    const bike = await insertBike(db(), { numero: '01' });
    await setRules({ prenotazioniSettimanaliMax: 2 });
    const user = await person(ctx);
    await insertBooking(db(), { userId: user.id, biciId: bike, date: '2026-11-19', from: '10:00', to: '11:00', stato: 'completata' });
    const raw = new pg.Client({ connectionString: ctx.database.url });
    await raw.connect();
    try {
      await raw.query('begin');
      await raw.query('select pg_advisory_xact_lock($1, $2)', [USER_BOOKING_LOCK, user.id]);
      await raw.query(
        `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
         values ($1, $2, '2026-11-20', '10:00', '11:00', '2026-11-20T09:00:00Z', '2026-11-20T10:00:00Z', 'completata')`,
        [user.id, bike],
      );
      let answered = false;
      const pending = book(user, { biciId: bike }).finally(() => {
        answered = true;
      });
      // The request is waiting on the lock (seen from PostgreSQL), not answered.
      await expect
        .poll(async () => (await db().execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)).rows[0]!.n, {
          timeout: 10_000,
        })
        .toBe(1);
      expect(answered).toBe(false);
      await raw.query('commit');
      const res = await pending;
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('WEEKLY_LIMIT');
    } finally {
      await raw.end();
    }
  });
});

describe('no-show suspension', () => {
  it('after N no-shows in D days the user cannot book for S days; the dashboard and the admin list say until when; an admin lifts it, audited', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const user = await person(ctx);
    await setRules({ sospensione: { soglia: 2, finestraGiorni: 30, giorni: 7 } });
    await insertBooking(db(), { userId: user.id, biciId: bike, date: '2026-11-10', from: '10:00', to: '11:00', stato: 'cancellata' });
    await insertBooking(db(), { userId: user.id, biciId: bike, date: '2026-11-19', from: '10:00', to: '11:00', stato: 'cancellata' });
    await db().update(prenotazioni).set({ motivoCancellazione: 'mancato_ritiro' });

    // Rome 2026-11-19 10:00 + 7 days = 2026-11-26 10:00 (09:00Z).
    const until = '2026-11-26T09:00:00.000Z';
    const refused = await book(user, { biciId: bike });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: 'Non puoi prenotare fino al 26/11/2026 alle 10:00: 2 mancati ritiri in 30 giorni',
      code: 'SUSPENDED',
    });
    expect((await call(ctx.app, user, 'GET', '/api/regole')).json().sospensione).toEqual({ fino: until, motivo: '2 mancati ritiri in 30 giorni' });
    const listed = (await call(ctx.app, admin, 'GET', `/api/admin/users?q=${encodeURIComponent(user.email)}`)).json();
    expect(listed[0]).toMatchObject({ id: user.id, sospesoFino: until });

    // An admin's desk booking overrides it, and says so in the audit log.
    const desk = await call(ctx.app, admin, 'POST', '/api/admin/prenotazioni', {
      userId: user.id, dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, biciId: bike,
    });
    expect(desk.statusCode, desk.body).toBe(201);
    expect((await auditRows(db()))[0]).toMatchObject({ action: 'booking.create_for_user', after: { override: { sospensioneIgnorataFino: until } } });
    await db().update(prenotazioni).set({ stato: 'cancellata', motivoCancellazione: 'admin' }).where(eq(prenotazioni.id, desk.json().id));

    const lift = await call(ctx.app, admin, 'POST', `/api/admin/users/${user.id}/revoca-sospensione`);
    expect(lift.statusCode).toBe(200);
    expect(lift.json()).toMatchObject({ id: user.id, sospesoFino: null });
    expect((await auditRows(db()))[0]).toMatchObject({ action: 'suspension.lift', entityId: String(user.id), before: { sospesoFino: until } });
    expect((await call(ctx.app, user, 'GET', '/api/regole')).json().sospensione).toBeNull();
    expect((await book(user, { biciId: bike })).statusCode).toBe(201);

    // Past S days a suspension ends by itself.
    await setRules({ sospensione: { soglia: 1, finestraGiorni: 30, giorni: 1 } });
    expect((await call(ctx.app, user, 'GET', '/api/regole')).json().sospensione).toBeNull();
  });
});

describe('planned bike maintenance', () => {
  it('moves the bookings inside the period to another free bike for the same window, emails the users, and shows the bike in maintenance only inside the period', async () => {
    const a = await insertBike(db(), { numero: '07', modello: 'City Bike' });
    const b = await insertBike(db(), { numero: '08', modello: 'City Bike' });
    const user = await person(ctx, { nome: 'Anna' });
    const booking = await bookThroughApi(ctx.app, user, a, { dataPrenotazione: MONDAY });
    mailer.sent.length = 0;
    const period = { dal: `${MONDAY}T08:00`, al: `${MONDAY}T18:00`, motivo: 'Revisione freni' };

    const preview = (await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${a}/manutenzioni/anteprima`, period)).json();
    expect(preview).toMatchObject({ manutenzione: null, spostate: [{ id: booking, biciNumero: '07', nuovaBiciNumero: '08' }], cancellate: [] });
    expect((await bookingOf(db(), booking))?.biciId).toBe(a);

    const res = await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${a}/manutenzioni`, period);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ manutenzione: { biciNumero: '07', dal: period.dal, al: period.al, inCorso: false }, spostate: [{ id: booking }] });
    expect(await bookingOf(db(), booking)).toMatchObject({ biciId: b, stato: 'attiva' });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]!.text).toContain('La tua prenotazione è stata spostata sulla bici n. 08');

    // Inside the period bike 07 is offered to nobody; before it, it is.
    const avail = async (w: object) =>
      (await call(ctx.app, user, 'POST', '/api/biciclette/available', { dataPrenotazione: MONDAY, ...w })).json().map((x: { numero: string }) => x.numero);
    expect(await avail({ orarioInizio: '17:00', orarioFine: '19:00' })).not.toContain('07');
    expect(await avail({ orarioInizio: '06:00', orarioFine: '08:00' })).toContain('07');
    expect((await book(await person(ctx), { biciId: a, dataPrenotazione: MONDAY, orarioInizio: '12:00', orarioFine: '13:00' })).statusCode).toBe(409);

    // At the start the bike shows manutenzione, at the end disponibile.
    await applyLifecycle(db(), new Date('2026-11-23T07:30:00Z'), 30);
    expect((await db().select().from(biciclette).where(eq(biciclette.id, a)))[0]).toMatchObject({ stato: 'manutenzione', statoAuto: true });
    await applyLifecycle(db(), new Date('2026-11-23T17:01:00Z'), 30);
    expect((await db().select().from(biciclette).where(eq(biciclette.id, a)))[0]).toMatchObject({ stato: 'disponibile', statoAuto: false });

    // Two periods of one bike never overlap.
    const overlapping = { ...period, dal: `${MONDAY}T17:00`, al: `${MONDAY}T20:00` };
    expect((await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${a}/manutenzioni/anteprima`, overlapping)).json()).toMatchObject({
      code: 'MAINTENANCE_OVERLAP',
    });
    const again = await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${a}/manutenzioni`, overlapping);
    expect(again.statusCode).toBe(409);
    expect((await auditRows(db()))[0]).toMatchObject({ action: 'maintenance.create' });
  });

  it('with no other bike free, the booking is cancelled, the paid one refunded once, the user emailed', async () => {
    const a = await insertBike(db(), { numero: '07' });
    const external = await person(ctx, { residente: false });
    const booking = await bookThroughApi(ctx.app, external, a, { dataPrenotazione: MONDAY });
    await payThroughApi(ctx.app, db(), external, booking);
    mailer.sent.length = 0;
    const period = { dal: `${MONDAY}T00:00`, al: `${MONDAY}T23:59`, motivo: 'Cambio catena' };

    const preview = (await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${a}/manutenzioni/anteprima`, period)).json();
    expect(preview).toMatchObject({ spostate: [], cancellate: [{ id: booking, pagata: true, nuovaBiciNumero: null }] });
    expect((await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${a}/manutenzioni`, period)).statusCode).toBe(201);
    expect(await bookingOf(db(), booking)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'manutenzione' });
    expect((await paymentOf(db(), booking))?.status).toBe('refunded');
    expect(await db().select().from(simulatedRefunds)).toHaveLength(1);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]!.text).toMatch(/annullata[\s\S]*rimborsato/);

    const list = (await call(ctx.app, admin, 'GET', '/api/admin/manutenzioni')).json();
    expect(list).toMatchObject([{ biciNumero: '07', motivo: 'Cambio catena' }]);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/manutenzioni/${list[0].id}`)).statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/manutenzioni')).json()).toEqual([]);
  });
});

describe('booking on behalf of a user (reception desk)', () => {
  it('for a resident beyond the limits: booked, audited, emailed; the invariants and the hours still hold', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const resident = await person(ctx, { nome: 'Marta' });
    await setRules({ durataMassimaMinuti: 60, orari: [...DEFAULTS.orari.slice(0, 6), { apertura: '08:00', chiusura: '20:00' }] });
    const payload = { userId: resident.id, dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '14:00', destinazione: 'Ostiense', biciId: bike };
    const res = await call(ctx.app, admin, 'POST', '/api/admin/prenotazioni', payload);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ biciNumero: '01', paymentStatus: null, stato: 'attiva' });
    expect((await bookingOf(db(), res.json().id))?.userId).toBe(resident.id);
    expect(mailer.sent.at(-1)).toMatchObject({ to: resident.email });
    expect(mailer.sent.at(-1)!.text).toContain('la reception ha prenotato per te la bici n. 01');

    // One active booking per user, the hours: still enforced for the desk.
    expect((await call(ctx.app, admin, 'POST', '/api/admin/prenotazioni', { ...payload, dataPrenotazione: MONDAY })).json()).toEqual({
      message: "L'utente ha già una prenotazione attiva",
      code: 'ALREADY_ACTIVE',
    });
    const other = await person(ctx);
    expect((await call(ctx.app, admin, 'POST', '/api/admin/prenotazioni', { ...payload, userId: other.id, orarioInizio: '19:00', orarioFine: '21:00' })).json()).toMatchObject({
      code: 'OUTSIDE_HOURS',
    });
    expect((await call(ctx.app, other, 'POST', '/api/admin/prenotazioni', payload)).statusCode).toBe(403);
  });

  it('for an external: pending with the usual hold, and the email holds the payment link', async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const external = await person(ctx, { residente: false });
    const res = await call(ctx.app, admin, 'POST', '/api/admin/prenotazioni', {
      userId: external.id, dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, biciId: bike,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().paymentStatus).toBe('pending');
    expect(mailer.sent.at(-1)!.text).toContain(`http://localhost:3000/payment/${res.json().id}`);
    expect(mailer.sent.at(-1)!.text).toContain('entro 30 minuti');
    // The hold runs as for any booking: 31 minutes later it is released.
    ctx.clock.set(new Date(TEST_NOW.getTime() + 31 * 60_000));
    await call(ctx.app, external, 'GET', '/api/prenotazioni/user');
    await minuteJob(ctx);
    expect(await bookingOf(db(), res.json().id)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'pagamento_scaduto' });
    expect((await db().select().from(pagamenti))[0]?.status).toBe('failed');
  });
});

it('the rules are read from the database by the transaction that books (loadRules)', async () => {
  await setRules({ durataMassimaMinuti: 45 });
  expect((await loadRules(db())).durataMassimaMinuti).toBe(45);
});

it('without its row (deleted by hand) the rules are the documented defaults, and booking goes on', async () => {
  await db().execute(sql`delete from regole`);
  try {
    expect(await loadRules(db())).toMatchObject({ ...DEFAULTS, chiusure: [] });
    const bike = await insertBike(db(), { numero: '01' });
    expect((await book(await person(ctx), { biciId: bike })).statusCode).toBe(201);
  } finally {
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    await db().execute(sql`insert into regole (id, orari) values (1, ${JSON.stringify(DEFAULTS.orari)}::jsonb) on conflict do nothing`);
  }
});
