import { beforeAll, describe, expect, it } from 'vitest';
import { DOMAINS } from '../../../shared/i18n';
import { loadDomains } from '../../lib/i18n';
import type { BikeDto, BookingDto } from '../../../shared/schemas/booking';
import { tFor } from '../../../shared/i18n/all';
import { availabilityWindow, validateBookingForm } from './booking-validation';
import {
  bookingDateBounds,
  dashboardStats,
  defaultBookingForm,
  formatBookingDate,
  formatEuroCents,
  formatTimeRange,
  BOOKING_PHASE_BADGE,
  pastRideNote,
  paymentDisplay,
  pickUpState,
  selectActiveBookings,
  selectPastBookings,
  validateReturnForm,
} from './dashboard-model';

// The badges are put into the app's language (Italian here): its texts loaded first.
beforeAll(() => loadDomains(...DOMAINS));

let nextId = 1;
function booking(overrides: Partial<BookingDto> = {}): BookingDto {
  const id = nextId++;
  return {
    id,
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
    lucchetto: 'nessuno',
    spostata: null,
    biciAssente: false,
    aspetta: false,
    ...overrides,
  };
}

function bike(stato: BikeDto['stato'], id = nextId++): BikeDto {
  return { id, numero: String(id).padStart(2, '0'), modello: 'City Bike', stato, sedeId: 1, updatedAt: '2026-11-20T10:00:00.000Z' };
}

describe('selecting bookings', () => {
  it('keeps the active bookings, soonest first', () => {
    const later = booking({ dataPrenotazione: '2026-11-23' });
    const sooner = booking({ dataPrenotazione: '2026-11-22', orarioInizio: '14:00' });
    const soonest = booking({ dataPrenotazione: '2026-11-22', orarioInizio: '09:00' });
    const list = [later, booking({ stato: 'completata' }), sooner, booking({ stato: 'cancellata' }), soonest];
    expect(selectActiveBookings(list)).toEqual([soonest, sooner, later]);
  });

  it('keeps the last three completed bookings, latest first, and ignores the others', () => {
    const done = ['2026-10-01', '2026-10-05', '2026-09-30', '2026-10-03'].map((d) =>
      booking({ stato: 'completata', dataPrenotazione: d }),
    );
    const list = [booking(), booking({ stato: 'cancellata', dataPrenotazione: '2026-10-10' }), ...done];
    expect(selectPastBookings(list).map((b) => b.dataPrenotazione)).toEqual(['2026-10-05', '2026-10-03', '2026-10-01']);
    expect(selectPastBookings(list, 1)).toHaveLength(1);
    expect(selectPastBookings([booking()])).toEqual([]);
  });

  it('counts a booking released as a no-show among the past ones, not other cancellations', () => {
    const noShow = booking({ stato: 'cancellata', motivoCancellazione: 'mancato_ritiro', fase: 'cancellata', dataPrenotazione: '2026-10-09' });
    const byUser = booking({ stato: 'cancellata', motivoCancellazione: 'utente', fase: 'cancellata', dataPrenotazione: '2026-10-10' });
    const done = booking({ stato: 'completata', fase: 'conclusa', dataPrenotazione: '2026-10-08' });
    expect(selectPastBookings([done, byUser, noShow])).toEqual([noShow, done]);
  });

  it('counts a booking the fleet cancelled among the past ones (issue 35)', () => {
    const late = booking({ stato: 'cancellata', motivoCancellazione: 'bici_non_rientrata', fase: 'cancellata', dataPrenotazione: '2026-10-11' });
    const broken = booking({ stato: 'cancellata', motivoCancellazione: 'bici_guasta', fase: 'cancellata', dataPrenotazione: '2026-10-12' });
    const byAdmin = booking({ stato: 'cancellata', motivoCancellazione: 'admin', fase: 'cancellata', dataPrenotazione: '2026-10-13' });
    expect(selectPastBookings([late, byAdmin, broken])).toEqual([broken, late]);
  });

  it('does not reorder the list it is given', () => {
    const list = [booking({ dataPrenotazione: '2026-12-01' }), booking({ dataPrenotazione: '2026-11-01' })];
    const copy = [...list];
    selectActiveBookings(list);
    expect(list).toEqual(copy);
  });
});

describe('dashboardStats', () => {
  it('counts active bookings, available bikes, kept bookings and names the account type', () => {
    const bookings = [booking(), booking({ stato: 'completata' }), booking({ stato: 'completata' }), booking({ stato: 'cancellata' })];
    const bikes = [bike('disponibile'), bike('prenotata'), bike('manutenzione'), bike('disponibile'), bike('fuori_servizio')];
    expect(dashboardStats(bookings, bikes, { isResidente: true })).toEqual({
      activeBookings: 1,
      availableBikes: 2,
      totalBookings: 3,
      accountType: 'Residente',
    });
    expect(dashboardStats([], [], { isResidente: false })).toEqual({
      activeBookings: 0,
      availableBikes: 0,
      totalBookings: 0,
      accountType: 'Esterno',
    });
  });
});

