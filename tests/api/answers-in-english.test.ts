import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inLingua } from '../../src/shared/i18n/all.js';
import { closureText } from '../../src/shared/rules-text.js';
import { suspensionRefusal } from '../../src/server/modules/bookings/index.js';
import { suspensionReason } from '../../src/server/modules/rules/fair-use.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { call, person } from '../helpers/admin-fixtures.js';
import { createUser, loginAs } from '../helpers/factories.js';

/**
 * Issue 36: the server's refusals and messages in the reader's language — the account's
 * `lingua`, else the `lingua` cookie, else Accept-Language — and Italian exactly as before
 * for everybody else. TEST_NOW is Saturday 2026-11-21 10:00 in Rome.
 */
let ctx: TestContext;
let ipCounter = 0;
/** A client address of its own for each request, so per-client rate limits never interfere. */
const freshIp = () => `10.36.0.${++ipCounter}`;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.db;

const failedLogin = (headers: Record<string, string>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: 'nessuno@example.it', password: 'Sbagliata-2026' },
    headers,
    remoteAddress: freshIp(),
  });

const anonymous = (url: string, headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url, headers });

const setLingua = (id: number, lingua: 'it' | 'en') => db().execute(sql`update users set lingua = ${lingua} where id = ${id}`);

describe('by Accept-Language', () => {
  it('answers in English for a first preference of English, in Italian exactly as before otherwise', async () => {
    const english = await failedLogin({ 'accept-language': 'en-GB,en;q=0.9' });
    expect(english.statusCode).toBe(401);
    expect(english.json()).toEqual({ message: 'Wrong email or password' });

    const others: Record<string, string>[] = [{ 'accept-language': 'it-IT' }, {}, { 'accept-language': 'de, en;q=0.5' }];
    for (const headers of others) {
      const italian = await failedLogin(headers);
      expect(italian.statusCode).toBe(401);
      expect(italian.json()).toEqual({ message: 'Email o password non corretti' });
    }
  });

  it('the error handler, the not-found answer and a plain message follow it too', async () => {
    const en = { 'accept-language': 'en-GB,en;q=0.9' };
    expect((await anonymous('/api/current-user', en)).json()).toEqual({ message: 'Not signed in', code: 'UNAUTHENTICATED' });
    expect((await anonymous('/api/current-user', { 'accept-language': 'it-IT' })).json()).toEqual({
      message: 'Non autenticato',
      code: 'UNAUTHENTICATED',
    });

    expect((await anonymous('/api/non-esiste', en)).json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    expect((await anonymous('/api/non-esiste', {})).json()).toEqual({ message: 'Risorsa non trovata', code: 'NOT_FOUND' });

    const logout = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: en });
    expect(logout.json()).toEqual({ message: 'Signed out' });
    const logoutIt = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: { 'accept-language': 'de, en;q=0.5' } });
    expect(logoutIt.json()).toEqual({ message: 'Logout effettuato' });
  });
});

describe('by the lingua cookie', () => {
  it('wins over Accept-Language, either way', async () => {
    const english = await failedLogin({ 'accept-language': 'it-IT', cookie: 'lingua=en' });
    expect(english.json()).toEqual({ message: 'Wrong email or password' });

    const italian = await failedLogin({ 'accept-language': 'en-GB,en;q=0.9', cookie: 'lingua=it' });
    expect(italian.json()).toEqual({ message: 'Email o password non corretti' });

    // A value that names no language is not a choice: Accept-Language decides.
    const unknown = await failedLogin({ 'accept-language': 'en-GB,en;q=0.9', cookie: 'lingua=fr' });
    expect(unknown.json()).toEqual({ message: 'Wrong email or password' });
  });
});

