import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codiciCorsa, manutenzioni, prenotazioni } from '../../src/server/schema.js';
import { lifecycleJob } from '../../src/server/jobs/app-jobs.js';
import { SimulatedLockProvider } from '../../src/server/integrations/locks/index.js';
import { createLogger } from '../../src/server/logger.js';
import type { RulesUpdate } from '../../src/shared/schemas/rules.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';
import { scrape } from '../helpers/prometheus.js';

/**
 * `Prolunga` (issue 35): a ride in progress extended by 15, 30 or 60 minutes, on the same day.
 * TEST_NOW is Saturday 2026-11-21 10:00 in Rome; the usual ride is Sunday 2026-11-22
 * 10:00–12:00 Rome (09:00–11:00Z), picked up at 09:50 and looked at from 11:00 Rome (10:00Z).
 */
let ctx: TestContext;
const mailer = capturingMailer();
const locks = new SimulatedLockProvider();
const SUNDAY = '2026-11-22';
const OPEN = { apertura: '00:00', chiusura: '23:59' };
const RULES: RulesUpdate = {
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
let admin: Person;

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer, lockProvider: locks } });
});
afterAll(async () => {
  await ctx?.close();
});
beforeEach(async () => {
  await truncateAll(db());
  await db().execute(sql`truncate chiusure, manutenzioni restart identity cascade`);
  ctx.clock.set(TEST_NOW);
  mailer.sent.length = 0;
  admin = await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
  await setRules({});
});

const db = () => ctx.database.db;
const runJob = () => lifecycleJob({ database: ctx.database, clock: ctx.clock, mailer, config: ctx.config, log: createLogger('silent'), locks })();

async function setRules(change: Partial<RulesUpdate>) {
  const res = await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...RULES, ...change });
  expect(res.statusCode, res.body).toBe(200);
}
const book = (who: Person, biciId: number, from: string, to: string) =>
  call(ctx.app, who, 'POST', '/api/prenotazioni', { dataPrenotazione: SUNDAY, orarioInizio: from, orarioFine: to, biciId });
async function bookId(who: Person, biciId: number, from = '10:00', to = '12:00') {
  const res = await book(who, biciId, from, to);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const offered = async (who: Person, id: number) => {
  const res = await call(ctx.app, who, 'GET', `/api/prenotazioni/${id}/prolunga`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().minuti as number[];
};
const extend = (who: Person, id: number, body?: object) => call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/prolunga`, body);
const stored = async (id: number) => (await db().select().from(prenotazioni).where(eq(prenotazioni.id, id)))[0]!;

/** A ride of `who` (on a new bike unless said), booked at TEST_NOW, picked up at 09:50 Rome; the clock then at `now` (UTC). */
async function ride(who: Person, opts: { from?: string; to?: string; pickUpAt?: string; now?: string; bike?: number } = {}) {
  const bike = opts.bike ?? (await insertBike(db()));
  ctx.clock.set(TEST_NOW);
  const id = await bookId(who, bike, opts.from ?? '10:00', opts.to ?? '12:00');
  ctx.clock.set(opts.pickUpAt ?? '2026-11-22T08:50:00Z');
  const picked = await call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/ritiro`);
  expect(picked.statusCode, picked.body).toBe(200);
  ctx.clock.set(opts.now ?? '2026-11-22T10:00:00Z');
  return { id, bike };
}

