import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createUser, loginAs } from '../helpers/factories.js';

/**
 * Issue 36: a booking's refusals in the reader's language. Italian exactly as before without a
 * word from the browser; English for an account set to English (even when the browser asks for
 * Italian); the browser's Accept-Language where no account is known. TEST_NOW is Saturday
 * 2026-11-21 10:00 in Rome; 2026-11-22 is a Sunday.
 */
let ctx: TestContext;
let admin: Person;
let bike: number;
const mailer = capturingMailer();
const SUNDAY = '2026-11-22';
const WINDOW = { dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00' };
const CLOSED_DAY = '2026-12-31';
const db = () => ctx.database.db;

const IT = {
  closed: 'Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia',
  bikeUnavailable: 'La bicicletta non è disponibile nella fascia oraria scelta',
  bikeFree: "C'è una bici libera in questa fascia oraria: prenotala subito",
  noPayment: 'Le prenotazioni dei residenti sono gratuite: non c’è nulla da pagare',
  weeklyLimit: 'Puoi fare al massimo 1 prenotazione in 7 giorni',
};
const EN = {
  closed: 'The service is closed from 24/12/2026 to 06/01/2027: Chiusura natalizia',
  bikeUnavailable: 'The bike is not available in the chosen time slot',
  bikeFree: 'There is a free bike in this time slot: book it now',
  noPayment: 'Residents’ bookings are free: there is nothing to pay',
  weeklyLimit: 'You can make at most 1 booking in 7 days',
};

/** A request as a browser sends it: the session's cookie, and Accept-Language when given. */
const send = (cookie: string | null, method: 'GET' | 'POST', url: string, payload?: object, acceptLanguage?: string) =>
  ctx.app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
    ...(payload ? { payload } : {}),
  });

/** The four refusals of the booking, in the order a person would meet them. */
async function refusals(cookie: string, acceptLanguage?: string) {
  const closed = await send(cookie, 'POST', '/api/prenotazioni', { ...WINDOW, dataPrenotazione: CLOSED_DAY, destinazione: null, biciId: bike }, acceptLanguage);
  // The bike is someone else's from 10:00 to 12:00 (beforeEach).
  const taken = await send(cookie, 'POST', '/api/prenotazioni', { ...WINDOW, destinazione: null, biciId: bike }, acceptLanguage);
  // From 14:00 to 15:00 the bike is free: no waitlist for it.
  const waitlist = await send(cookie, 'POST', '/api/attese', { ...WINDOW, orarioInizio: '14:00', orarioFine: '15:00', destinazione: null }, acceptLanguage);
  const booked = await send(cookie, 'POST', '/api/prenotazioni', { ...WINDOW, orarioInizio: '14:00', orarioFine: '15:00', destinazione: null, biciId: bike }, acceptLanguage);
  expect(booked.statusCode, booked.body).toBe(201);
  const payment = await send(cookie, 'POST', '/api/create-payment-intent', { bookingId: booked.json().id as number }, acceptLanguage);
  return { closed, taken, waitlist, payment };
}

async function expectRefusals(r: Awaited<ReturnType<typeof refusals>>, texts: typeof IT) {
  expect(r.closed.statusCode, r.closed.body).toBe(400);
  expect(r.closed.json()).toMatchObject({ message: texts.closed, code: 'CLOSED' });
  expect(r.taken.statusCode, r.taken.body).toBe(409);
  expect(r.taken.json()).toEqual({ message: texts.bikeUnavailable, code: 'BIKE_UNAVAILABLE' });
  expect(r.waitlist.statusCode, r.waitlist.body).toBe(409);
  expect(r.waitlist.json()).toEqual({ message: texts.bikeFree, code: 'BIKE_FREE' });
  expect(r.payment.statusCode, r.payment.body).toBe(400);
  expect(r.payment.json()).toEqual({ message: texts.noPayment, code: 'NO_PAYMENT_REQUIRED' });
}

/** A resident who logs in with a password, the account's language set as the issue says: in SQL. */
async function loggedIn(lingua: 'it' | 'en'): Promise<{ id: number; cookie: string }> {
  const user = await createUser(db(), { isResidente: true });
  await db().execute(sql`update users set lingua = ${lingua} where id = ${user.id}`);
  return { id: user.id, cookie: await loginAs(ctx.app, user.email, user.password) };
}

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
  await db().execute(sql`truncate attese, chiusure, manutenzioni, stats_delta, stats_giornaliere restart identity cascade`);
  await db().execute(sql`update regole set orizzonte_giorni = null, prenotazioni_settimanali_max = null, sospensione_soglia = null,
                                           sospensione_finestra_giorni = null, sospensione_giorni = null`);
  admin = await person(ctx, { ruolo: 'admin' });
  const closure = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' });
  expect(closure.statusCode, closure.body).toBe(201);
  bike = await insertBike(db(), { numero: '01' });
  const holder = await person(ctx);
  const held = await call(ctx.app, holder, 'POST', '/api/prenotazioni', { ...WINDOW, destinazione: null, biciId: bike });
  expect(held.statusCode, held.body).toBe(201);
});