describe('display', () => {
  it('writes dates in Italian with the weekday, without shifting the day in any time zone', () => {
    expect(formatBookingDate('2026-11-22')).toBe('domenica 22 novembre 2026');
    expect(formatBookingDate('2027-01-01')).toBe('venerdì 1 gennaio 2027');
    expect(formatBookingDate('non-una-data')).toBe('non-una-data');
  });

  it('formats the fee and the time range', () => {
    expect(formatEuroCents(250)).toBe('2,50\u00a0€');
    expect(formatTimeRange('10:00', '12:00')).toBe('10:00–12:00');
  });

  it('maps each payment status to a pay link or a label', () => {
    expect(paymentDisplay({ id: 42, paymentStatus: 'pending' })).toEqual({
      kind: 'pay',
      href: '/payment/42',
      label: 'Paga 2,50\u00a0€',
    });
    expect(paymentDisplay({ id: 1, paymentStatus: 'completed' })).toMatchObject({ kind: 'label', label: 'Pagata' });
    expect(paymentDisplay({ id: 1, paymentStatus: 'refunded' })).toMatchObject({ kind: 'label', label: 'Rimborsata' });
    expect(paymentDisplay({ id: 1, paymentStatus: null })).toMatchObject({ kind: 'label', label: 'Gratuita' });
    expect(paymentDisplay({ id: 1, paymentStatus: 'failed' })).toMatchObject({ kind: 'label' });
  });
});

describe('the booking form', () => {
  it('starts from today, 08:00 to 18:00, no destination and no bike', () => {
    // 07:30 in Rome.
    expect(defaultBookingForm(new Date('2026-11-22T06:30:00Z'), 'Europe/Rome')).toEqual({
      dataPrenotazione: '2026-11-22',
      orarioInizio: '08:00',
      orarioFine: '18:00',
      destinazione: '',
      biciId: null,
    });
    expect(defaultBookingForm(new Date('2026-11-22T07:00:00Z'), 'Europe/Rome').orarioInizio).toBe('08:00');
  });

  it('never proposes a start that has passed: the next quarter hour, or tomorrow late at night', () => {
    const at = (iso: string) => {
      const { dataPrenotazione, orarioInizio, orarioFine } = defaultBookingForm(new Date(iso), 'Europe/Rome');
      return [dataPrenotazione, orarioInizio, orarioFine];
    };
    expect(at('2026-11-22T08:40:00Z')).toEqual(['2026-11-22', '09:45', '18:00']); // 09:40 in Rome
    expect(at('2026-11-22T08:45:00Z')).toEqual(['2026-11-22', '10:00', '18:00']); // 09:45 exactly
    expect(at('2026-11-22T07:00:30Z')).toEqual(['2026-11-22', '08:15', '18:00']); // 08:00:30: 08:00 has passed
    expect(at('2026-11-22T16:20:00Z')).toEqual(['2026-11-22', '17:30', '18:30']);
    expect(at('2026-11-22T21:50:00Z')).toEqual(['2026-11-22', '23:00', '23:59']);
    expect(at('2026-11-22T22:05:00Z')).toEqual(['2026-11-23', '08:00', '18:00']); // 23:05
  });

  it("bounds the date from today in the college's time zone to the horizon", () => {
    // 23:30 UTC on 21 November is already 22 November in Rome.
    const now = new Date('2026-11-21T23:30:00Z');
    expect(bookingDateBounds(now, 'Europe/Rome', 30)).toEqual({ min: '2026-11-22', max: '2026-12-22' });
    expect(bookingDateBounds(now, 'UTC', 0)).toEqual({ min: '2026-11-21', max: '2026-11-21' });
    expect(bookingDateBounds(now, 'Europe/Rome', undefined)).toEqual({ min: '2026-11-22', max: undefined });
  });

  it('asks for available bikes only once date and both times are set and coherent', () => {
    const values = defaultBookingForm(new Date('2026-11-22T06:00:00Z'), 'Europe/Rome');
    expect(availabilityWindow(values)).toEqual({ dataPrenotazione: '2026-11-22', orarioInizio: '08:00', orarioFine: '18:00' });
    expect(availabilityWindow({ ...values, dataPrenotazione: '' })).toBeNull();
    expect(availabilityWindow({ ...values, orarioFine: '' })).toBeNull();
    expect(availabilityWindow({ ...values, orarioInizio: '18:00', orarioFine: '10:00' })).toBeNull();
  });

  it('asks for a date and a bike with the messages of spec §5', () => {
    const result = validateBookingForm({ ...defaultBookingForm(new Date('2026-11-22T06:00:00Z'), 'Europe/Rome'), dataPrenotazione: '', biciId: null });
    expect(result).toEqual({
      ok: false,
      first: 'dataPrenotazione',
      errors: { dataPrenotazione: 'Seleziona una data per la prenotazione', biciId: 'Seleziona una bicicletta' },
    });
  });

  it('rejects an end before the start and a bike no longer available', () => {
    const values = { ...defaultBookingForm(new Date('2026-11-22T06:00:00Z'), 'Europe/Rome'), orarioInizio: '12:00', orarioFine: '10:00', biciId: 3 };
    const result = validateBookingForm(values, new Set([1, 2]));
    expect(result).toMatchObject({
      ok: false,
      first: 'orarioFine',
      errors: { orarioFine: "L'orario di fine deve essere successivo all'orario di inizio", biciId: 'Seleziona una bicicletta' },
    });
  });

  it('returns the request the server expects, with the destination trimmed or null', () => {
    const values = { ...defaultBookingForm(new Date('2026-11-22T06:00:00Z'), 'Europe/Rome'), destinazione: '  centro città ', biciId: 5 };
    expect(validateBookingForm(values, new Set([5]))).toEqual({
      ok: true,
      request: { dataPrenotazione: '2026-11-22', orarioInizio: '08:00', orarioFine: '18:00', destinazione: 'centro città', biciId: 5 },
    });
    expect(validateBookingForm({ ...values, destinazione: '   ' })).toMatchObject({ ok: true, request: { destinazione: null } });
  });
});