describe('the lengths offered', () => {
  it('all three on an open day; +30 moves the end, the answer and the list, asks no payment, and is counted', async () => {
    const u = await person(ctx);
    const { id } = await ride(u);
    expect(await offered(u, id)).toEqual([15, 30, 60]);
    const extended = { event: 'extended' };
    const before = (await scrape(ctx.app)).value('bicielis_booking_events_total', extended);
    const res = await extend(u, id, { minuti: 30 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await scrape(ctx.app)).value('bicielis_booking_events_total', extended)).toBe(before + 1);
    expect(res.json()).toMatchObject({ id, orarioInizio: '10:00', orarioFine: '12:30', stato: 'attiva', fase: 'in_corso' });
    expect(await stored(id)).toMatchObject({ fine: new Date('2026-11-22T11:30:00Z'), orarioFine: '12:30', updatedAt: new Date('2026-11-22T10:00:00Z') });
    const list = (await call(ctx.app, u, 'GET', '/api/prenotazioni/user')).json() as { id: number; orarioFine: string }[];
    expect(list).toEqual([expect.objectContaining({ id, orarioFine: '12:30' })]);
    // Free for everybody: part of the same booking, no payment made.
    expect((await db().execute(sql`select count(*)::int as n from pagamenti`)).rows[0]).toEqual({ n: 0 });
  });

  it('the closing hour: up to it and no later; the end of the day: never past midnight', async () => {
    await setRules({ orari: Array.from({ length: 7 }, () => ({ apertura: '07:00', chiusura: '12:30' })) });
    const u = await person(ctx);
    const { id } = await ride(u);
    expect(await offered(u, id)).toEqual([15, 30]);
    const late = await extend(u, id, { minuti: 60 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'EXTEND_OUTSIDE_HOURS' });
    expect(late.json().message).toMatch(/12:30/);
    expect((await stored(id)).orarioFine).toBe('12:00');

    await setRules({});
    const night = await person(ctx);
    const evening = await ride(night, { from: '22:00', to: '23:30', pickUpAt: '2026-11-22T20:55:00Z', now: '2026-11-22T22:00:00Z' });
    expect(await offered(night, evening.id)).toEqual([15]);
    const past = await extend(night, evening.id, { minuti: 30 });
    expect(past.statusCode).toBe(409);
    expect(past.json()).toEqual({ message: 'Puoi prolungare solo entro la giornata della prenotazione', code: 'EXTEND_OUTSIDE_HOURS' });
    expect((await extend(night, evening.id, { minuti: 15 })).json()).toMatchObject({ orarioFine: '23:45' });
  });

  it('a closure of the day: nothing; a maintenance of the bike 20 minutes after the end: +15 only', async () => {
    const u = await person(ctx);
    const first = await ride(u);
    // Planned maintenance of the bike from 12:20 Rome, as the closures module stores it.
    await db().insert(manutenzioni).values({ biciId: first.bike, inizio: new Date('2026-11-22T11:20:00Z'), fine: new Date('2026-11-22T13:00:00Z'), motivo: 'Revisione' });
    expect(await offered(u, first.id)).toEqual([15]);
    const refused = await extend(u, first.id, { minuti: 30 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'La bici ha una manutenzione programmata subito dopo: non puoi prolungare di così tanto', code: 'EXTEND_UNAVAILABLE' });

    const closure = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: SUNDAY, al: SUNDAY, motivo: 'Allerta meteo' });
    expect(closure.statusCode, closure.body).toBe(201);
    expect(await offered(u, first.id)).toEqual([]);
    const closed = await extend(u, first.id, { minuti: 15 });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toEqual({ message: 'Il servizio è chiuso oggi: non puoi prolungare', code: 'EXTEND_CLOSED' });
    expect((await stored(first.id)).orarioFine).toBe('12:00');
  });

  it('the next booking on the bike 30 minutes after the end: +15 and +30 (up to its start), not +60', async () => {
    const u = await person(ctx);
    const { id, bike } = await ride(u);
    await bookId(await person(ctx), bike, '12:30', '13:30');
    expect(await offered(u, id)).toEqual([15, 30]);
    const refused = await extend(u, id, { minuti: 60 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'La bici è già prenotata subito dopo: non puoi prolungare di così tanto', code: 'EXTEND_UNAVAILABLE' });
    expect((await extend(u, id, { minuti: 30 })).json()).toMatchObject({ orarioFine: '12:30' });
    // Now it ends where the next one starts: nothing more.
    expect(await offered(u, id)).toEqual([]);
  });

  it('the longest booking: the whole booking within it; an admin’s own ride is not held to it', async () => {
    await setRules({ durataMassimaMinuti: 150 });
    const u = await person(ctx);
    const { id } = await ride(u);
    expect(await offered(u, id)).toEqual([15, 30]);
    const refused = await extend(u, id, { minuti: 60 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'Una prenotazione può durare al massimo 2 ore e 30 minuti', code: 'EXTEND_TOO_LONG' });
    const staff = await person(ctx, { ruolo: 'admin' });
    const own = await ride(staff);
    expect(await offered(staff, own.id)).toEqual([15, 30, 60]);
  });
});

