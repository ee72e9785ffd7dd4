import type { SessionUser } from '../../../shared/api-types';
import { DEFAULT_END_TIME, DEFAULT_START_TIME, EXTERNAL_FEE_CENTS, PAST_BOOKINGS_SHOWN } from '../../../shared/constants';
import { DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../../../shared/damage';
import type { BikeDto, BookingDto, PaymentStatus } from '../../../shared/schemas/booking';
import { FLEET_CANCELLATION_BADGE, type BadgeTone, type FleetCancellation } from '../../lib/booking-labels';
import { formatEuroCents } from '../../../shared/money';
import { formatBookingDate, formatClock, formatTimeRange } from '../../lib/booking-format';
import { addDays, isRealDate, toHhmm, toMinutes, zonedClock, zonedToday } from '../../../shared/time';
import type { Lingua, Translate } from '../../../shared/i18n';
import { longDate, money } from '../../../shared/i18n/format';
import { currentLingua, t as appT } from '../../lib/i18n';

// The booking's day, window and times, shared with the waitlist (lib/booking-format.ts).
export { formatBookingDate, formatClock, formatTimeRange };

/** A booking's day in `lingua`: "domenica 22 novembre 2026" / "Sunday 22 November 2026" (a string that is not a date as it is). */
export const bookingDate = (date: string, lingua: Lingua): string => (isRealDate(date) ? longDate(date, lingua) : date);

// The badges and the fallback time zone live apart, without date-fns: /admin shares them.
export { BOOKING_PHASE_BADGE, BOOKING_STATO_BADGE, FALLBACK_TIME_ZONE, type BadgeTone } from '../../lib/booking-labels';

// ---------------------------------------------------------------------------------------
// Bookings and stats

/** Dates and times as `YYYY-MM-DD` and `HH:mm` sort as plain strings (no collator: no ICU at load). */
const compareCodes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byWhen = (a: BookingDto, b: BookingDto) =>
  compareCodes(a.dataPrenotazione, b.dataPrenotazione) || compareCodes(a.orarioInizio, b.orarioInizio);

/** The user's `attiva` bookings, soonest first. */
export function selectActiveBookings<T extends BookingDto>(bookings: readonly T[]): T[] {
  return bookings.filter((b) => b.stato === 'attiva').sort(byWhen);
}

/**
 * The booking a person stands at the rack with (issue 51, decision 060): a ride in progress
 * (`in_corso`, `in_ritardo`: picked up, not returned), else one whose pick-up window is open at
 * `now` (`da_ritirare` from the server's `ritiroDa`, the instant `Ritirata` is allowed from).
 * The dashboard opens on its card. `active`: the `attiva` bookings, soonest first.
 */
export function bookingAtRack<T extends BookingDto>(active: readonly T[], now: Date): T | undefined {
  const riding = active.find((b) => b.fase === 'in_corso' || b.fase === 'in_ritardo');
  if (riding) return riding;
  return active.find((b) => b.fase === 'da_ritirare' && now.getTime() >= new Date(b.ritiroDa).getTime());
}

/**
 * The earliest instant (ms) from which one of `active`'s bookings not yet picked up may be (its
 * `ritiroDa`), null if none: the page looks at the clock again then (use-now-passing.ts).
 */
export function firstPickUpOpening(active: readonly BookingDto[]): number | null {
  let first: number | null = null;
  for (const b of active) {
    const at = new Date(b.ritiroDa).getTime();
    if (b.fase === 'da_ritirare' && !Number.isNaN(at) && (first === null || at < first)) first = at;
  }
  return first;
}

/** A booking released because its bike was never picked up (decision 022). */
export const isNoShow = (b: Pick<BookingDto, 'stato' | 'motivoCancellazione'>) =>
  b.stato === 'cancellata' && b.motivoCancellazione === 'mancato_ritiro';

/** A booking the fleet cancelled (issue 35): its bike not back in time, or broken, and no other free. */
export const isFleetCancelled = (b: Pick<BookingDto, 'stato' | 'motivoCancellazione'>) =>
  b.stato === 'cancellata' && (b.motivoCancellazione === 'bici_non_rientrata' || b.motivoCancellazione === 'bici_guasta');

/**
 * The most recent past rides, latest first, at most `limit` (spec §9: 3): the `completata`
 * bookings, the ones released because the bike was not picked up, and the ones the fleet
 * cancelled (issue 35: the person did not cancel them, so they are told why), each shown as such.
 */
export function selectPastBookings<T extends BookingDto>(bookings: readonly T[], limit = PAST_BOOKINGS_SHOWN): T[] {
  return bookings
    .filter((b) => b.stato === 'completata' || isNoShow(b) || isFleetCancelled(b))
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

/** `Paga 2,50 €`, in the app's language unless told. */
export const payButtonLabel = (t: Translate = appT, lingua: Lingua = currentLingua()): string =>
  t('dashboardModel.pay', { importo: money(EXTERNAL_FEE_CENTS, lingua) });

/** "2026-11-22" → "domenica 22 novembre 2026". The date is a calendar day, not an instant. */

// ---------------------------------------------------------------------------------------
// The ride (decision 022)

/** An ISO instant as "HH:mm" on the college's clock, or null when it is not a date. */

export type PickUpState =
  /** `Ritirata` can be pressed now. */
  | { kind: 'ready' }
  /** Not yet: `hint` says from when; `at` is that instant (ms), to enable the button then. */
  | { kind: 'early'; hint: string; at: number };

/** Whether a `da_ritirare` booking can be marked `Ritirata` at `now`, or from when. */
export function pickUpState(booking: Pick<BookingDto, 'ritiroDa'>, now: Date, timeZone: string, t: Translate = appT): PickUpState {
  const at = new Date(booking.ritiroDa).getTime();
  if (Number.isNaN(at) || now.getTime() >= at) return { kind: 'ready' };
  return { kind: 'early', hint: t('dashboardModel.pickUpFrom', { ora: formatClock(booking.ritiroDa, timeZone) ?? '' }), at };
}

/** What a past booking says about its ride: not picked up, cancelled by the fleet and why, or returned at what time. */
export function pastRideNote(
  booking: Pick<BookingDto, 'stato' | 'motivoCancellazione' | 'riconsegnataAt'>,
  timeZone: string,
  t: Translate = appT,
): { label: string; tone: BadgeTone } | null {
  if (isNoShow(booking)) return { label: t('dashboardModel.noShow'), tone: 'warning' };
  if (isFleetCancelled(booking)) {
    const { labelKey, tone } = FLEET_CANCELLATION_BADGE[booking.motivoCancellazione as FleetCancellation];
    return { label: t(labelKey), tone };
  }
  const clock = booking.riconsegnataAt ? formatClock(booking.riconsegnataAt, timeZone) : null;
  return clock ? { label: t('dashboardModel.returnedAt', { ora: clock }), tone: 'info' } : null;
}

export { DAMAGE_DESCRIPTION_MAX };

export interface ReturnFormValues {
  segnalaDanno: boolean;
  categoria: DamageCategory | '';
  descrizione: string;
}

export type ReturnFormResult =
  | { ok: true; request: { danno?: { categoria: DamageCategory; descrizione: string } } }
  | { ok: false; errors: { categoria?: string; descrizione?: string } };

/** The return form's checks (the server repeats them): a damage report needs a category and a short text. */
export function validateReturnForm(values: ReturnFormValues, t: Translate = appT): ReturnFormResult {
  if (!values.segnalaDanno) return { ok: true, request: {} };
  const descrizione = values.descrizione.trim();
  const errors: { categoria?: string; descrizione?: string } = {};
  if (values.categoria === '') errors.categoria = t('dashboardModel.chooseDamage');
  if (descrizione === '') errors.descrizione = t('dashboardModel.describeDamage');
  else if (descrizione.length > DAMAGE_DESCRIPTION_MAX) errors.descrizione = t('dashboardModel.maxChars', { max: DAMAGE_DESCRIPTION_MAX });
  if (values.categoria === '' || errors.descrizione) return { ok: false, errors };
  return { ok: true, request: { danno: { categoria: values.categoria, descrizione } } };
}

export type PaymentDisplay = { kind: 'pay'; href: string; label: string } | { kind: 'label'; label: string; tone: BadgeTone };

/** What a booking shows about its payment (spec §2, behaviour.md §6). */
export function paymentDisplay(booking: Pick<BookingDto, 'id' | 'paymentStatus'>, t: Translate = appT, lingua: Lingua = currentLingua()): PaymentDisplay {
  const status: PaymentStatus = booking.paymentStatus;
  switch (status) {
    case 'pending':
      return { kind: 'pay', href: `/payment/${booking.id}`, label: payButtonLabel(t, lingua) };
    case 'completed':
      return { kind: 'label', label: t('dashboardModel.paid'), tone: 'success' };
    case 'refunded':
      return { kind: 'label', label: t('dashboardModel.refunded'), tone: 'info' };
    case 'failed':
      return { kind: 'label', label: t('dashboardModel.paymentFailed'), tone: 'danger' };
    case null:
      return { kind: 'label', label: t('dashboardModel.free'), tone: 'muted' };
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
  // 08:00:30 has passed 08:00 too (zones are whole minutes apart: the seconds are the same in each).
  if (clock > start || (clock === start && now.getTime() % 60_000 > 0)) {
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

// ---------------------------------------------------------------------------------------
// The service's rules (issue 20)

/**
 * `Non puoi prenotare fino al 12/12/2026 alle 10:00: 3 mancati ritiri in 30 giorni` (the
 * server's words), on the college's clock. Here, not with the form's rules: the dashboard
 * shows it without loading the form.
 */
export function suspensionText(s: { fino: string; motivo: string }, timeZone: string, t: Translate = appT): string {
  const fino = new Date(s.fino);
  if (Number.isNaN(fino.getTime())) return t('dashboardModel.suspended', { motivo: s.motivo });
  const [y, m, d] = zonedToday(fino, timeZone).split('-');
  return t('dashboardModel.suspendedUntil', { data: `${d}/${m}/${y}`, ora: zonedClock(fino, timeZone), motivo: s.motivo });
}