describe('the ride', () => {
  const ROME = 'Europe/Rome';

  it('names each phase, the late one as a danger', () => {
    const italian = tFor('it');
    expect(italian(BOOKING_PHASE_BADGE.da_ritirare.labelKey)).toBe('Da ritirare');
    expect(italian(BOOKING_PHASE_BADGE.in_corso.labelKey)).toBe('In corso');
    expect(BOOKING_PHASE_BADGE.in_ritardo.tone).toBe('danger');
    expect(italian(BOOKING_PHASE_BADGE.in_ritardo.labelKey)).toBe('In ritardo');
  });

  it('allows the pick-up from ritiroDa, and before that says from when on the college clock', () => {
    const b = { ritiroDa: '2026-11-22T06:50:00.000Z' }; // 07:50 in Rome
    expect(pickUpState(b, new Date('2026-11-22T06:30:00Z'), ROME)).toEqual({
      kind: 'early',
      hint: 'Potrai ritirarla dalle 07:50',
      at: Date.parse('2026-11-22T06:50:00Z'),
    });
    expect(pickUpState(b, new Date('2026-11-22T06:50:00Z'), ROME)).toEqual({ kind: 'ready' });
    expect(pickUpState(b, new Date('2026-11-22T09:00:00Z'), ROME)).toEqual({ kind: 'ready' });
    // Summer time: 07:50 in Rome is 05:50 UTC.
    expect(pickUpState({ ritiroDa: '2026-07-01T05:50:00Z' }, new Date('2026-07-01T05:00:00Z'), ROME)).toMatchObject({
      hint: 'Potrai ritirarla dalle 07:50',
    });
  });

  it('says a past booking was not picked up, or when it was returned', () => {
    expect(pastRideNote({ stato: 'cancellata', motivoCancellazione: 'mancato_ritiro', riconsegnataAt: null }, ROME)).toEqual({
      label: 'Non ritirata',
      tone: 'warning',
    });
    expect(pastRideNote({ stato: 'completata', motivoCancellazione: null, riconsegnataAt: '2026-11-22T16:05:00Z' }, ROME)).toEqual({
      label: 'Riconsegnata alle 17:05',
      tone: 'info',
    });
    expect(pastRideNote({ stato: 'cancellata', motivoCancellazione: 'bici_non_rientrata', riconsegnataAt: null }, ROME)).toEqual({
      label: 'Annullata: bici non rientrata',
      tone: 'warning',
    });
    expect(pastRideNote({ stato: 'cancellata', motivoCancellazione: 'bici_guasta', riconsegnataAt: null }, ROME)).toEqual({
      label: 'Annullata: bici fuori uso',
      tone: 'warning',
    });
    expect(pastRideNote({ stato: 'cancellata', motivoCancellazione: 'utente', riconsegnataAt: null }, ROME)).toBeNull();
    // Completed before issue 13: nothing to add.
    expect(pastRideNote({ stato: 'completata', motivoCancellazione: null, riconsegnataAt: null }, ROME)).toBeNull();
  });

  it('returns without a report, or asks for a category and a short text', () => {
    expect(validateReturnForm({ segnalaDanno: false, categoria: '', descrizione: 'ignorato' })).toEqual({ ok: true, request: {} });
    expect(validateReturnForm({ segnalaDanno: true, categoria: '', descrizione: '  ' })).toEqual({
      ok: false,
      errors: { categoria: 'Scegli il tipo di danno', descrizione: 'Descrivi il danno' },
    });
    expect(validateReturnForm({ segnalaDanno: true, categoria: 'freni', descrizione: 'x'.repeat(501) })).toEqual({
      ok: false,
      errors: { descrizione: 'Al massimo 500 caratteri' },
    });
    expect(validateReturnForm({ segnalaDanno: true, categoria: 'freni', descrizione: ' Il freno posteriore non frena ' })).toEqual({
      ok: true,
      request: { danno: { categoria: 'freni', descrizione: 'Il freno posteriore non frena' } },
    });
  });
});