describe('who and when', () => {
  it('anyone else’s booking is 404; not picked up, late, returned or cancelled is 409', async () => {
    const u = await person(ctx);
    const other = await person(ctx);
    const bike = await insertBike(db());
    const id = await bookId(u, bike);
    for (const who of [other, admin]) {
      expect((await call(ctx.app, who, 'GET', `/api/prenotazioni/${id}/prolunga`)).statusCode).toBe(404);
      expect((await extend(who, id, { minuti: 15 })).statusCode).toBe(404);
    }
    expect((await call(ctx.app, null, 'GET', `/api/prenotazioni/${id}/prolunga`)).statusCode).toBe(401);
    expect((await extend(u, id + 1000, { minuti: 15 })).statusCode).toBe(404);

    const notYet = await call(ctx.app, u, 'GET', `/api/prenotazioni/${id}/prolunga`);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json()).toEqual({ message: 'Non hai ancora ritirato la bicicletta', code: 'NOT_PICKED_UP' });

    ctx.clock.set('2026-11-22T08:50:00Z');
    expect((await call(ctx.app, u, 'POST', `/api/prenotazioni/${id}/ritiro`)).statusCode).toBe(200);
    ctx.clock.set('2026-11-22T11:00:00Z'); // the end: late from now
    const late = await extend(u, id, { minuti: 15 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: 'La prenotazione è già scaduta: riconsegna la bicicletta', code: 'RIDE_LATE' });
    expect((await call(ctx.app, u, 'GET', `/api/prenotazioni/${id}/prolunga`)).json().code).toBe('RIDE_LATE');

    expect((await call(ctx.app, u, 'POST', `/api/prenotazioni/${id}/riconsegna`)).statusCode).toBe(200);
    const returned = await extend(u, id, { minuti: 15 });
    expect(returned.statusCode).toBe(409);
    expect(returned.json()).toEqual({ message: 'La prenotazione non è attiva', code: 'NOT_ACTIVE' });

    ctx.clock.set(TEST_NOW);
    const cancelled = await bookId(u, bike, '15:00', '16:00');
    expect((await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${cancelled}`)).statusCode).toBe(200);
    expect((await extend(u, cancelled, { minuti: 15 })).json().code).toBe('NOT_ACTIVE');
    expect((await stored(id)).orarioFine).toBe('12:00');
  });

  it('a bad body: 400 in Italian, nothing changed', async () => {
    const u = await person(ctx);
    const { id } = await ride(u);
    const before = await stored(id);
    for (const body of [{ minuti: 20 }, { minuti: '15' }, { minuti: null }, {}, { minuti: 15.5 }]) {
      const res = await extend(u, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Scegli di quanto prolungare: 15, 30 o 60 minuti', code: 'VALIDATION_ERROR' });
    }
    const none = await extend(u, id);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/[a-zà-ù]/i);
    expect(await stored(id)).toEqual(before);
  });

  it('the POST checks again: a length offered, then taken by a booking, is refused and nothing changes', async () => {
    const u = await person(ctx);
    const { id, bike } = await ride(u);
    expect(await offered(u, id)).toEqual([15, 30, 60]);
    // Someone books the bike from 12:20 in the meantime.
    expect((await book(await person(ctx), bike, '12:20', '13:00')).statusCode).toBe(201);
    const refused = await extend(u, id, { minuti: 30 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('EXTEND_UNAVAILABLE');
    expect(await stored(id)).toMatchObject({ orarioFine: '12:00', fine: new Date('2026-11-22T11:00:00Z') });
    expect((await extend(u, id, { minuti: 15 })).statusCode).toBe(200);
  });
});

describe('what moves with the new end', () => {
  it('the end reminder goes again for the new end, and the ride is late only at the new end', async () => {
    const u = await person(ctx);
    const { id } = await ride(u);
    const subjects = () => mailer.sent.filter((m) => m.to === u.email).map((m) => m.subject);
    ctx.clock.set('2026-11-22T10:46:00Z'); // 11:46 Rome: 14 minutes left
    await runJob();
    expect(subjects()).toEqual(['Promemoria: riconsegna la bicicletta entro le 12:00']);
    expect((await extend(u, id, { minuti: 30 })).statusCode).toBe(200);
    expect((await stored(id)).promemoriaFineAt).toBeNull();

    ctx.clock.set('2026-11-22T11:00:00Z'); // the old end
    await runJob();
    expect(await stored(id)).toMatchObject({ ritardoAvvisatoAt: null, promemoriaFineAt: null, stato: 'attiva' });
    expect((await call(ctx.app, u, 'GET', '/api/prenotazioni/user')).json()[0]).toMatchObject({ fase: 'in_corso' });

    ctx.clock.set('2026-11-22T11:16:00Z'); // 12:16 Rome: 14 minutes before the new end
    await runJob();
    expect(subjects()).toEqual(['Promemoria: riconsegna la bicicletta entro le 12:00', 'Promemoria: riconsegna la bicicletta entro le 12:30']);

    ctx.clock.set('2026-11-22T11:30:00Z'); // the new end
    await runJob();
    expect(subjects().at(-1)).toBe('La bicicletta n. ' + (await call(ctx.app, u, 'GET', '/api/prenotazioni/user')).json()[0].biciNumero + ' è in ritardo');
    expect((await call(ctx.app, u, 'GET', '/api/prenotazioni/user')).json()[0]).toMatchObject({ fase: 'in_ritardo' });
  });

  it('a smart lock’s PIN and the iCal entry follow the new end', async () => {
    const u = await person(ctx);
    const bike = await insertBike(db());
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}/lucchetto`, { tipo: 'smart', idLucchetto: `TT-EXT-${process.pid}` })).statusCode).toBe(200);
    const { id } = await ride(u, { bike });
    await ctx.app.pins.settled();
    const pin = async () => (await db().select().from(codiciCorsa).where(eq(codiciCorsa.prenotazioneId, id)))[0]!;
    expect((await pin()).validoFino).toEqual(new Date('2026-11-22T11:15:00Z'));

    expect((await extend(u, id, { minuti: 60 })).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect((await pin()).validoFino).toEqual(new Date('2026-11-22T12:15:00Z'));
    expect(locks.pinsOn(`TT-EXT-${process.pid}`)[0]!.validUntil).toEqual(new Date('2026-11-22T12:15:00Z'));
    expect((await call(ctx.app, u, 'GET', `/api/prenotazioni/${id}/codice`)).json().validoFino).toBe('2026-11-22T12:15:00.000Z');

    const ics = await call(ctx.app, u, 'GET', `/api/prenotazioni/${id}/calendario.ics`);
    expect(ics.statusCode).toBe(200);
    expect(ics.body).toContain('DTEND;TZID=Europe/Rome:20261122T130000');
  });
});

