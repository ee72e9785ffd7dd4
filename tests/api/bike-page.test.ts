import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BikePageDto } from '../../src/shared/schemas/bike-page.js';
import { call, person, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';

/**
 * GET /api/biciclette/numero/:numero (issue 34, decision 044): the page a bike's QR code opens.
 * The bike's state now for anyone logged in; the caller's own booking of it only from its
 * pick-up window (10 minutes before the start) until the return; never anyone else's.
 * TEST_NOW is 2026-11-21 09:00 UTC, 10:00 in Rome; the clock is set to chosen instants.
 */
let ctx: TestContext;
let holder: Person;
let other: Person;
let bike07: number;
let bike08: number;

/** `hh:mm` on 2026-11-21 in Rome (UTC+1) as an instant. */
const rome = (hhmm: string) => new Date(`2026-11-21T${hhmm}:00+01:00`);

beforeAll(async () => {
  ctx = await createTestApp();
  holder = await person(ctx, { nome: 'Giulia', cognome: 'Titolare', email: 'giulia.titolare@example.it' });
  other = await person(ctx, { nome: 'Marco', cognome: 'Passante', email: 'marco.passante@example.it' });
  bike07 = await insertBike(ctx.database.db, { numero: '07' });
  bike08 = await insertBike(ctx.database.db, { numero: '08' });
  await insertBike(ctx.database.db, { numero: 'City 12' });
  await insertBike(ctx.database.db, { numero: '13', stato: 'fuori_servizio' });
});
afterAll(async () => ctx?.close());

async function page(who: Person | null, numero: string, at: Date) {
  ctx.clock.set(at);
  return call(ctx.app, who, 'GET', `/api/biciclette/numero/${encodeURIComponent(numero)}`);
}

async function pageOf(who: Person, numero: string, at: Date): Promise<BikePageDto> {
  const res = await page(who, numero, at);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BikePageDto>();
}

/** What a person who does not hold the booking must never see of it. */
function expectNothingOf(body: string, bookingId: number) {
  for (const secret of [holder.email, 'Giulia', 'Titolare', `"id":${bookingId}`, 'prenotazioneCorrente":{']) expect(body).not.toContain(secret);
}

describe('GET /api/biciclette/numero/:numero', () => {
  it('the holder sees their booking from the pick-up window to the return; another user never does', async () => {
    const id = await insertBooking(ctx.database.db, { userId: holder.id, biciId: bike07, date: '2026-11-21', from: '10:30', to: '12:00' });

    // 10:19: the pick-up window (10:20) is not open yet. The bike is free until the booking.
    const before = await pageOf(holder, '07', rome('10:19'));
    expect(before).toMatchObject({ numero: '07', biciId: bike07, stato: 'libera', liberaFino: rome('10:30').toISOString(), prenotazioneCorrente: null });
    expect(before.prossimaLiberaOggi).toBe(rome('10:19').toISOString());

    // 10:20, to the minute: the holder's card.
    const open = await pageOf(holder, '07', rome('10:20'));
    expect(open.stato).toBe('prenotata');
    expect(open.prenotataDalle).toBe(rome('10:30').toISOString());
    expect(open.prossimaLiberaOggi).toBe(rome('12:00').toISOString());
    expect(open.prenotazioneCorrente).toMatchObject({ id, biciNumero: '07', stato: 'attiva', fase: 'da_ritirare' });
    const seenByOther = await page(other, '07', rome('10:20'));
    expect(seenByOther.json()).toMatchObject({ stato: 'prenotata', prenotazioneCorrente: null });
    expectNothingOf(seenByOther.body, id);

    // Picked up: in progress, then late after 12:00, still the holder's until the return.
    ctx.clock.set(rome('10:25'));
    expect((await call(ctx.app, holder, 'POST', `/api/prenotazioni/${id}/ritiro`)).statusCode).toBe(200);
    const riding = await pageOf(holder, '07', rome('11:00'));
    expect(riding).toMatchObject({ stato: 'in_uso', inUsoFino: rome('12:00').toISOString() });
    expect(riding.prenotazioneCorrente).toMatchObject({ id, fase: 'in_corso' });
    const late = await pageOf(holder, '07', rome('12:30'));
    expect(late).toMatchObject({ stato: 'in_ritardo', prossimaLiberaOggi: null });
    expect(late.prenotazioneCorrente).toMatchObject({ id, fase: 'in_ritardo' });
    const lateForOther = await page(other, '07', rome('12:30'));
    expect(lateForOther.json()).toMatchObject({ stato: 'in_ritardo', prenotazioneCorrente: null });
    expectNothingOf(lateForOther.body, id);

    // Returned: the booking is no longer current; the bike is free.
    expect((await call(ctx.app, holder, 'POST', `/api/prenotazioni/${id}/riconsegna`)).statusCode).toBe(200);
    expect(await pageOf(holder, '07', rome('12:31'))).toMatchObject({ stato: 'libera', prenotazioneCorrente: null });
  });

  it('a booking not picked up is current until its no-show release; the holder\'s booking of another bike is not this bike\'s', async () => {
    const id = await insertBooking(ctx.database.db, { userId: holder.id, biciId: bike08, date: '2026-11-21', from: '14:00', to: '15:00' });
    expect((await pageOf(holder, '08', rome('14:29'))).prenotazioneCorrente).toMatchObject({ id, fase: 'da_ritirare' });
    expect((await pageOf(holder, '07', rome('14:29'))).prenotazioneCorrente).toBeNull();
    // 30 minutes after the start without a pick-up: released (as of now, before the job writes it).
    expect(await pageOf(holder, '08', rome('14:30'))).toMatchObject({ stato: 'libera', prenotazioneCorrente: null });
  });

  it('states without a booking: out of service; a number with a space', async () => {
    expect(await pageOf(other, '13', rome('16:00'))).toMatchObject({ stato: 'fuori_servizio', prossimaLiberaOggi: null, prenotazioneCorrente: null });
    expect(await pageOf(other, 'City 12', rome('16:00'))).toMatchObject({ numero: 'City 12', stato: 'libera', liberaFino: null });
  });

  it('an unknown number: 404 Bicicletta non trovata; a malformed one: 400; nothing without a login', async () => {
    const unknown = await page(other, '99', rome('16:00'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Bicicletta non trovata', code: 'BIKE_NOT_FOUND' });
    for (const bad of [' 07', '07 ', 'x'.repeat(21), '0\u00007', '07\n']) {
      const res = await page(other, bad, rome('16:00'));
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toBe('Numero di bicicletta non valido');
    }
    const anonymous = await page(null, '07', rome('16:00'));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('07');
  });
});

it('TEST_NOW is 10:00 in Rome (the instants above assume it)', () => {
  expect(rome('10:00').getTime()).toBe(TEST_NOW.getTime());
});
