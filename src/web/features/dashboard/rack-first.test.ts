import { describe, expect, it } from 'vitest';
import type { BookingDto } from '../../../shared/schemas/booking';
import { bookingAtRack, firstPickUpOpening } from './dashboard-model';

/*
 * At the rack, the booking comes first (issue 51, decision 060): which booking the dashboard
 * opens on, from the phase the server computed (`fase`) and the instant `Ritirata` is allowed
 * from (`ritiroDa`). The screen itself: tests/e2e/dashboard-rack-first.spec.ts.
 */

let nextId = 1;
function booking(overrides: Partial<BookingDto> = {}): BookingDto {
  return {
    id: nextId++,
    dataPrenotazione: '2026-11-22',
    orarioInizio: '08:00',
    orarioFine: '18:00',
    destinazione: null,
    biciId: 1,
    biciNumero: '01',
    biciModello: 'City Bike Classic',
    sedeId: 1,
    stato: 'attiva',
    paymentStatus: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    ritirataAt: null,
    riconsegnataAt: null,
    motivoCancellazione: null,
    fase: 'da_ritirare',
    ritiroDa: '2026-11-22T06:50:00.000Z',
    danno: null,
    lucchetto: 'combinazione',
    spostata: null,
    biciAssente: false,
    aspetta: false,
    ...overrides,
  };
}

const at = (iso: string) => new Date(iso);

describe('the booking at the rack', () => {
  it('is a ride in progress, on time or late, whatever the clock', () => {
    const riding = booking({ fase: 'in_corso', ritirataAt: '2026-11-22T06:55:00.000Z' });
    expect(bookingAtRack([riding], at('2026-11-22T05:00:00.000Z'))).toBe(riding);
    const late = booking({ fase: 'in_ritardo', ritirataAt: '2026-11-22T06:55:00.000Z' });
    expect(bookingAtRack([late], at('2026-11-22T20:00:00.000Z'))).toBe(late);
  });

  it('is a booking not picked up from the instant its pick-up window opens, not a millisecond before', () => {
    const waiting = booking({ ritiroDa: '2026-11-22T06:50:00.000Z' });
    expect(bookingAtRack([waiting], at('2026-11-22T06:49:59.999Z'))).toBeUndefined();
    expect(bookingAtRack([waiting], at('2026-11-22T06:50:00.000Z'))).toBe(waiting);
    expect(bookingAtRack([waiting], at('2026-11-22T07:30:00.000Z'))).toBe(waiting);
  });

  it('is the ride in progress before a booking whose window is open; none without an active booking', () => {
    const open = booking({ ritiroDa: '2026-11-22T06:50:00.000Z' });
    const riding = booking({ fase: 'in_corso', ritirataAt: '2026-11-22T06:55:00.000Z' });
    expect(bookingAtRack([open, riding], at('2026-11-22T07:00:00.000Z'))).toBe(riding);
    expect(bookingAtRack([], at('2026-11-22T07:00:00.000Z'))).toBeUndefined();
  });

  it('the clock is looked at again when the first window not yet open opens', () => {
    expect(firstPickUpOpening([])).toBeNull();
    const later = booking({ ritiroDa: '2026-11-23T06:50:00.000Z' });
    const sooner = booking({ ritiroDa: '2026-11-22T06:50:00.000Z' });
    const riding = booking({ fase: 'in_corso', ritiroDa: '2026-11-21T06:50:00.000Z' });
    expect(firstPickUpOpening([later, riding, sooner])).toBe(Date.parse('2026-11-22T06:50:00.000Z'));
    expect(firstPickUpOpening([riding])).toBeNull();
  });
});