describe('at the same moment', () => {
  it('extensions and bookings of the bike right after: each 200/201 or 409, never an overlap, the end the sum of the extensions', async () => {
    const windows = [
      ['12:00', '12:30'],
      ['12:15', '13:00'],
      ['12:30', '13:30'],
      ['12:45', '13:15'],
      ['13:00', '14:00'],
      ['12:10', '12:40'],
    ] as const;
    const lengths = [15, 30, 60, 15];
    // A few rounds, each a new ride on a new bike: the interleavings differ from round to round.
    for (let round = 0; round < 4; round += 1) {
      const u = await person(ctx);
      const { id, bike } = await ride(u);
      const others = await Promise.all(windows.map(() => person(ctx)));
      const answers = await Promise.all([
        ...lengths.map((minuti) => extend(u, id, { minuti })),
        ...others.map((o, i) => book(o, bike, windows[i]![0], windows[i]![1])),
      ]);
      for (const a of answers) expect([200, 201, 409], a.body).toContain(a.statusCode);
      for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().code).toMatch(/^(EXTEND_UNAVAILABLE|BIKE_UNAVAILABLE)$/);

      const overlaps = await db().execute<{ n: number }>(sql`
        select count(*)::int as n from prenotazioni a join prenotazioni b on a.bici_id = b.bici_id and a.id < b.id
         where a.stato in ('attiva', 'offerta') and b.stato in ('attiva', 'offerta')
           and tstzrange(a.inizio, a.fine, '[)') && tstzrange(b.inizio, b.fine, '[)')`);
      expect(overlaps.rows[0]!.n).toBe(0);
      const extendedBy = lengths.reduce((sum, m, i) => sum + (answers[i]!.statusCode === 200 ? m : 0), 0);
      expect((await stored(id)).fine).toEqual(new Date(new Date('2026-11-22T11:00:00Z').getTime() + extendedBy * 60_000));
    }
  });
});
