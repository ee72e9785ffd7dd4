import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pgErrorCode } from '../../src/server/db/client.js';
import { applyLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { runOfferPass } from '../../src/server/modules/waitlist/offers.js';
import type { WaitDto } from '../../src/shared/schemas/waitlist.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { payThroughApi } from '../helpers/booking-fixtures.js';

/**
 * Issue 21: the waitlist. TEST_NOW is Saturday 2026-11-21 10:00 in Rome; the window waited
 * for is Sunday 2026-11-22 10:00–12:00 unless a test says otherwise.
 */
let ctx: TestContext;
let admin: Person;
const mailer = capturingMailer();
const SUNDAY = '2026-11-22';
const WINDOW = { dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00' };
const db = () => ctx.database.db;

const join = (who: Person, window: object = {}) => call(ctx.app, who, 'POST', '/api/attese', { ...WINDOW, destinazione: 'Palestra', ...window });
const waits = async (who: Person) => {
  // The offers a change leads to are made after its commit (decision 035).
  await ctx.app.freedTime.settled();
  const res = await call(ctx.app, who, 'GET', '/api/attese');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WaitDto[];
};
const book = (who: Person, biciId: number, window: object = {}) =>
  call(ctx.app, who, 'POST', '/api/prenotazioni', { ...WINDOW, destinazione: null, biciId, ...window });
const minutes = (n: number) => n * 60_000;

/** One bike, taken for the window by `holder`'s booking (through the API). */
async function fullFleet(): Promise<{ bike: number; holder: Person; booking: number }> {
  const bike = await insertBike(db(), { numero: '07', modello: 'City Bike Classic' });
  const holder = await person(ctx, { nome: 'Tiziana', cognome: 'Piena' });
  const res = await book(holder, bike);
  expect(res.statusCode, res.body).toBe(201);
  return { bike, holder, booking: res.json().id as number };
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
  await db().execute(sql`update regole set offerta_minuti = 15, prenotazioni_settimanali_max = null, sospensione_soglia = null,
                                           sospensione_finestra_giorni = null, sospensione_giorni = null`);
  admin = await person(ctx, { ruolo: 'admin' });
});

describe('joining and leaving a line', () => {
  it('joins when no bike is free, in the order of joining; at most 3 windows; one wait per window; leaves', async () => {
    const { bike } = await fullFleet();
    const [anna, bruno] = [await person(ctx, { nome: 'Anna' }), await person(ctx, { nome: 'Bruno' })];

    const first = await join(anna);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ ...WINDOW, destinazione: 'Palestra', stato: 'in_attesa', posizione: 1, offerta: null, bloccataDaPrenotazione: false });
    ctx.clock.advance(1000);
    // An overlapping window is the same line: Bruno is second for 11:00–13:00.
    expect((await join(bruno, { orarioInizio: '11:00', orarioFine: '13:00' })).json()).toMatchObject({ posizione: 2 });
    // A window that overlaps nobody's is a line of its own.
    const other = await join(bruno, { orarioInizio: '14:00', orarioFine: '15:00' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'BIKE_FREE', message: "C'è una bici libera in questa fascia oraria: prenotala subito" });

    expect((await join(anna)).json()).toMatchObject({ code: 'ALREADY_WAITING', message: "Sei già in lista d'attesa per questa fascia oraria" });
    // Three windows at most (each with no bike free: the holder books them all).
    const holder2 = await person(ctx);
    const holder3 = await person(ctx);
    expect((await book(holder2, bike, { dataPrenotazione: '2026-11-23' })).statusCode).toBe(201);
    expect((await book(holder3, bike, { dataPrenotazione: '2026-11-24' })).statusCode).toBe(201);
    const holder4 = await person(ctx);
    expect((await book(holder4, bike, { dataPrenotazione: '2026-11-25' })).statusCode).toBe(201);
    expect((await join(anna, { dataPrenotazione: '2026-11-23' })).statusCode).toBe(201);
    expect((await join(anna, { dataPrenotazione: '2026-11-24' })).statusCode).toBe(201);
    const fourth = await join(anna, { dataPrenotazione: '2026-11-25' });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ code: 'WAITLIST_FULL', message: "Puoi essere in lista d'attesa per al massimo 3 fasce orarie alla volta" });
    expect(await waits(anna)).toHaveLength(3);

    // Leaving: Bruno moves up.
    const left = await call(ctx.app, anna, 'DELETE', `/api/attese/${first.json().id}`);
    expect(left.statusCode).toBe(204);
    expect((await waits(bruno))[0]).toMatchObject({ posizione: 1 });
    // Nobody else's wait: 404, and nothing changes.
    const [brunoWait] = await waits(bruno);
    expect((await call(ctx.app, anna, 'DELETE', `/api/attese/${brunoWait!.id}`)).statusCode).toBe(404);
    expect(await waits(bruno)).toHaveLength(1);
    const { rows } = await db().execute<{ stato: string }>(sql`select stato from attese where id = ${first.json().id}`);
    expect(rows[0]!.stato).toBe('uscita');
  });

  it('refuses bad input and windows against the rules in Italian, changing nothing; needs a login', async () => {
    await fullFleet();
    const anna = await person(ctx);
    for (const bad of [{ dataPrenotazione: '2026-02-30' }, { orarioInizio: '12:00', orarioFine: '10:00' }, { orarioFine: '25:00' }, { destinazione: 'x'.repeat(201) }]) {
      const res = await join(anna, bad);
      expect(res.statusCode, JSON.stringify(bad) + res.body).toBe(400);
      expect(res.json().message).toMatch(/[a-zà-ù]/);
      expect(res.body).not.toMatch(/invalid|expected|Error:/);
    }
    // In the past, and on a closed day.
    const past = await join(anna, { dataPrenotazione: '2026-11-20' });
    expect(past.statusCode, past.body).toBe(400);
    expect((await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: SUNDAY, al: SUNDAY, motivo: 'Chiusura prova' })).statusCode).toBe(201);
    const closed = await join(anna);
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toContain('Chiusura prova');
    expect((await db().execute(sql`select * from attese`)).rows).toHaveLength(0);
    expect((await call(ctx.app, null, 'GET', '/api/attese')).statusCode).toBe(401);
    expect((await call(ctx.app, null, 'POST', '/api/attese', WINDOW)).statusCode).toBe(401);
    for (const id of ['0', '01', '%201', '1.5', '99999999999']) {
      expect((await call(ctx.app, anna, 'DELETE', `/api/attese/${id}`)).statusCode, id).toBe(400);
    }
  });
});

