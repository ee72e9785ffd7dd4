import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { biciclette, pagamenti, prenotazioni, simulatedRefunds } from '../../src/server/schema.js';
import { ProviderError } from '../../src/server/integrations/payments/provider.js';
import { applyLifecycle, ensureLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { minuteJob } from '../helpers/minute-job.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { bookThroughApi, paymentOf, payThroughApi } from '../helpers/booking-fixtures.js';

let ctx: TestContext;
let admin: Person;
const mailer = capturingMailer();
const TOMORROW = '2026-11-22';
const HOUR = 3_600_000;

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer } });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  mailer.sent.length = 0;
  await truncateAll(ctx.database.db);
  admin = await person(ctx, { ruolo: 'admin' });
});

const db = () => ctx.database.db;
const bikeRow = async (id: number) => (await db().select().from(biciclette).where(eq(biciclette.id, id)))[0]!;
const setState = (id: number, stato: string) => call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${id}`, { stato });
const availableIds = async (u: Person, window = { dataPrenotazione: TOMORROW, orarioInizio: '14:00', orarioFine: '16:00' }) =>
  (await call(ctx.app, u, 'POST', '/api/biciclette/available', window)).json().map((b: { id: number }) => b.id);

/** An external user's booking tomorrow, paid with the simulated provider's test card. */
async function paidBooking(biciId: number, who?: Person) {
  const u = who ?? (await person(ctx, { residente: false }));
  const bookingId = await bookThroughApi(ctx.app, u, biciId);
  await payThroughApi(ctx.app, db(), u, bookingId);
  return { u, bookingId };
}

describe('PUT /api/admin/biciclette/:id', () => {
  it('to maintenance: a booking of the next 24 hours moves to a free bike (issue 35), one further ahead stays; the answer says so; the bike leaves availability', async () => {
    const bike = await insertBike(db(), { numero: '5' });
    const spare = await insertBike(db(), { numero: '6' });
    const rider = await person(ctx, { nome: 'Giorgio' });
    const soon = await insertBooking(db(), { userId: rider.id, biciId: bike, date: TOMORROW, from: '08:00', to: '09:00' });
    // After the 24 hours (now is 21/11 10:00 in Rome): it moves when it comes within them.
    const later = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date: '2026-11-23', from: '10:00', to: '11:00' });
    // A finished booking of the bike is not "future" and is not touched.
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'completata' });
    expect(await availableIds(rider)).toContain(bike);

    const res = await setState(bike, 'manutenzione');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      bike: { id: bike, numero: '5', modello: 'City Bike', stato: 'manutenzione', sedeId: expect.any(Number), updatedAt: TEST_NOW.toISOString() },
      futureBookings: 1,
      notifiedUsers: 1,
      spostate: 1,
      annullate: 0,
      message: 'Stato aggiornato. 1 prenotazione spostata, 0 annullate',
    });
    const rows = await db().select({ id: prenotazioni.id, biciId: prenotazioni.biciId, stato: prenotazioni.stato }).from(prenotazioni);
    expect(rows.find((r) => r.id === soon)).toEqual({ id: soon, biciId: spare, stato: 'attiva' });
    expect(rows.find((r) => r.id === later)).toEqual({ id: later, biciId: bike, stato: 'attiva' });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({
      to: rider.email,
      subject: 'La tua prenotazione è stata spostata sulla bici n. 6: la bici n. 5 è fuori uso',
    });
    expect(mailer.sent[0]!.html).toContain('Giorgio');
    expect(await availableIds(rider)).not.toContain(bike);
    const audits = await auditRows(db());
    expect(audits.find((a) => a.action === 'bike.update')).toMatchObject({
      entity: 'bike',
      entityId: String(bike),
      before: expect.objectContaining({ stato: 'disponibile' }),
      after: expect.objectContaining({ stato: 'manutenzione', spostate: 1, annullate: 0, futureBookings: 1 }),
    });
    expect(audits.find((a) => a.action === 'booking.move')).toMatchObject({
      actorId: null,
      actorEmail: 'Sistema',
      entityId: String(soon),
      after: { biciNumero: '6', causa: 'guasto' },
    });
    // Back to available: nothing moves, back in the list.
    const back = await setState(bike, 'disponibile');
    expect(back.json()).toMatchObject({ futureBookings: 0, notifiedUsers: 0, spostate: 0, annullate: 0, message: 'Stato aggiornato.' });
    expect(mailer.sent).toHaveLength(1);
    expect(await availableIds(rider)).toContain(bike);
  });

  it('out of service with no free bike: the bookings of the next 24 hours are cancelled, refunded if paid; plural message', async () => {
    const bike = await insertBike(db());
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: bike, date: TOMORROW, from: '08:00', to: '09:00' });
    // Within the 24 hours (now is 21/11 10:00 in Rome): 22/11 09:00.
    const payer = await person(ctx, { residente: false });
    const paid = await bookThroughApi(ctx.app, payer, bike, { orarioInizio: '09:00', orarioFine: '09:30' });
    await payThroughApi(ctx.app, db(), payer, paid);
    const res = await setState(bike, 'fuori_servizio');
    expect(res.json()).toMatchObject({ spostate: 0, annullate: 2, notifiedUsers: 2, message: 'Stato aggiornato. 0 prenotazioni spostate, 2 annullate' });
    expect(await db().select({ stato: prenotazioni.stato, motivo: prenotazioni.motivoCancellazione }).from(prenotazioni)).toEqual([
      { stato: 'cancellata', motivo: 'bici_guasta' },
      { stato: 'cancellata', motivo: 'bici_guasta' },
    ]);
    expect((await paymentOf(db(), paid))?.status).toBe('refunded');
    const toPayer = mailer.sent.find((m) => m.to === payer.email)!;
    expect(toPayer.subject).toBe('La tua prenotazione è stata annullata');
    expect(toPayer.text).toContain('Il pagamento di 2,50 € ti è stato rimborsato.');
    expect(toPayer.text).toContain('Prenota un’altra fascia');
  });

  it('validation and unknown bikes', async () => {
    const bike = await insertBike(db());
    const bad = await setState(bike, 'rotta');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Stato non valido');
    expect((await setState(4242, 'disponibile')).statusCode).toBe(404);
  });

  it('an admin’s prenotata survives the life cycle; a bike the life cycle marked is freed after its ride', async () => {
    const manual = await insertBike(db());
    const auto = await insertBike(db());
    const rider = await person(ctx);
    const ride = await insertBooking(db(), {
      userId: rider.id,
      biciId: auto,
      date: '2026-11-21',
      from: '09:30',
      to: '11:00',
      ritirataAt: new Date('2026-11-21T08:30:00Z'),
    });
    expect((await setState(manual, 'prenotata')).json().bike.stato).toBe('prenotata');

    // Now (10:00) the ride on `auto` is in progress: the life cycle marks it.
    await call(ctx.app, admin, 'GET', '/api/admin/biciclette');
    expect(await bikeRow(auto)).toMatchObject({ stato: 'prenotata', statoAuto: true });
    expect(await bikeRow(manual)).toMatchObject({ stato: 'prenotata', statoAuto: false });

    // After the ride (returned, decision 022), hours later: only the bike the life cycle marked is free again.
    ctx.clock.set(new Date(TEST_NOW.getTime() + 3 * HOUR));
    expect((await call(ctx.app, rider, 'POST', `/api/prenotazioni/${ride}/riconsegna`)).statusCode).toBe(200);
    const bikes = (await call(ctx.app, admin, 'GET', '/api/admin/biciclette')).json();
    expect(bikes.find((b: { id: number }) => b.id === auto).stato).toBe('disponibile');
    expect(bikes.find((b: { id: number }) => b.id === manual).stato).toBe('prenotata');
    // The probe agrees with the job: nothing is due, and a run of the job changes nothing.
    expect(await ensureLifecycle(db(), ctx.clock.now(), 30)).toBe(false);
    expect(await applyLifecycle(db(), ctx.clock.now(), 30)).toMatchObject({ bikesFreed: 0 });
    expect((await bikeRow(manual)).stato).toBe('prenotata');
  });

  it('an admin setting a marked bike by hand takes it over', async () => {
    const bike = await insertBike(db());
    await insertBooking(db(), {
      userId: (await person(ctx)).id,
      biciId: bike,
      date: '2026-11-21',
      from: '09:30',
      to: '11:00',
      ritirataAt: new Date('2026-11-21T08:30:00Z'),
    });
    await call(ctx.app, admin, 'GET', '/api/admin/biciclette');
    await minuteJob(ctx);
    expect((await bikeRow(bike)).statoAuto).toBe(true);
    await setState(bike, 'prenotata');
    ctx.clock.set(new Date(TEST_NOW.getTime() + 3 * HOUR));
    await call(ctx.app, admin, 'GET', '/api/admin/biciclette');
    await minuteJob(ctx);
    expect(await bikeRow(bike)).toMatchObject({ stato: 'prenotata', statoAuto: false });
  });
});

describe('POST /api/admin/biciclette', () => {
  it('adds a bike (201, available); a number in use is 409', async () => {
    const res = await call(ctx.app, admin, 'POST', '/api/admin/biciclette', { numero: ' 21 ', modello: 'Mountain Bike' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ numero: '21', modello: 'Mountain Bike', stato: 'disponibile' });
    const dup = await call(ctx.app, admin, 'POST', '/api/admin/biciclette', { numero: '21', modello: 'City Bike' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Esiste già una bicicletta con questo numero');
    const empty = await call(ctx.app, admin, 'POST', '/api/admin/biciclette', { numero: '', modello: 'City Bike' });
    expect(empty.json().message).toBe('Il numero è obbligatorio');
    expect((await auditRows(db())).map((r) => r.action)).toEqual(['bike.create']);
  });
});

describe('deleting bookings and users keeps the accounts true', () => {
  it('a paid booking: refunded once, deleted, its payment kept detached and countable', async () => {
    const bike = await insertBike(db());
    const { u, bookingId } = await paidBooking(bike);
    const res = await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${bookingId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: bookingId, refunded: true });
    expect(await db().select().from(prenotazioni)).toHaveLength(0);
    expect(await db().select().from(simulatedRefunds)).toHaveLength(1);
    const payments = await db().select().from(pagamenti);
    expect(payments).toEqual([
      expect.objectContaining({
        prenotazioneId: null,
        status: 'refunded',
        amount: 250,
        bookingDate: TOMORROW,
        bookingDeletedAt: TEST_NOW,
        refundedAt: TEST_NOW,
      }),
    ]);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${bookingId}`)).statusCode).toBe(404);
    expect(await db().select().from(simulatedRefunds)).toHaveLength(1);
    expect((await call(ctx.app, u, 'GET', '/api/prenotazioni/user')).json()).toEqual([]);
    const [audit] = await auditRows(db());
    expect(audit).toMatchObject({ action: 'booking.delete', entityId: String(bookingId), after: { refunded: true } });
    // The bike is free for a new booking of that window.
    await bookThroughApi(ctx.app, await person(ctx), bike);
  });

  it('an unpaid booking: its pending payment is closed as failed and kept', async () => {
    const u = await person(ctx, { residente: false });
    const bookingId = await bookThroughApi(ctx.app, u, await insertBike(db()));
    const res = await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${bookingId}`);
    expect(res.json()).toEqual({ id: bookingId, refunded: false });
    expect(await db().select().from(pagamenti).where(isNull(pagamenti.prenotazioneId))).toEqual([
      expect.objectContaining({ status: 'failed', bookingDate: TOMORROW }),
    ]);
  });

  it('a refund that fails: 502, nothing changes', async () => {
    const { bookingId } = await paidBooking(await insertBike(db()));
    const provider = ctx.app.deps.payments;
    const refund = provider.refund;
    provider.refund = () => Promise.reject(new ProviderError('down'));
    try {
      const res = await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${bookingId}`);
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('REFUND_FAILED');
    } finally {
      provider.refund = refund;
    }
    expect(await db().select().from(prenotazioni)).toHaveLength(1);
    expect(await paymentOf(db(), bookingId)).toMatchObject({ status: 'completed', bookingDeletedAt: null });
    expect(await auditRows(db())).toHaveLength(0);
  });

  it('a user: the future paid booking is refunded, a ride already taken is not; both payments stay', async () => {
    const bike = await insertBike(db());
    const u = await person(ctx, { residente: false });
    // A ride taken and paid the day before (written directly).
    const past = await insertBooking(db(), { userId: u.id, biciId: bike, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'completata' });
    await db().insert(pagamenti).values({
      prenotazioneId: past,
      provider: 'simulated',
      status: 'completed',
      providerPaymentId: 'pi_sim_past',
      completedAt: new Date('2026-11-20T08:00:00Z'),
    });
    const { bookingId } = await paidBooking(bike, u);
    const res = await call(ctx.app, admin, 'DELETE', `/api/admin/users/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: u.id, deletedBookings: 2, refundedPayments: 1 });
    const payments = await db().select().from(pagamenti).orderBy(pagamenti.bookingDate);
    expect(payments).toEqual([
      expect.objectContaining({ prenotazioneId: null, status: 'completed', bookingDate: '2026-11-20', providerPaymentId: 'pi_sim_past' }),
      expect.objectContaining({ prenotazioneId: null, status: 'refunded', bookingDate: TOMORROW }),
    ]);
    expect(await db().select().from(simulatedRefunds)).toHaveLength(1);
    expect(bookingId).toBeGreaterThan(past);
  });
});
