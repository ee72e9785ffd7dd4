import { describe, expect, it } from 'vitest';
import { tFor } from '../../shared/i18n/all';
import type { BookingDto } from '../../shared/schemas/booking';
import { newRideAction, type QueuedAction } from './actions';
import { applyPendingActions, lastSyncText, refusedActions } from './offline-model';

const ROME = 'Europe/Rome';

describe('the last sync', () => {
  const now = new Date('2026-05-04T15:00:00.000Z'); // 17:00 in Rome

  it('says the time of the last successful read on the college’s clock', () => {
    expect(lastSyncText(Date.parse('2026-05-04T08:42:30.000Z'), now, ROME, tFor('it'), 'it')).toBe('Ultimo aggiornamento alle 10:42');
  });

  it('says yesterday, or the day, for an older copy', () => {
    expect(lastSyncText(Date.parse('2026-05-03T19:05:00.000Z'), now, ROME, tFor('it'), 'it')).toBe('Ultimo aggiornamento ieri alle 21:05');
    expect(lastSyncText(Date.parse('2026-04-28T07:00:00.000Z'), now, ROME, tFor('it'), 'it')).toBe('Ultimo aggiornamento il 28 aprile alle 09:00');
    expect(lastSyncText(Date.parse('2025-12-30T07:00:00.000Z'), now, ROME, tFor('it'), 'it')).toBe('Ultimo aggiornamento il 30 dicembre 2025 alle 08:00');
  });

  it('counts days in the college’s time zone, not the device’s', () => {
    // 23:30 UTC on the 3rd is already 01:30 of the 4th in Rome: today.
    expect(lastSyncText(Date.parse('2026-05-03T23:30:00.000Z'), now, ROME, tFor('it'), 'it')).toBe('Ultimo aggiornamento alle 01:30');
  });

  it('has nothing to say when nothing was ever read', () => {
    expect(lastSyncText(0, now, ROME, tFor('it'), 'it')).toBeNull();
    expect(lastSyncText(Number.NaN, now, ROME, tFor('it'), 'it')).toBeNull();
  });
});

const booking = (over: Partial<BookingDto> = {}): BookingDto => ({
  id: 11,
  dataPrenotazione: '2026-05-04',
  orarioInizio: '10:30',
  orarioFine: '11:30',
  destinazione: null,
  biciId: 3,
  biciNumero: '12',
  biciModello: 'Gravel',
  sedeId: 1,
  stato: 'attiva',
  paymentStatus: null,
  createdAt: '2026-05-03T10:00:00.000Z',
  ritirataAt: null,
  riconsegnataAt: null,
  motivoCancellazione: null,
  fase: 'da_ritirare',
  ritiroDa: '2026-05-04T08:20:00.000Z',
  danno: null,
  lucchetto: 'nessuno',
  spostata: null,
  biciAssente: false,
  aspetta: false,
  ...over,
});

const tap = (over: Partial<QueuedAction>, at: string): QueuedAction => ({
  ...newRideAction({ tipo: 'ritiro', prenotazioneId: 11, userId: 7, biciNumero: '12' }, new Date(at)),
  ...over,
});

describe('the steps waiting on the device, on the cards', () => {
  it('a waiting pick-up makes the ride in progress from the tap, so the return can be tapped offline too', () => {
    const pickUp = tap({}, '2026-05-04T08:42:10.000Z');
    const [view] = applyPendingActions([booking()], [pickUp]);
    expect(view).toMatchObject({ fase: 'in_corso', ritirataAt: '2026-05-04T08:42:10.000Z', inAttesa: pickUp });
  });

  it('a waiting return records its time and is the step the card shows', () => {
    const pickUp = tap({}, '2026-05-04T08:42:10.000Z');
    const giveBack = tap({ tipo: 'riconsegna' }, '2026-05-04T09:20:00.000Z');
    const [view] = applyPendingActions([booking()], [pickUp, giveBack]);
    expect(view).toMatchObject({
      fase: 'in_corso',
      ritirataAt: '2026-05-04T08:42:10.000Z',
      riconsegnataAt: '2026-05-04T09:20:00.000Z',
      inAttesa: giveBack,
    });
  });

  it('keeps what the server already says, and leaves other bookings alone', () => {
    const giveBack = tap({ tipo: 'riconsegna' }, '2026-05-04T09:20:00.000Z');
    const [ride, other] = applyPendingActions(
      [booking({ fase: 'in_ritardo', ritirataAt: '2026-05-04T08:30:00.000Z' }), booking({ id: 12 })],
      [giveBack],
    );
    expect(ride).toMatchObject({ fase: 'in_ritardo', ritirataAt: '2026-05-04T08:30:00.000Z', inAttesa: giveBack });
    expect(other).toMatchObject({ fase: 'da_ritirare', inAttesa: null });
  });

  it('a refused step changes nothing on the card: it is shown apart until read', () => {
    const refused = tap({ stato: 'rifiutata', messaggio: 'La prenotazione non è più attiva' }, '2026-05-04T08:42:10.000Z');
    const [view] = applyPendingActions([booking()], [refused]);
    expect(view).toMatchObject({ fase: 'da_ritirare', ritirataAt: null, inAttesa: null });
    expect(refusedActions([refused, tap({}, '2026-05-04T08:50:00.000Z')])).toEqual([refused]);
  });
});
