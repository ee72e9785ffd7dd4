import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { lifecycleJob } from '../../src/server/jobs/app-jobs.js';
import { healFleet } from '../../src/server/modules/fleet/index.js';
import { createLogger } from '../../src/server/logger.js';
import { biciclette, interventi, lucchetti, prenotazioni } from '../../src/server/schema.js';
import { zonedInstant } from '../../src/shared/time.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { bookThroughApi, paymentOf, payThroughApi } from '../helpers/booking-fixtures.js';

/*
 * The fleet heals itself (issue 35, decision 045): a late or broken bike's bookings of the next
 * 24 hours move to a free bike, or are told, waited for, or cancelled; at chosen instants.
 */

let ctx: TestContext;
const mailer = capturingMailer();
const pushed: { userId: number; title: string; body: string }[] = [];
const TODAY = '2026-11-21';
const TOMORROW = '2026-11-22';
const at = (date: string, hm: string) => zonedInstant(date, hm, 'Europe/Rome')!;

beforeAll(async () => {
  ctx = await createTestApp({
    deps: {
      mailer,
      push: {
        async send(userId, payload) {
          pushed.push({ userId, title: payload.title, body: payload.body });
        },
      },
    },
  });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(at(TODAY, '10:00'));
  mailer.sent.length = 0;
  pushed.length = 0;
  await truncateAll(ctx.database.db);
});

const db = () => ctx.database.db;
const job = () =>
  lifecycleJob({
    database: ctx.database,
    clock: ctx.clock,
    mailer,
    config: ctx.config,
    log: createLogger('silent'),
    push: ctx.app.deps.push,
    payments: ctx.app.deps.payments,
  })();
const row = async (id: number) => (await db().select().from(prenotazioni).where(eq(prenotazioni.id, id)))[0]!;
const bookingOf = async (who: Person, id: number) => (await call(ctx.app, who, 'GET', '/api/prenotazioni/user')).json().find((b: { id: number }) => b.id === id);
const mailsTo = (email: string) => mailer.sent.filter((m) => m.to === email);

/** Bike 03 out on A's ride 10:00–12:00 (picked up, not returned); bikes 07 and 08 in the fleet. */
async function lateFleet() {
  const b03 = await insertBike(db(), { numero: '03' });
  const b07 = await insertBike(db(), { numero: '07' });
  const b08 = await insertBike(db(), { numero: '08' });
  const a = await person(ctx, { nome: 'Anna' });
  const ride = await insertBooking(db(), { userId: a.id, biciId: b03, date: TODAY, from: '10:00', to: '12:00', ritirataAt: at(TODAY, '10:00') });
  return { b03, b07, b08, a, ride };
}

/** Another person's booking holding `bike` for the window. */
const hold = async (bike: number, date: string, from: string, to: string) =>
  insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date, from, to });

