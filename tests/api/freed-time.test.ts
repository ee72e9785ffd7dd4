import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { applyLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { FREED_TIME_CHANNEL } from '../../src/server/modules/waitlist/dispatcher.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createLoggedInUser } from '../helpers/factories.js';
import { collectingLogger } from '../helpers/leak-scan.js';

/**
 * Issue 31, decision 035: freed time is one event. Every way the code can free a bike's time
 * (or end a wait that held an offer) is recorded by a trigger in the change's transaction, and
 * the dispatcher makes the offer to the first in line after the commit; no service calls the
 * offer pass by hand. TEST_NOW is Saturday 2026-11-21 10:00 in Rome; the line waits for
 * Sunday 2026-11-22 10:00–12:00 unless a test says otherwise.
 */
let ctx: TestContext;
let admin: Person;
const mailer = capturingMailer();
const SUNDAY = '2026-11-22';
const MONDAY = '2026-11-23';
const WINDOW = { dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00' };
const db = () => ctx.database.db;
const minutes = (n: number) => n * 60_000;

const join = async (who: Person, window: object = {}) => {
  const res = await call(ctx.app, who, 'POST', '/api/attese', { ...WINDOW, destinazione: null, ...window });
  expect(res.statusCode, res.body).toBe(201);
};
const book = async (who: { cookie: string }, biciId: number, window: object = {}) => {
  const res = await call(ctx.app, who, 'POST', '/api/prenotazioni', { ...WINDOW, destinazione: null, biciId, ...window });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};
/** The states of `who`'s waits once the dispatcher has served every event committed so far. */
const waitStates = async (who: Person) => {
  await ctx.app.freedTime.settled();
  const { rows } = await db().execute<{ stato: string }>(sql`select stato from attese where user_id = ${who.id} order by id`);
  return rows.map((r) => r.stato);
};
/** The offer `who` holds now, with its bike's number, or undefined. */
const offerOf = async (who: Person) => {
  const { rows } = await db().execute<{ numero: string }>(sql`
    select b.numero from prenotazioni o join biciclette b on b.id = o.bici_id where o.user_id = ${who.id} and o.stato = 'offerta'`);
  return rows[0];
};
const events = async () => (await db().execute<{ n: number }>(sql`select count(*)::int as n from tempo_liberato`)).rows[0]!.n;

/** Bike 07, the only one, taken for the window by a holder's booking through the API. */
async function fullFleet(holderOpts: { residente?: boolean } = {}) {
  const bike = await insertBike(db(), { numero: '07' });
  const holder = await person(ctx, { nome: 'Tiziana', ...holderOpts });
  const booking = await book(holder, bike);
  return { bike, holder, booking };
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
  await ctx.app.freedTime.settled();
  await truncateAll(db());
  await db().execute(sql`truncate attese, chiusure, manutenzioni, tempo_liberato restart identity cascade`);
  await db().execute(sql`update regole set offerta_minuti = 15, prenotazioni_settimanali_max = null, sospensione_soglia = null,
                                           sospensione_finestra_giorni = null, sospensione_giorni = null`);
  admin = await person(ctx, { ruolo: 'admin' });
});

describe('every way of freeing time offers it to the first in line', () => {
  it('a cancel by the user', async () => {
    const { holder, booking } = await fullFleet();
    const anna = await person(ctx, { nome: 'Anna' });
    await join(anna);
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    expect((await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`)).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
    expect(await offerOf(anna)).toEqual({ numero: '07' });
    // Announced too, by email, once.
    await expect.poll(() => mailer.sent.filter((m) => m.subject.includes('si è liberata')).length).toBe(1);
  });

  it('an early return', async () => {
    const bike = await insertBike(db(), { numero: '03' });
    const rider = await person(ctx);
    const ride = await insertBooking(db(), { userId: rider.id, biciId: bike, date: '2026-11-21', from: '10:00', to: '14:00', ritirataAt: TEST_NOW });
    const anna = await person(ctx);
    await join(anna, { dataPrenotazione: '2026-11-21', orarioInizio: '12:00', orarioFine: '13:00' });
    ctx.clock.advance(minutes(30));
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    expect((await call(ctx.app, rider, 'POST', `/api/prenotazioni/${ride}/riconsegna`, {})).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
    expect(await offerOf(anna)).toEqual({ numero: '03' });
  });

  it('a no-show released by the life cycle', async () => {
    const bike = await insertBike(db(), { numero: '05' });
    const bruno = await person(ctx);
    await insertBooking(db(), { userId: bruno.id, biciId: bike, date: SUNDAY, from: '08:00', to: '12:00' });
    const anna = await person(ctx);
    await join(anna);
    ctx.clock.set('2026-11-22T07:31:00Z'); // 08:31 in Rome: Bruno's 08:00 is a no-show
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    await applyLifecycle(db(), ctx.clock.now(), 30, 30);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it("an external's unpaid hold run out", async () => {
    await fullFleet({ residente: false });
    const anna = await person(ctx);
    await join(anna);
    ctx.clock.advance(minutes(31));
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    const { released } = await applyLifecycle(db(), ctx.clock.now(), 30, 30);
    expect(released).toBe(1);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it("an admin's delete of a booking", async () => {
    const { booking } = await fullFleet();
    const anna = await person(ctx);
    await join(anna);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${booking}`)).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it("an admin's release of a ride in ritardo", async () => {
    const bike = await insertBike(db(), { numero: '09' });
    const rider = await person(ctx);
    // Picked up this morning 08:00–09:00 and never returned: in ritardo, the bike is nobody's to offer.
    const ride = await insertBooking(db(), { userId: rider.id, biciId: bike, date: '2026-11-21', from: '08:00', to: '09:00', ritirataAt: new Date('2026-11-21T07:00:00Z') });
    const anna = await person(ctx);
    await join(anna);
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    expect((await call(ctx.app, admin, 'POST', `/api/admin/prenotazioni/${ride}/rilascia`)).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it('a user deactivated: their offer passes to the next in line', async () => {
    const { holder, booking } = await fullFleet();
    const anna = await person(ctx, { nome: 'Anna', cognome: 'Prima' });
    const bruno = await person(ctx);
    await join(anna);
    ctx.clock.advance(1000);
    await join(bruno);
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`);
    expect(await waitStates(anna)).toEqual(['offerta']);
    const res = await call(ctx.app, admin, 'PUT', `/api/admin/users/${anna.id}`, {
      nome: 'Anna', cognome: 'Prima', email: anna.email, ruolo: 'user', isResidente: true, attiva: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await waitStates(anna)).toEqual(['uscita']);
    expect(await waitStates(bruno)).toEqual(['offerta']);
  });

  it('a user deleted: their booking is gone and its time offered', async () => {
    const { holder } = await fullFleet();
    const anna = await person(ctx);
    await join(anna);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/users/${holder.id}`)).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it("a closure added: it cancels the booking that kept the first in line passed over", async () => {
    const { bike, holder, booking } = await fullFleet();
    const anna = await person(ctx);
    await book(anna, bike, { dataPrenotazione: MONDAY });
    await join(anna);
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`);
    // Anna has an active booking: passed over, the bike stays free.
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    const closed = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: MONDAY, al: MONDAY, motivo: 'Manutenzione cortile' });
    expect(closed.statusCode, closed.body).toBe(201);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it('a closure removed: the day open again is offered', async () => {
    await fullFleet();
    const anna = await person(ctx);
    await join(anna);
    const closed = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: SUNDAY, al: SUNDAY, motivo: 'Festa' });
    expect(closed.statusCode, closed.body).toBe(201);
    // The holder's booking is cancelled by the closure, but a closed day is offered to nobody.
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/chiusure/${closed.json().chiusura.id}`)).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it('a maintenance added: it cancels the booking that kept the first in line passed over', async () => {
    const { bike, holder, booking } = await fullFleet();
    const anna = await person(ctx);
    await book(anna, bike, { dataPrenotazione: MONDAY });
    await join(anna);
    await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`);
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    const res = await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${bike}/manutenzioni`, { dal: `${MONDAY}T08:00`, al: `${MONDAY}T18:00`, motivo: 'Freni' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it('a maintenance removed: its bike is offered', async () => {
    const bike = await insertBike(db(), { numero: '07' });
    const res = await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${bike}/manutenzioni`, { dal: `${SUNDAY}T08:00`, al: `${SUNDAY}T18:00`, motivo: 'Freni' });
    expect(res.statusCode, res.body).toBe(201);
    const anna = await person(ctx);
    await join(anna);
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    const [planned] = (await call(ctx.app, admin, 'GET', '/api/admin/manutenzioni')).json();
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/manutenzioni/${planned.id}`)).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it("a person's erasure of their own account", async () => {
    const bike = await insertBike(db(), { numero: '07' });
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    await book({ cookie }, bike);
    const anna = await person(ctx);
    await join(anna);
    const res = await call(ctx.app, { cookie }, 'DELETE', '/api/profilo', { password: user.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
  });

  it('a bike back to disponibile', async () => {
    const bike = await insertBike(db(), { numero: '07', stato: 'fuori_servizio' });
    const anna = await person(ctx);
    await join(anna);
    expect(await waitStates(anna)).toEqual(['in_attesa']);
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'disponibile' })).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['offerta']);
    // And out of service again: the offer is withdrawn, the wait keeps its place.
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}`, { stato: 'fuori_servizio' })).statusCode).toBe(200);
    expect(await waitStates(anna)).toEqual(['in_attesa']);
  });
});

describe('the event and its dispatcher', () => {
  it('a booking, a pick-up and a change that frees nothing record no event; a cancel records one, served and deleted', async () => {
    const bike = await insertBike(db(), { numero: '07' });
    await ctx.app.freedTime.settled();
    const anna = await person(ctx);
    const booking = await book(anna, bike, { dataPrenotazione: '2026-11-21', orarioInizio: '10:00', orarioFine: '12:00' });
    expect((await call(ctx.app, anna, 'POST', `/api/prenotazioni/${booking}/ritiro`, {})).statusCode).toBe(200);
    await db().execute(sql`update prenotazioni set destinazione = 'Biblioteca', updated_at = now() where id = ${booking}`);
    expect(await events()).toBe(0);
    const other = await book(await person(ctx), bike, { dataPrenotazione: MONDAY });
    await db().execute(sql`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente' where id = ${other}`);
    expect(await events()).toBe(1);
    await ctx.app.freedTime.settled();
    expect(await events()).toBe(0);
  });

  it('woken by NOTIFY: the offer is made within 2 s of the commit, without anyone waiting for it', async () => {
    const listener = listenForChanges(ctx.database.url, { [FREED_TIME_CHANNEL]: ctx.app.freedTime }, collectingLogger('warn'));
    try {
      await listener.ready;
      const { holder, booking } = await fullFleet();
      const anna = await person(ctx);
      await join(anna);
      const cancelled = performance.now();
      expect((await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${booking}`)).statusCode).toBe(200);
      await expect.poll(() => offerOf(anna), { timeout: 2_000, interval: 20 }).toEqual({ numero: '07' });
      expect(performance.now() - cancelled).toBeLessThan(2_000);
    } finally {
      await listener.stop();
    }
  });
});
