import { format } from 'date-fns';
import { it as italian } from 'date-fns/locale';
import type { SessionUser } from '../../../shared/api-types';
import { DEFAULT_END_TIME, DEFAULT_START_TIME, EXTERNAL_FEE_CENTS, PAST_BOOKINGS_SHOWN } from '../../../shared/constants';
import type { BikeDto, BookingDto, PaymentStatus } from '../../../shared/schemas/booking';
import { formatEuroCents } from '../../../shared/money';
import { addDays, isRealDate, zonedClock, zonedToday } from '../../../shared/time';

/** Used until GET /api/config answers, or if it fails. */
export const FALLBACK_TIME_ZONE = 'Europe/Rome';

// ---------------------------------------------------------------------------------------
// Bookings and stats

const byWhen = (a: BookingDto, b: BookingDto) =>
  a.dataPrenotazione.localeCompare(b.dataPrenotazione) || a.orarioInizio.localeCompare(b.orarioInizio);

/** The user's `attiva` bookings, soonest first. */
export function selectActiveBookings(bookings: readonly BookingDto[]): BookingDto[] {
  return bookings.filter((b) => b.stato === 'attiva').sort(byWhen);
}

/** The most recent `completata` bookings, latest first, at most `limit` (spec §9: 3). */
export function selectPastBookings(bookings: readonly BookingDto[], limit = PAST_BOOKINGS_SHOWN): BookingDto[] {
  return bookings
    .filter((b) => b.stato === 'completata')
    .sort((a, b) => byWhen(b, a))
    .slice(0, limit);
}

export interface DashboardStats {
  activeBookings: number;
  availableBikes: number;
  /** Bookings the user made and kept: active plus completed. Cancelled ones do not count. */
  totalBookings: number;
  accountType: 'Residente' | 'Esterno';
}

export function dashboardStats(
  bookings: readonly BookingDto[],
  bikes: readonly BikeDto[],
  user: Pick<SessionUser, 'isResidente'>,
): DashboardStats {
  return {
    activeBookings: bookings.filter((b) => b.stato === 'attiva').length,
    availableBikes: bikes.filter((b) => b.stato === 'disponibile').length,
    totalBookings: bookings.filter((b) => b.stato !== 'cancellata').length,
    accountType: user.isResidente ? 'Residente' : 'Esterno',
  };
}

// ---------------------------------------------------------------------------------------
// Display

export { formatEuroCents };

export const PAY_BUTTON_LABEL = `Paga ${formatEuroCents(EXTERNAL_FEE_CENTS)}`;

/** "2026-11-22" → "domenica 22 novembre 2026". The date is a calendar day, not an instant. */
export function formatBookingDate(date: string): string {
  if (!isRealDate(date)) return date;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return format(new Date(y, m - 1, d), 'EEEE d MMMM yyyy', { locale: italian });
}

export function formatTimeRange(start: string, end: string): string {
  return `${start}–${end}`;
}

export type BadgeTone = 'success' | 'info' | 'muted' | 'warning' | 'danger';

export const BOOKING_STATO_BADGE: Record<BookingDto['stato'], { label: string; tone: BadgeTone }> = {
  attiva: { label: 'Attiva', tone: 'success' },
  completata: { label: 'Completata', tone: 'info' },
  cancellata: { label: 'Cancellata', tone: 'muted' },
};

export type PaymentDisplay = { kind: 'pay'; href: string; label: string } | { kind: 'label'; label: string; tone: BadgeTone };

/** What a booking shows about its payment (spec §2, behaviour.md §6). */
export function paymentDisplay(booking: Pick<BookingDto, 'id' | 'paymentStatus'>): PaymentDisplay {
  const status: PaymentStatus = booking.paymentStatus;
  switch (status) {
    case 'pending':
      return { kind: 'pay', href: `/payment/${booking.id}`, label: PAY_BUTTON_LABEL };
    case 'completed':
      return { kind: 'label', label: 'Pagata', tone: 'success' };
    case 'refunded':
      return { kind: 'label', label: 'Rimborsata', tone: 'info' };
    case 'failed':
      return { kind: 'label', label: 'Pagamento non riuscito', tone: 'danger' };
    case null:
      return { kind: 'label', label: 'Gratuita', tone: 'muted' };
  }
}

// ---------------------------------------------------------------------------------------
// The new-booking form

export interface BookingFormValues {
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  destinazione: string;
  biciId: number | null;
}

export type BookingFormField = keyof BookingFormValues;
export type BookingFormErrors = Partial<Record<BookingFormField, string>>;

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const toHhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * Spec §4: today, 08:00 to 18:00, no destination, no bike — as long as that window can
 * still be booked. Later in the day the server refuses a start in the past, so the start
 * becomes the next quarter of an hour (the end stays 18:00, or one hour later in the
 * evening, at most 23:59); after 23:00 the form proposes tomorrow, 08:00 to 18:00.
 */
export function defaultBookingForm(now: Date, timeZone: string): BookingFormValues {
  const today = zonedToday(now, timeZone);
  const clock = toMinutes(zonedClock(now, timeZone));
  const start = toMinutes(DEFAULT_START_TIME);
  const end = toMinutes(DEFAULT_END_TIME);
  let window = { dataPrenotazione: today, orarioInizio: DEFAULT_START_TIME, orarioFine: DEFAULT_END_TIME };
  if (clock > start) {
    const next = Math.ceil((clock + 1) / 15) * 15;
    const lastStart = 23 * 60;
    const endOfDay = 23 * 60 + 59;
    window =
      next <= lastStart
        ? { dataPrenotazione: today, orarioInizio: toHhmm(next), orarioFine: toHhmm(Math.min(endOfDay, Math.max(end, next + 60))) }
        : { ...window, dataPrenotazione: addDays(today, 1) };
  }
  return { ...window, destinazione: '', biciId: null };
}

/** The dates the form accepts: today (in the college's time zone) up to the booking horizon. */
export function bookingDateBounds(now: Date, timeZone: string, horizonDays: number | undefined) {
  const min = zonedToday(now, timeZone);
  return { min, max: horizonDays === undefined ? undefined : addDays(min, horizonDays) };
}