describe('a late bike', () => {
  it('moves each later booking of the next 24 hours at once, in order of start, tells its person once; later ones move when they come within 24 hours', async () => {
    const { b03, b07 } = await lateFleet();
    const b = await person(ctx, { nome: 'Bruno' });
    const booked = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '14:00' });
    const c = await person(ctx);
    const second = await insertBooking(db(), { userId: c.id, biciId: b03, date: TODAY, from: '15:00', to: '16:00' });
    const d = await person(ctx);
    const farAhead = await insertBooking(db(), { userId: d.id, biciId: b03, date: TOMORROW, from: '15:00', to: '16:00' });
    await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });

    // 12:00 has not passed: nothing is late yet.
    ctx.clock.set(at(TODAY, '11:59'));
    await job();
    expect((await row(booked)).biciId).toBe(b03);

    ctx.clock.set(at(TODAY, '12:01'));
    await job();
    expect((await row(booked)).biciId).toBe(b07);
    // 07 is free 15:00–16:00 too: the first by number that is free for the whole window.
    expect((await row(second)).biciId).toBe(b07);
    expect((await row(farAhead)).biciId).toBe(b03);
    const sentence = 'La tua prenotazione è stata spostata sulla bici n. 07: la bici n. 03 non è ancora rientrata';
    expect(mailsTo(b.email).map((m) => m.subject)).toEqual([sentence]);
    expect(pushed.filter((p) => p.userId === b.id).map((p) => p.body)).toEqual([`${sentence}.`]);
    expect(await bookingOf(b, booked)).toMatchObject({ biciNumero: '07', spostata: { daBiciNumero: '03', causa: 'ritardo' }, biciAssente: false });
    // The admins' email about late bikes carries the moves.
    const staff = mailsTo('staff@test.it');
    expect(staff).toHaveLength(1);
    expect(staff[0]!.subject).toBe('BiciElis: 1 bicicletta in ritardo');
    expect(staff[0]!.text).toContain('spostata dalla bici n. 03 alla n. 07 (la bici n. 03 non è ancora rientrata)');
    const moves = (await auditRows(db())).filter((e) => e.action === 'booking.move');
    expect(moves.map((e) => [e.entityId, e.actorEmail, e.actorId])).toEqual([
      [String(second), 'Sistema', null],
      [String(booked), 'Sistema', null],
    ]);

    // Once per cause: another minute changes nothing and tells nobody again.
    const sent = mailer.sent.length;
    ctx.clock.set(at(TODAY, '12:02'));
    await job();
    expect(mailer.sent.length).toBe(sent);
    expect((await auditRows(db())).filter((e) => e.action === 'booking.move')).toHaveLength(2);

    // At 15:01 the booking of tomorrow 15:00 comes within the 24 hours, 03 still out: it moves then.
    ctx.clock.set(at(TODAY, '15:01'));
    await job();
    expect((await row(farAhead)).biciId).toBe(b07);
  });

  it('one that cannot move stays, is told 15 minutes before its start once, and waits (`Aspetta`); the first bike freed goes to it before the waitlist', async () => {
    const { b03, b07, b08 } = await lateFleet();
    await hold(b07, TODAY, '12:00', '14:30');
    const freeing = await hold(b08, TODAY, '12:00', '14:30');
    const b = await person(ctx);
    const booked = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '14:00' });
    // Someone waits for that very window since the morning.
    const w = await person(ctx);
    ctx.clock.set(at(TODAY, '09:00'));
    expect((await call(ctx.app, w, 'POST', '/api/attese', { dataPrenotazione: TODAY, orarioInizio: '12:30', orarioFine: '14:00', destinazione: null })).statusCode).toBe(201);

    ctx.clock.set(at(TODAY, '12:01'));
    await job();
    expect((await row(booked)).biciId).toBe(b03);
    // Left on the late bike: the next booking's warning at the ride's end, as before issue 35.
    expect(mailsTo(b.email).map((m) => m.subject)).toEqual(['La bicicletta n. 03 potrebbe non essere pronta']);
    expect(await bookingOf(b, booked)).toMatchObject({ biciNumero: '03', biciAssente: true, aspetta: false, spostata: null });

    ctx.clock.set(at(TODAY, '12:14'));
    await job();
    expect(mailsTo(b.email)).toHaveLength(1);
    ctx.clock.set(at(TODAY, '12:15'));
    await job();
    await job();
    expect(mailsTo(b.email).map((m) => m.subject)).toEqual([
      'La bicicletta n. 03 potrebbe non essere pronta',
      "La bici n. 03 non è ancora rientrata e al momento non ce n'è un'altra libera",
    ]);
    expect(mailsTo(b.email)[1]!.text).toContain('Aspetta');

    const waiting = await call(ctx.app, b, 'POST', `/api/prenotazioni/${booked}/aspetta`);
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json()).toMatchObject({ biciAssente: true, aspetta: true });
    // Someone else's booking cannot be waited on.
    expect((await call(ctx.app, w, 'POST', `/api/prenotazioni/${booked}/aspetta`)).statusCode).toBe(404);

    // 08's booking is cancelled: the freed bike goes to B, not to the waitlist.
    const owner08 = (await row(freeing)).userId!;
    await db().execute(sql`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente' where id = ${freeing}`);
    await ctx.app.freedTime.settled();
    expect((await row(booked)).biciId).toBe(b08);
    expect(await bookingOf(b, booked)).toMatchObject({ biciNumero: '08', spostata: { daBiciNumero: '03', causa: 'ritardo' }, biciAssente: false, aspetta: false });
    expect(await db().execute(sql`select count(*)::int as n from prenotazioni where stato = 'offerta'`)).toMatchObject({ rows: [{ n: 0 }] });
    expect(owner08).not.toBe(b.id);
  });

  it('still out at the no-show instant: cancelled as `bici_non_rientrata`, refunded, no no-show; read so before the job writes it', async () => {
    const { b03, b07, b08 } = await lateFleet();
    const payer = await person(ctx, { residente: false });
    // Booked and paid in the morning, while bike 03's ride was still in its window.
    ctx.clock.set(at(TODAY, '09:00'));
    const paid = await bookThroughApi(ctx.app, payer, b03, { dataPrenotazione: TODAY, orarioInizio: '12:30', orarioFine: '14:00' });
    await payThroughApi(ctx.app, db(), payer, paid);
    await hold(b07, TODAY, '12:00', '14:30');
    await hold(b08, TODAY, '12:00', '14:30');

    // 13:00 is its no-show instant (30 minutes): before the job, the read says it is still active.
    ctx.clock.set(at(TODAY, '13:00'));
    expect(await bookingOf(payer, paid)).toMatchObject({ stato: 'attiva', biciAssente: true });
    await job();
    expect(await row(paid)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'bici_non_rientrata' });
    expect((await paymentOf(db(), paid))?.status).toBe('refunded');
    const told = mailsTo(payer.email).at(-1)!;
    expect(told.subject).toBe('La tua prenotazione è stata annullata');
    expect(told.text).toContain('la bici n. 03 non è rientrata in tempo');
    expect(told.text).toContain('Non conta come mancato ritiro.');
    expect(told.text).toContain('Il pagamento di 2,50 € ti è stato rimborsato.');
    // Not counted towards a suspension: no `mancato_ritiro` of theirs (the others' holds of 07 and 08 are no-shows).
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from prenotazioni where user_id = ${payer.id} and motivo_cancellazione = 'mancato_ritiro'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('`Annulla` while the bike is out, after the start: no no-show, a paid booking refunded', async () => {
    const { b03, b07, b08 } = await lateFleet();
    const payer = await person(ctx, { residente: false });
    ctx.clock.set(at(TODAY, '09:00'));
    const paid = await bookThroughApi(ctx.app, payer, b03, { dataPrenotazione: TODAY, orarioInizio: '12:30', orarioFine: '14:00' });
    await payThroughApi(ctx.app, db(), payer, paid);
    await hold(b07, TODAY, '12:00', '14:30');
    await hold(b08, TODAY, '12:00', '14:30');
    ctx.clock.set(at(TODAY, '12:40'));
    const res = await call(ctx.app, payer, 'DELETE', `/api/prenotazioni/${paid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'bici_non_rientrata', paymentStatus: 'refunded' });
  });

  it('the late bike comes back in time: the booking simply stands, and is picked up', async () => {
    const { b03, b07, b08, a, ride } = await lateFleet();
    await hold(b07, TODAY, '12:00', '14:30');
    await hold(b08, TODAY, '12:00', '14:30');
    const b = await person(ctx);
    const booked = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '14:00' });
    ctx.clock.set(at(TODAY, '12:10'));
    await job();
    ctx.clock.set(at(TODAY, '12:20'));
    expect((await call(ctx.app, a, 'POST', `/api/prenotazioni/${ride}/riconsegna`)).statusCode).toBe(200);
    await ctx.app.freedTime.settled();
    expect(await bookingOf(b, booked)).toMatchObject({ biciNumero: '03', biciAssente: false, stato: 'attiva' });
    ctx.clock.set(at(TODAY, '12:25'));
    expect((await call(ctx.app, b, 'POST', `/api/prenotazioni/${booked}/ritiro`)).statusCode).toBe(200);
  });
});

describe('a broken bike', () => {
  it('a return with a damage report: the next 24 hours’ bookings move, or are cancelled and refunded; later ones stay', async () => {
    const { b03, b07, b08, a, ride } = await lateFleet();
    await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
    const b = await person(ctx);
    const moves = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '13:30' });
    await hold(b07, TODAY, '14:00', '16:00');
    await hold(b08, TODAY, '14:00', '16:00');
    const payer = await person(ctx, { residente: false });
    const paid = await bookThroughApi(ctx.app, payer, b03, { dataPrenotazione: TODAY, orarioInizio: '14:30', orarioFine: '15:30' });
    await payThroughApi(ctx.app, db(), payer, paid);
    const later = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b03, date: TOMORROW, from: '16:00', to: '17:00' });

    ctx.clock.set(at(TODAY, '11:30'));
    const back = await call(ctx.app, a, 'POST', `/api/prenotazioni/${ride}/riconsegna`, { danno: { categoria: 'freni', descrizione: 'Freno posteriore rotto' } });
    expect(back.statusCode).toBe(200);
    // The bike going out of use wakes the dispatcher, which heals before its offer pass.
    await ctx.app.freedTime.settled();
    expect((await row(moves)).biciId).toBe(b07);
    expect(await row(paid)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'bici_guasta' });
    expect((await paymentOf(db(), paid))?.status).toBe('refunded');
    expect(await row(later)).toMatchObject({ stato: 'attiva', biciId: b03 });
    expect(mailsTo(b.email).map((m) => m.subject)).toEqual(['La tua prenotazione è stata spostata sulla bici n. 07: la bici n. 03 è fuori uso']);
    expect(mailsTo(payer.email).at(-1)!.text).toContain('Prenota un’altra fascia oraria, oppure mettiti in lista d’attesa');
    const staff = mailsTo('staff@test.it').map((m) => m.subject);
    expect(staff).toContain('BiciElis: prenotazioni spostate o annullate');
    expect((await auditRows(db())).filter((e) => e.action === 'booking.cancel_fleet').map((e) => e.after)).toEqual([
      { biciNumero: '03', motivo: 'bici_guasta', rimborsata: true },
    ]);
    // Still broken when the later booking comes within 24 hours: it moves then.
    ctx.clock.set(at(TODAY, '16:30'));
    await job();
    expect((await row(later)).biciId).toBe(b07);
  });
});

describe('a problem at the pick-up', () => {
  async function pickupFleet() {
    const b03 = await insertBike(db(), { numero: '03' });
    const b07 = await insertBike(db(), { numero: '07' });
    const b = await person(ctx, { nome: 'Bruno' });
    const booked = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '14:00' });
    return { b03, b07, b, booked };
  }
  const report = (who: Person, id: number, body: object = { categoria: 'catena', descrizione: 'La catena è rotta' }) =>
    call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/problema`, body);

  it('moves the booking to a free bike at once, sends the bike to maintenance with a report, and heals its other bookings', async () => {
    const { b03, b07, b, booked } = await pickupFleet();
    const other = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b03, date: TODAY, from: '16:00', to: '17:00' });
    await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
    ctx.clock.set(at(TODAY, '12:10'));
    expect((await report(b, booked)).json()).toMatchObject({ code: 'TOO_EARLY', message: 'Potrai segnalare un problema dalle 12:20' });
    expect((await report(b, booked, { categoria: 'sella', descrizione: '' })).statusCode).toBe(400);

    ctx.clock.set(at(TODAY, '12:25'));
    const res = await report(b, booked);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      esito: 'spostata',
      nuovaBiciNumero: '07',
      primoInFila: false,
      messaggio: 'Grazie della segnalazione. Ora la tua bici è la n. 07: prendi quella.',
      prenotazione: { id: booked, biciNumero: '07', spostata: { daBiciNumero: '03', causa: 'problema' }, stato: 'attiva' },
    });
    expect((await db().select().from(biciclette).where(eq(biciclette.id, b03)))[0]).toMatchObject({ stato: 'manutenzione', statoAuto: false });
    expect(await db().select({ origine: interventi.origine, biciId: interventi.biciId, categoria: interventi.categoria, nonUtilizzabile: interventi.nonUtilizzabile }).from(interventi)).toEqual([
      { origine: 'ritiro', biciId: b03, categoria: 'catena', nonUtilizzabile: true },
    ]);
    expect((await row(other)).biciId).toBe(b07);
    expect(mailsTo('staff@test.it').map((m) => m.subject)).toContain('Nuovo intervento: bici n. 03');
    // Picked up on the new bike, then returned with its own report: both kept.
    expect((await call(ctx.app, b, 'POST', `/api/prenotazioni/${booked}/ritiro`)).statusCode).toBe(200);
    expect((await report(b, booked)).json()).toMatchObject({ code: 'ALREADY_PICKED_UP' });
    ctx.clock.set(at(TODAY, '13:30'));
    const back = await call(ctx.app, b, 'POST', `/api/prenotazioni/${booked}/riconsegna`, { danno: { categoria: 'luci', descrizione: 'Luce spenta' } });
    expect(back.json()).toMatchObject({ stato: 'completata', danno: { categoria: 'luci', descrizione: 'Luce spenta' } });
    expect(await db().$count(interventi)).toBe(2);
  });

  it('no bike free: cancelled with no no-show, refunded, and the person first in line for the rest of the window', async () => {
    const b03 = await insertBike(db(), { numero: '03' });
    const b07 = await insertBike(db(), { numero: '07' });
    const payer = await person(ctx, { residente: false });
    ctx.clock.set(at(TODAY, '09:00'));
    const paid = await bookThroughApi(ctx.app, payer, b03, { dataPrenotazione: TODAY, orarioInizio: '12:30', orarioFine: '14:00' });
    await payThroughApi(ctx.app, db(), payer, paid);
    // 07 out on a ride until 15:00 (picked up: no no-show frees it).
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b07, date: TODAY, from: '12:00', to: '15:00', ritirataAt: at(TODAY, '12:00') });
    // Someone joined the line of 12:45–14:00 earlier.
    const early = await person(ctx);
    await call(ctx.app, early, 'POST', '/api/attese', { dataPrenotazione: TODAY, orarioInizio: '12:45', orarioFine: '14:00', destinazione: null });

    ctx.clock.set(at(TODAY, '12:31'));
    const res = await report(payer, paid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ esito: 'annullata', nuovaBiciNumero: null, primoInFila: true, prenotazione: { stato: 'cancellata', motivoCancellazione: 'bici_guasta', paymentStatus: 'refunded' } });
    expect(res.json().messaggio).toContain('Sei il primo in lista d’attesa');
    const waits = (await call(ctx.app, payer, 'GET', '/api/attese')).json();
    expect(waits).toMatchObject([{ orarioInizio: '12:45', orarioFine: '14:00', posizione: 1 }]);
    const theirs = (await call(ctx.app, early, 'GET', '/api/attese')).json();
    expect(theirs).toMatchObject([{ posizione: 2 }]);
  });

  it('a combination code shown before the move: the old lock is marked to change, the new bike’s code is shown', async () => {
    const { b03, b07, b, booked } = await pickupFleet();
    const admin = await person(ctx, { ruolo: 'admin' });
    for (const [bike, codice] of [[b03, '1357'], [b07, '2468']] as const) {
      expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}/lucchetto`, { tipo: 'combinazione', codice })).statusCode).toBe(200);
    }
    ctx.clock.set(at(TODAY, '12:25'));
    expect((await call(ctx.app, b, 'GET', `/api/prenotazioni/${booked}/codice`)).json()).toMatchObject({ codice: '1357' });
    expect((await report(b, booked)).statusCode).toBe(200);
    const locks = await db().select().from(lucchetti);
    expect(locks.find((l) => l.biciId === b03)!.daCambiareDal).not.toBeNull();
    expect(locks.find((l) => l.biciId === b07)!.daCambiareDal).toBeNull();
    expect((await call(ctx.app, b, 'GET', `/api/prenotazioni/${booked}/codice`)).json()).toMatchObject({ codice: '2468' });
  });

  it('not in the pick-up window, someone else’s, or cancelled: refused, nothing written', async () => {
    const { b, booked } = await pickupFleet();
    ctx.clock.set(at(TODAY, '12:25'));
    const stranger = await person(ctx);
    expect((await report(stranger, booked)).statusCode).toBe(404);
    ctx.clock.set(at(TODAY, '13:05'));
    expect((await report(b, booked)).json()).toMatchObject({ code: expect.stringMatching(/PICKUP_CLOSED|NOT_ACTIVE/) });
    expect(await db().$count(interventi)).toBe(0);
  });
});

describe('two processes', () => {
  it('racing heals against new bookings: 0 overlaps, 0 double moves, every booking that could move moved', async () => {
    const second: Database = connectDatabase(ctx.database.url, { max: 10 });
    const otherApp = await buildApp({ config: ctx.config, database: second, clock: ctx.clock, mailer, logger: false });
    try {
      const late = [await insertBike(db(), { numero: '01' }), await insertBike(db(), { numero: '02' })];
      const free: number[] = [];
      for (const n of ['11', '12', '13', '14']) free.push(await insertBike(db(), { numero: n }));
      const windows = [
        ['12:30', '13:00'],
        ['13:00', '13:30'],
        ['13:30', '14:00'],
        ['14:00', '15:00'],
        ['15:00', '16:00'],
        ['16:00', '17:00'],
      ] as const;
      for (const bike of late) {
        await insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date: TODAY, from: '10:00', to: '12:00', ritirataAt: at(TODAY, '10:00') });
        for (const [from, to] of windows) await insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date: TODAY, from, to });
      }
      const bookers = await Promise.all(Array.from({ length: 16 }, () => person(ctx)));
      ctx.clock.set(at(TODAY, '12:01'));
      const deps = (database: Database) => ({ db: database.db, clock: ctx.clock, payments: ctx.app.deps.payments, log: createLogger('silent') });
      const heals = Array.from({ length: 6 }, (_, i) => healFleet(deps(i % 2 ? second : ctx.database)));
      const bookings = bookers.map((u, i) =>
        call(i % 2 ? otherApp : ctx.app, u, 'POST', '/api/prenotazioni', {
          dataPrenotazione: TODAY,
          orarioInizio: windows[i % windows.length]![0],
          orarioFine: windows[i % windows.length]![1],
          biciId: free[i % free.length],
        }),
      );
      const [healed, answers] = await Promise.all([Promise.all(heals), Promise.all(bookings)]);
      expect(answers.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);

      // No bike holds two active bookings at once.
      const { rows: overlaps } = await db().execute(sql`
        select 1 from prenotazioni x join prenotazioni y on x.bici_id = y.bici_id and x.id < y.id
         where x.stato = 'attiva' and y.stato = 'attiva' and tstzrange(x.inizio, x.fine) && tstzrange(y.inizio, y.fine)`);
      expect(overlaps).toEqual([]);
      // Each booking moved at most once, and the passes' outcomes add up to the audit.
      const { rows: twice } = await db().execute(sql`
        select entity_id from audit_log where action = 'booking.move' group by entity_id having count(*) > 1`);
      expect(twice).toEqual([]);
      const movedIds = healed.flatMap((o) => o.moved.map((m) => m.row.id));
      expect(new Set(movedIds).size).toBe(movedIds.length);
      expect(await db().$count(prenotazioni, sql`${prenotazioni.spostataAt} is not null`)).toBe(movedIds.length);
      // Whatever is still on a late bike has no bike free for its whole window.
      const { rows: stuck } = await db().execute<{ id: number }>(sql`
        select p.id from prenotazioni p
         where p.stato = 'attiva' and p.ritirata_at is null and p.bici_id in (${late[0]}, ${late[1]})
           and exists (select 1 from biciclette b where b.id not in (${late[0]}, ${late[1]})
                        and not exists (select 1 from prenotazioni q where q.bici_id = b.id and q.stato in ('attiva', 'offerta')
                                           and tstzrange(q.inizio, q.fine) && tstzrange(p.inizio, p.fine)))`);
      expect(stuck).toEqual([]);
      expect(movedIds.length).toBeGreaterThan(0);
    } finally {
      await otherApp.close();
      await second.close();
    }
  });
});