describe('by the account', () => {
  it('a user whose language is English gets English even asking for Italian: a 400 with fields, message and fields alike', async () => {
    const user = await createUser(db());
    await setLingua(user.id, 'en');
    const cookie = await loginAs(ctx.app, user.email);
    const past = { dataPrenotazione: '2026-11-20', orarioInizio: '10:00', orarioFine: '12:00' };

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/biciclette/available',
      payload: past,
      headers: { cookie, 'accept-language': 'it' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'You cannot book for a past date',
      code: 'DATE_IN_PAST',
      fields: { dataPrenotazione: 'Date in the past' },
    });

    // The same refusal for an Italian account: exactly as before.
    const other = await createUser(db());
    const otherCookie = await loginAs(ctx.app, other.email);
    const italian = await ctx.app.inject({
      method: 'POST',
      url: '/api/biciclette/available',
      payload: past,
      headers: { cookie: otherCookie, 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(italian.statusCode).toBe(400);
    expect(italian.json()).toEqual({
      message: 'Non puoi prenotare per una data passata',
      code: 'DATE_IN_PAST',
      fields: { dataPrenotazione: 'Data passata' },
    });
  });

  it('an admin whose language is English: a 404, a 409 and a 400 with fields of the admin area in English', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    await setLingua(admin.id, 'en');
    const withItalian = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: { cookie: admin.cookie, 'accept-language': 'it' }, ...(payload ? { payload } : {}) });

    const missing = await withItalian('DELETE', '/api/admin/chiusure/9999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Closure not found', code: 'CLOSURE_NOT_FOUND' });

    const self = await withItalian('DELETE', `/api/admin/users/${admin.id}`);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ message: 'You cannot delete your own account', code: 'DELETE_SELF' });

    const over = await withItalian('POST', '/api/admin/chiusure', { dal: '2026-11-01', al: '2026-11-02', motivo: 'Ponte' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: 'The closure is already over', code: 'CLOSURE_IN_PAST', fields: { al: 'Date in the past' } });

    // Back to Italian: the same answers as before issue 36.
    await setLingua(admin.id, 'it');
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${admin.id}`,
      headers: { cookie: admin.cookie, 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(again.json()).toEqual({ message: 'Non puoi eliminare il tuo account', code: 'DELETE_SELF' });
  });
});

describe('a refusal put together from values (weekday, duration, plural)', () => {
  it('the hours of a day, the maximum duration and the horizon, in English and in Italian', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    const orari = [...Array.from({ length: 6 }, () => ({ apertura: '07:00', chiusura: '23:00' })), { apertura: '08:00', chiusura: '22:00' }];
    const saved = await call(ctx.app, admin, 'PUT', '/api/admin/regole', {
      orari,
      durataMassimaMinuti: 90,
      prenotazioniSettimanaliMax: null,
      preavvisoMinimoMinuti: null,
      orizzonteGiorni: 7,
      attesaPagamentoMinuti: 30,
      mancatoRitiroMinuti: 30,
      offertaMinuti: 15,
      sospensione: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    // The account's language: it wins over the cookie and Accept-Language of a logged-in request.
    const ask = async (payload: object, lingua: 'it' | 'en') => {
      await setLingua(user.id, lingua);
      return ctx.app.inject({
        method: 'POST',
        url: '/api/biciclette/available',
        payload: { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '11:00', ...payload },
        headers: { cookie },
      });
    };

    const early = { orarioInizio: '07:00', orarioFine: '08:30' };
    expect((await ask(early, 'en')).json()).toMatchObject({ message: 'On Sundays the service is open from 08:00 to 22:00', code: 'OUTSIDE_HOURS' });
    expect((await ask(early, 'it')).json()).toMatchObject({ message: 'La domenica il servizio è aperto dalle 08:00 alle 22:00' });

    const long = { orarioInizio: '10:00', orarioFine: '12:00' };
    expect((await ask(long, 'en')).json()).toMatchObject({ message: 'A booking can last at most 1 hour and 30 minutes', code: 'TOO_LONG' });
    expect((await ask(long, 'it')).json()).toMatchObject({ message: 'Una prenotazione può durare al massimo 1 ora e 30 minuti' });

    const far = { dataPrenotazione: '2026-11-30' };
    expect((await ask(far, 'en')).json()).toMatchObject({ message: 'You can book at most 7 days ahead', code: 'BEYOND_HORIZON' });
    expect((await ask(far, 'it')).json()).toMatchObject({ message: 'Puoi prenotare al massimo 7 giorni in anticipo' });
  });
});

describe('a refusal read back from its Italian words', () => {
  it('a closure, its reason as the admin wrote it', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    const created = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: '2026-11-25', al: '2026-11-25', motivo: 'Giornata di studio' });
    expect(created.statusCode, created.body).toBe(201);
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    const ask = async (lingua: 'it' | 'en') => {
      await setLingua(user.id, lingua);
      return ctx.app.inject({
        method: 'POST',
        url: '/api/biciclette/available',
        payload: { dataPrenotazione: '2026-11-25', orarioInizio: '10:00', orarioFine: '11:00' },
        headers: { cookie },
      });
    };
    expect((await ask('en')).json()).toEqual({
      message: 'The service is closed on 25/11/2026: Giornata di studio',
      code: 'CLOSED',
      fields: { dataPrenotazione: 'Service closed' },
    });
    expect((await ask('it')).json()).toEqual({
      message: 'Il servizio è chiuso il 25/11/2026: Giornata di studio',
      code: 'CLOSED',
      fields: { dataPrenotazione: 'Servizio chiuso' },
    });
  });
});

describe('too many attempts', () => {
  it('the 429 of the login counters says the minutes in the request’s language', async () => {
    const email = 'troppi.tentativi@example.it';
    const attempt = (headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Sbagliata-2026' }, headers, remoteAddress: freshIp() });
    for (let i = 0; i < 10; i += 1) expect((await attempt({})).statusCode).toBe(401);
    const english = await attempt({ 'accept-language': 'en-GB,en;q=0.9' });
    expect(english.statusCode).toBe(429);
    expect(english.json()).toEqual({ message: 'Too many attempts. Try again in 15 minutes.', code: 'RATE_LIMITED' });
    const italian = await attempt({ 'accept-language': 'it-IT' });
    expect(italian.json()).toEqual({ message: 'Troppi tentativi. Riprova tra 15 minuti.', code: 'RATE_LIMITED' });
  });
});

describe('the audit log', () => {
  it('names a bike in the reader’s language, a person as written', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    const created = await call(ctx.app, admin, 'POST', '/api/admin/biciclette', { numero: '36', modello: 'Graziella' });
    expect(created.statusCode, created.body).toBe(201);
    const subjects = async (lingua: 'it' | 'en') => {
      await setLingua(admin.id, lingua);
      const res = await call(ctx.app, admin, 'GET', '/api/admin/audit?azione=bike.create');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { soggetto: string | null; action: string }[]).filter((e) => e.action === 'bike.create').map((e) => e.soggetto);
    };
    expect(await subjects('en')).toContain('Bike 36');
    expect(await subjects('it')).toContain('Bici 36');
  });
});

describe('sentences other modules throw as keys', () => {
  it('a suspension and a closure of several days come out of their key and values in either language, Italian as written', () => {
    const rule = { soglia: 3, finestraGiorni: 30, giorni: 7 };
    const suspended = (soglia: number) => suspensionRefusal('2026-12-12T09:00:00.000Z', { ...rule, soglia }, 'Europe/Rome');
    expect(inLingua('it', suspended(3))).toBe('Non puoi prenotare fino al 12/12/2026 alle 10:00: 3 mancati ritiri in 30 giorni');
    expect(inLingua('en', suspended(3))).toBe('You cannot book until 12/12/2026 at 10:00: 3 missed pick-ups in 30 days');
    expect(inLingua('it', suspended(1))).toBe('Non puoi prenotare fino al 12/12/2026 alle 10:00: 1 mancato ritiro in 30 giorni');
    expect(inLingua('en', suspended(1))).toBe('You cannot book until 12/12/2026 at 10:00: 1 missed pick-up in 30 days');
    const closure = closureText({ dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' });
    expect(inLingua('it', closure)).toBe('Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia');
    expect(inLingua('en', closure)).toBe('The service is closed from 24/12/2026 to 06/01/2027: Chiusura natalizia');
    expect(suspensionReason(rule)).toBe('3 mancati ritiri in 30 giorni');
    expect(suspensionReason({ ...rule, soglia: 1 })).toBe('1 mancato ritiro in 30 giorni');
    expect(suspensionReason(rule, 'en')).toBe('3 no-shows in 30 days');
  });
});