describe('by Accept-Language', () => {
  it('without a word from the browser: Italian, exactly as before', async () => {
    const { cookie } = await person(ctx);
    await expectRefusals(await refusals(cookie), IT);
  });

  it('en-GB where no account is known: English (the rack’s and the calendar’s links); none: Italian', async () => {
    const rack = (acceptLanguage?: string) => send(null, 'GET', `/api/rastrelliera/${'x'.repeat(43)}`, undefined, acceptLanguage);
    expect((await rack('en-GB')).json()).toEqual({ message: 'Invalid link', code: 'RACK_LINK_INVALID' });
    expect((await rack()).json()).toEqual({ message: 'Link non valido', code: 'RACK_LINK_INVALID' });
    const feed = (acceptLanguage?: string) => send(null, 'GET', `/api/calendario/${'a'.repeat(43)}`, undefined, acceptLanguage);
    expect((await feed('en-GB,en;q=0.9')).json()).toEqual({
      message: 'Calendar not found: the link is invalid or has been revoked',
      code: 'CALENDAR_NOT_FOUND',
    });
    expect((await feed()).json()).toEqual({ message: 'Calendario non trovato: il link non è valido o è stato revocato', code: 'CALENDAR_NOT_FOUND' });
  });

  it('en-GB from a logged-in person: the account’s language wins (Italian here)', async () => {
    const { cookie } = await loggedIn('it');
    await expectRefusals(await refusals(cookie, 'en-GB'), IT);
  });
});

describe('by the account’s language', () => {
  it('an account set to English, logged in, the browser asking for Italian: English', async () => {
    const { cookie } = await loggedIn('en');
    await expectRefusals(await refusals(cookie, 'it'), EN);
  });

  it('a problem with the bike at the pick-up: the refusal with a time and the answer’s sentence in English', async () => {
    const TODAY = '2026-11-21';
    const broken = await insertBike(db(), { numero: '03' });
    const early = await loggedIn('en');
    const later = await insertBooking(db(), { userId: early.id, biciId: broken, date: TODAY, from: '12:30', to: '13:00' });
    const report = (cookie: string, id: number) =>
      send(cookie, 'POST', `/api/prenotazioni/${id}/problema`, { categoria: 'catena', descrizione: 'La catena è rotta' }, 'it');
    expect((await report(early.cookie, later)).json()).toEqual({ message: 'You can report a problem from 12:20', code: 'TOO_EARLY' });

    const now = await loggedIn('en');
    const ride = await insertBooking(db(), { userId: now.id, biciId: broken, date: TODAY, from: '10:05', to: '11:00' });
    const moved = await report(now.cookie, ride);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ esito: 'spostata', nuovaBiciNumero: '01', messaggio: 'Thank you for reporting it. Your bike is now no. 01: take that one.' });
  });

  it('a suspension after a no-show, in either language, at booking and at joining a waitlist', async () => {
    await db().execute(sql`update regole set sospensione_soglia = 1, sospensione_finestra_giorni = 30, sospensione_giorni = 7`);
    const texts = {
      it: 'Non puoi prenotare fino al 27/11/2026 alle 10:00: 1 mancato ritiro in 30 giorni',
      en: 'You cannot book until 27/11/2026 at 10:00: 1 missed pick-up in 30 days',
    };
    for (const lingua of ['it', 'en'] as const) {
      const who = await loggedIn(lingua);
      const missed = await insertBooking(db(), { userId: who.id, biciId: bike, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'cancellata' });
      await db().execute(sql`update prenotazioni set motivo_cancellazione = 'mancato_ritiro' where id = ${missed}`);
      const booking = await send(who.cookie, 'POST', '/api/prenotazioni', { ...WINDOW, orarioInizio: '14:00', orarioFine: '15:00', destinazione: null, biciId: bike }, 'it');
      expect(booking.statusCode, booking.body).toBe(403);
      expect(booking.json()).toEqual({ message: texts[lingua], code: 'SUSPENDED' });
      const wait = await send(who.cookie, 'POST', '/api/attese', { ...WINDOW, destinazione: null }, 'en-GB');
      expect(wait.json()).toEqual({ message: texts[lingua], code: 'SUSPENDED' });
    }
  });

  it('a refusal with a count (the weekly limit), in either language', async () => {
    await db().execute(sql`update regole set prenotazioni_settimanali_max = 1`);
    const other = await insertBike(db(), { numero: '02' });
    for (const [lingua, text] of [['it', IT.weeklyLimit], ['en', EN.weeklyLimit]] as const) {
      const who = await loggedIn(lingua);
      await insertBooking(db(), { userId: who.id, biciId: other, date: '2026-11-23', from: '08:00', to: '09:00', stato: 'completata' });
      const res = await send(who.cookie, 'POST', '/api/prenotazioni', { ...WINDOW, orarioInizio: '14:00', orarioFine: '15:00', destinazione: null, biciId: other }, 'it');
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ message: text, code: 'WEEKLY_LIMIT' });
    }
  });
});