describe('offers', () => {
  it('a cancellation offers the bike to the first in line: held (nobody else can book it), emailed with the sentence, shown first', async () => {
    const { bike, holder, booking } = await fullFleet();
    const [anna, bruno, carlo] = [await person(ctx, { nome: 'Anna' }), await person(ctx, { nome: 'Bruno' }), await person(ctx)];
    await join(anna);
    ctx.clock.advance(1000);
    await join(bruno);

    expect((await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`)).statusCode).toBe(200);
    const [offer] = await waits(anna);
    expect(offer).toMatchObject({
      stato: 'offerta',
      posizione: 1,
      offerta: { biciId: bike, biciNumero: '07', biciModello: 'City Bike Classic', scadeAt: new Date(TEST_NOW.getTime() + 1000 + minutes(15)).toISOString() },
    });
    expect((await waits(bruno))[0]).toMatchObject({ stato: 'in_attesa', posizione: 2, offerta: null });
    await expect.poll(() => mailer.sent.filter((m) => m.subject.includes('si è liberata')).length).toBe(1);
    const email = mailer.sent.find((m) => m.to === anna.email);
    expect(email?.subject).toBe('BiciElis: Una bici si è liberata per il 22/11 dalle 10:00 alle 12:00');
    expect(email?.text).toContain('la bici n. 07 è tenuta per te fino alle 10:15');
    expect(mailer.sent.filter((m) => m.subject.includes('si è liberata'))).toHaveLength(1);

    // Held: not offered by the availability, refused to anyone else by the constraint.
    const available = await call(ctx.app, carlo, 'POST', '/api/biciclette/available', WINDOW);
    expect(available.json()).toEqual([]);
    const taken = await book(carlo, bike);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('BIKE_UNAVAILABLE');
    // The database itself: an active booking over the offer violates the exclusion constraint.
    const err = await insertBooking(db(), { userId: carlo.id, biciId: bike, date: SUNDAY, from: '11:00', to: '11:30' }).catch((e: unknown) => e);
    expect(pgErrorCode(err)).toBe('23P01');
    // The offer is nobody's booking: not in the user's list, the admin's list or the statistics.
    expect((await call(ctx.app, anna, 'GET', '/api/prenotazioni/user')).json()).toEqual([]);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/prenotazioni?stato=tutti')).json().map((b: { stato: string }) => b.stato)).toEqual(['cancellata']);
    // The statistics' deltas (Sunday is after the period a read shows): the offer counts as nothing.
    const counted = await db().execute<{ rides: number; cancellations: number }>(
      sql`select coalesce(sum(rides), 0)::int as rides, coalesce(sum(cancellations), 0)::int as cancellations from stats_delta where kind = 'day'`,
    );
    expect(counted.rows[0]).toEqual({ rides: 0, cancellations: 1 });
  });

  it('accepting makes a normal booking: the same bike and window, the wait served; an external gets a pending payment with the hold from now', async () => {
    const { holder, booking } = await fullFleet();
    const anna = await person(ctx, { residente: false, nome: 'Anna' });
    const [wait] = [(await join(anna)).json() as WaitDto];
    ctx.clock.advance(minutes(5));
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`);
    await ctx.app.freedTime.settled();
    ctx.clock.advance(minutes(10));
    const accepted = await call(ctx.app, anna, 'POST', `/api/attese/${wait.id}/accetta`);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ ...WINDOW, destinazione: 'Palestra', biciNumero: '07', stato: 'attiva', paymentStatus: 'pending', fase: 'da_ritirare' });
    expect(await waits(anna)).toEqual([]);
    const { rows } = await db().execute<{ stato: string }>(sql`select stato from attese where id = ${wait.id}`);
    expect(rows[0]!.stato).toBe('servita');
    // The usual hold counts from the acceptance: 29 minutes later the booking still stands.
    ctx.clock.advance(minutes(29));
    expect((await call(ctx.app, anna, 'GET', '/api/prenotazioni/user')).json()[0]).toMatchObject({ stato: 'attiva' });
    await payThroughApi(ctx.app, db(), anna, accepted.json().id);
    const counted = await db().execute<{ rides: number }>(sql`select coalesce(sum(rides), 0)::int as rides from stats_delta where kind = 'day'`);
    expect(counted.rows[0]!.rides).toBe(1);
    // Accepting twice: the offer is gone.
    expect((await call(ctx.app, anna, 'POST', `/api/attese/${wait.id}/accetta`)).statusCode).toBe(404);
  });

  it('declining passes the bike to the next in line at once; an offer run out passes it too, and the late job or a read both see it', async () => {
    const { holder, booking } = await fullFleet();
    const [anna, bruno, carlo] = [await person(ctx, { nome: 'Anna' }), await person(ctx, { nome: 'Bruno' }), await person(ctx, { nome: 'Carlo' })];
    for (const who of [anna, bruno, carlo]) {
      expect((await join(who)).statusCode).toBe(201);
      ctx.clock.advance(1000);
    }
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`);
    const [annaWait] = await waits(anna);
    expect(annaWait!.offerta).not.toBeNull();

    expect((await call(ctx.app, anna, 'POST', `/api/attese/${annaWait!.id}/rinuncia`)).statusCode).toBe(204);
    expect(await waits(anna)).toEqual([]);
    const [brunoWait] = await waits(bruno);
    expect(brunoWait).toMatchObject({ stato: 'offerta', posizione: 1 });
    expect((await waits(carlo))[0]).toMatchObject({ stato: 'in_attesa', posizione: 2 });

    // Bruno lets it run out: at 15 minutes the offer passes to Carlo on the next read.
    ctx.clock.advance(minutes(15));
    expect((await waits(carlo))[0]).toMatchObject({ stato: 'offerta', posizione: 1 });
    expect(await waits(bruno)).toEqual([]);
    expect((await call(ctx.app, bruno, 'POST', `/api/attese/${brunoWait!.id}/accetta`)).statusCode).toBe(404);
    const states = await db().execute<{ stato: string }>(sql`select stato from attese order by id`);
    expect(states.rows.map((r) => r.stato)).toEqual(['rinunciata', 'persa', 'offerta']);

    // The job alone (no read) moves on too: Carlo lets it run out, nobody is left, the bike is free.
    ctx.clock.advance(minutes(15));
    const pass = await runOfferPass(db(), ctx.clock.now(), 15);
    expect(pass).toMatchObject({ expired: 1, offers: [] });
    const free = await call(ctx.app, anna, 'POST', '/api/biciclette/available', WINDOW);
    expect(free.json()).toHaveLength(1);
  });

  it('an early return and a no-show free the rest of the window for the line', async () => {
    const bike = await insertBike(db(), { numero: '03' });
    const rider = await person(ctx);
    // Today 10:00–14:00 picked up at 10:00; the line waits for 12:00–13:00.
    const ride = await insertBooking(db(), { userId: rider.id, biciId: bike, date: '2026-11-21', from: '10:00', to: '14:00', ritirataAt: TEST_NOW });
    const anna = await person(ctx, { nome: 'Anna' });
    expect((await join(anna, { dataPrenotazione: '2026-11-21', orarioInizio: '12:00', orarioFine: '13:00' })).statusCode).toBe(201);
    ctx.clock.advance(minutes(30));
    expect((await call(ctx.app, rider, 'POST', `/api/prenotazioni/${ride}/riconsegna`, {})).statusCode).toBe(200);
    expect((await waits(anna))[0]).toMatchObject({ stato: 'offerta', offerta: { biciNumero: '03' } });

    // A no-show: Bruno's booking tomorrow is never picked up; Carlo waits for its window.
    const bruno = await person(ctx);
    const carlo = await person(ctx, { nome: 'Carlo' });
    const other = await insertBike(db(), { numero: '04' });
    await insertBooking(db(), { userId: bruno.id, biciId: other, date: SUNDAY, from: '10:00', to: '12:00' });
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date: SUNDAY, from: '10:00', to: '12:00' });
    expect((await join(carlo, { orarioInizio: '10:30', orarioFine: '11:30' })).statusCode).toBe(201);
    ctx.clock.set('2026-11-22T09:31:00Z'); // 10:31 in Rome: both bookings of 10:00 are no-shows
    await applyLifecycle(db(), ctx.clock.now(), 30, 30);
    await ctx.app.freedTime.settled();
    const { rows } = await db().execute<{ attesa: number; stato: string }>(sql`
      select a.id as attesa, a.stato from attese a where a.user_id = ${carlo.id}`);
    // Carlo's window started at 10:30: it ended unserved before the no-shows were released.
    expect(rows[0]!.stato).toBe('scaduta');
  });

  it('a no-show before the window offers the bike', async () => {
    const bike = await insertBike(db(), { numero: '05' });
    const bruno = await person(ctx);
    await insertBooking(db(), { userId: bruno.id, biciId: bike, date: SUNDAY, from: '08:00', to: '12:00' });
    const anna = await person(ctx, { nome: 'Anna' });
    expect((await join(anna)).statusCode).toBe(201);
    ctx.clock.set('2026-11-22T07:31:00Z'); // 08:31: Bruno's booking of 08:00 is a no-show
    await applyLifecycle(db(), ctx.clock.now(), 30, 30);
    await ctx.app.freedTime.settled();
    const { rows } = await db().execute<{ stato: string }>(sql`select stato from attese where user_id = ${anna.id}`);
    expect(rows[0]!.stato).toBe('offerta');
    expect((await waits(anna))[0]!.offerta).toMatchObject({ biciNumero: '05' });
  });

  it('a user with an active booking is passed over (the wait says so) and cannot accept an offer made before it', async () => {
    const { bike, holder, booking } = await fullFleet();
    const spare = await insertBike(db(), { numero: '09', stato: 'fuori_servizio' });
    const [anna, bruno] = [await person(ctx, { nome: 'Anna' }), await person(ctx, { nome: 'Bruno' })];
    expect((await join(anna)).statusCode).toBe(201);
    ctx.clock.advance(1000);
    expect((await join(bruno)).statusCode).toBe(201);
    // Anna books something else meanwhile (another day).
    expect((await book(anna, bike, { dataPrenotazione: '2026-11-23' })).statusCode).toBe(201);
    expect((await waits(anna))[0]).toMatchObject({ bloccataDaPrenotazione: true });
    // A freed bike goes to Bruno.
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`);
    expect((await waits(bruno))[0]).toMatchObject({ stato: 'offerta', offerta: { biciId: bike } });
    expect((await waits(anna))[0]).toMatchObject({ stato: 'in_attesa', posizione: 1 });
    // Bruno books elsewhere before accepting: he cannot accept, the offer passes on (to nobody free: Anna is blocked).
    const brunoWait = (await waits(bruno))[0]!;
    await db().execute(sql`update biciclette set stato = 'disponibile' where id = ${spare}`);
    expect((await book(bruno, spare, { dataPrenotazione: '2026-11-24' })).statusCode).toBe(201);
    const refused = await call(ctx.app, bruno, 'POST', `/api/attese/${brunoWait.id}/accetta`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ALREADY_ACTIVE', message: expect.stringContaining('La bici passa al prossimo in lista') });
    expect(await waits(bruno)).toEqual([]);
    expect((await db().execute(sql`select 1 from prenotazioni where stato = 'offerta'`)).rows).toHaveLength(0);
  });

  it("accepting one offer passes the user's other offers on at once (one active booking at a time)", async () => {
    const bike = await insertBike(db(), { numero: '12' });
    const [h1, h2] = [await person(ctx), await person(ctx)];
    const first = (await book(h1, bike)).json().id;
    const second = (await book(h2, bike, { dataPrenotazione: '2026-11-23' })).json().id;
    const [anna, bruno] = [await person(ctx, { nome: 'Anna' }), await person(ctx, { nome: 'Bruno' })];
    const annaSunday = (await join(anna)).json() as WaitDto;
    expect((await join(anna, { dataPrenotazione: '2026-11-23' })).statusCode).toBe(201);
    ctx.clock.advance(1000);
    expect((await join(bruno, { dataPrenotazione: '2026-11-23' })).statusCode).toBe(201);
    await call(ctx.app, h1, 'DELETE', `/api/prenotazioni/${first}`);
    await call(ctx.app, h2, 'DELETE', `/api/prenotazioni/${second}`);
    expect((await waits(anna)).map((w) => w.stato)).toEqual(['offerta', 'offerta']);
    expect((await call(ctx.app, anna, 'POST', `/api/attese/${annaSunday.id}/accetta`)).statusCode).toBe(201);
    // Monday's bike went to Bruno; Anna still waits for Monday, passed over while her booking lasts.
    expect((await waits(bruno))[0]).toMatchObject({ stato: 'offerta', offerta: { biciId: bike } });
    expect((await waits(anna))[0]).toMatchObject({ stato: 'in_attesa', dataPrenotazione: '2026-11-23', bloccataDaPrenotazione: true });
  });

  it('the offer minutes come from the rules, and an offer ends at the window’s start at the latest', async () => {
    const res = await call(ctx.app, admin, 'GET', '/api/admin/regole');
    const { updatedAt: _a, updatedBy: _b, ...rules } = res.json();
    expect(rules.offertaMinuti).toBe(15);
    expect((await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...rules, offertaMinuti: 0 })).statusCode).toBe(400);
    expect((await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...rules, offertaMinuti: 45 })).statusCode).toBe(200);
    const bike = await insertBike(db(), { numero: '11' });
    const holder = await person(ctx);
    const taken = (await book(holder, bike, { dataPrenotazione: '2026-11-21', orarioInizio: '10:30', orarioFine: '11:30' })).json().id;
    const anna = await person(ctx);
    expect((await join(anna, { dataPrenotazione: '2026-11-21', orarioInizio: '10:30', orarioFine: '11:30' })).statusCode).toBe(201);
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${taken}`);
    // 45 minutes would be 10:45; the window starts at 10:30.
    expect((await waits(anna))[0]!.offerta!.scadeAt).toBe('2026-11-21T09:30:00.000Z');
  });
});

describe('what the admins see', () => {
  it("today's lines on /admin, unserved demand in the statistics, and the nightly report's line", async () => {
    const bike = await insertBike(db(), { numero: '01' });
    const holder = await person(ctx);
    const today = { dataPrenotazione: '2026-11-21', orarioInizio: '15:00', orarioFine: '16:00' };
    expect((await book(holder, bike, today)).statusCode).toBe(201);
    const people = [await person(ctx), await person(ctx), await person(ctx)];
    for (const p of people) expect((await join(p, today)).statusCode).toBe(201);
    const lines = (await call(ctx.app, admin, 'GET', '/api/admin/attese')).json();
    expect(lines).toEqual({ data: '2026-11-21', inAttesa: 3, offerteAperte: 0, finestre: [{ dataPrenotazione: '2026-11-21', orarioInizio: '15:00', orarioFine: '16:00', sedeId: 1, inAttesa: 3, offerteAperte: 0 }] });
    expect((await call(ctx.app, people[0]!, 'GET', '/api/admin/attese')).statusCode).toBe(403);

    // The window starts with nobody served: three waits of unserved demand at 15:00.
    ctx.clock.set('2026-11-21T14:00:00Z');
    const stats = (await call(ctx.app, admin, 'GET', '/api/admin/stats?period=7')).json();
    expect(stats.waitlist).toMatchObject({ served: 0, unserved: 3 });
    expect(stats.waitlist.hours[15]).toEqual({ hour: 15, unserved: 3 });
    expect(stats.waitlist.days.find((d: { date: string }) => d.date === '2026-11-21')).toEqual({ date: '2026-11-21', served: 0, unserved: 3 });
    const { loadDayReport } = await import('../../src/server/modules/reports/data.js');
    const report = await loadDayReport(db(), '2026-11-21', ctx.clock.now(), 'Europe/Rome');
    expect(report.waitlist).toBe("Liste d'attesa: 0 servite, 3 non servite");
  });
});
