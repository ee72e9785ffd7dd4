import { parseISO } from 'date-fns';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import type { MessageKey, MessageValues } from '../../../shared/i18n';
import { money } from '../../../shared/i18n/format';
import type { AdminBookingDto } from '../../../shared/schemas/admin';
import type { BikeStato, BookingPhase, BookingStato, PaymentStatus } from '../../../shared/schemas/booking';
import { isRealDate, zonedClock, zonedToday } from '../../../shared/time';
import type { BadgeTone } from '../../lib/booking-labels';
import { currentLingua, t, type Lingua, type Translate } from '../../lib/i18n';

import { BOOKING_PHASE_BADGE, BOOKING_STATO_BADGE, FLEET_CANCELLATION_BADGE, type BadgeLabel } from '../../lib/booking-labels';

export { BOOKING_PHASE_BADGE, BOOKING_STATO_BADGE };

/** A key whose text needs no values: a label translated where it renders. */
export type PlainKey = { [K in MessageKey]: MessageValues[K] extends undefined ? K : never }[MessageKey];

export type AdminTab = 'prenotazioni' | 'biciclette' | 'utenti' | 'regole' | 'registro';
export const ADMIN_TABS: readonly AdminTab[] = ['prenotazioni', 'biciclette', 'utenti', 'regole', 'registro'];

/** The tab named in `?tab=`, the default (Prenotazioni) for anything else. */
export function tabFromSearch(search: string): AdminTab {
  const tab = new URLSearchParams(search).get('tab');
  return ADMIN_TABS.includes(tab as AdminTab) ? (tab as AdminTab) : 'prenotazioni';
}

/**
 * The tabs someone's roles open (issue 48): the admin has them all; a staff member the bookings
 * (`prenotazioni`), the bikes (`biciclette`) and the closures (`chiusure`, the rules' tab with its
 * closures only) their roles carry; never the users or the audit log.
 */
export function visibleTabs(view: { isAdmin: boolean; may: (capability: 'prenotazioni' | 'biciclette' | 'chiusure') => boolean }): AdminTab[] {
  if (view.isAdmin) return [...ADMIN_TABS];
  const tabs: AdminTab[] = [];
  if (view.may('prenotazioni')) tabs.push('prenotazioni');
  if (view.may('biciclette')) tabs.push('biciclette');
  if (view.may('chiusure')) tabs.push('regole');
  return tabs;
}

/** The tab shown: the address's when it is one of `tabs`, else the first of them. */
export function shownTab(asked: AdminTab, tabs: readonly AdminTab[]): AdminTab {
  return tabs.includes(asked) ? asked : (tabs[0] ?? 'prenotazioni');
}

/** The list's one filter: a state, or (for active bookings) where the ride is (decision 022). */
export type BookingFilter = 'tutti' | 'attiva' | 'da_ritirare' | 'in_corso' | 'in_ritardo' | 'completata' | 'cancellata';
export const BOOKING_FILTERS: readonly { value: BookingFilter; label: PlainKey }[] = [
  { value: 'tutti', label: 'adminModel.filterAll' },
  { value: 'attiva', label: 'adminModel.filterActive' },
  { value: 'da_ritirare', label: 'adminModel.filterToPickUp' },
  { value: 'in_corso', label: 'adminModel.filterInProgress' },
  { value: 'in_ritardo', label: 'adminModel.filterOverdue' },
  { value: 'completata', label: 'adminModel.filterCompleted' },
  { value: 'cancellata', label: 'adminModel.filterCancelled' },
];

/** The query parameters of a filter: `stato=` for a state, `fase=` for a phase of the ride. */
export function bookingFilterParams(filter: BookingFilter): { stato?: BookingStato | 'tutti'; fase?: BookingPhase } {
  switch (filter) {
    case 'da_ritirare':
    case 'in_corso':
    case 'in_ritardo':
      return { fase: filter };
    default:
      return { stato: filter };
  }
}

/** The badge of a booking in the admin lists: its phase while active, else its state (and why the fleet cancelled it, issue 35). */
export function adminBookingBadge(
  b: Pick<AdminBookingDto, 'stato' | 'fase'> & Partial<Pick<AdminBookingDto, 'motivoCancellazione'>>,
): { label: string; tone: BadgeTone } {
  const badge = (): BadgeLabel => {
    if (b.stato === 'attiva') return BOOKING_PHASE_BADGE[b.fase];
    if (b.stato === 'cancellata' && (b.motivoCancellazione === 'bici_non_rientrata' || b.motivoCancellazione === 'bici_guasta')) {
      return FLEET_CANCELLATION_BADGE[b.motivoCancellazione];
    }
    return BOOKING_STATO_BADGE[b.stato];
  };
  const { labelKey, tone } = badge();
  return { label: t(labelKey), tone };
}

/** Minutes of delay as a person says them: "45 min", "2 h", "1 h 20 min", "1 g 3 h" ("1 d 3 h"). In a render, pass `useT()`'s translator. */
export function formatDelay(minutes: number, tr: Translate = t): string {
  const m = Math.max(0, Math.floor(minutes));
  if (m < 60) return tr('adminModel.delayMinutes', { minutes: m });
  const hours = Math.floor(m / 60);
  if (hours < 24) return m % 60 === 0 ? tr('adminModel.delayHours', { hours }) : tr('adminModel.delayHoursMinutes', { hours, minutes: m % 60 });
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? tr('adminModel.delayDays', { days }) : tr('adminModel.delayDaysHours', { days, hours: hours % 24 });
}

export { DAMAGE_CATEGORY_LABELS } from '../../../shared/damage';

/** Bike badges: available green, booked orange, maintenance red, out of service dark grey (`label`: a key, translated where it renders). */
export const BIKE_STATO_BADGE: Record<BikeStato, { label: PlainKey; tone: BadgeTone; className?: string }> = {
  disponibile: { label: 'adminModel.bikeAvailable', tone: 'success' },
  prenotata: { label: 'adminModel.bikeBooked', tone: 'warning' },
  manutenzione: { label: 'adminModel.bikeMaintenance', tone: 'danger' },
  fuori_servizio: { label: 'adminModel.bikeOutOfService', tone: 'muted', className: 'border-slate-700 bg-slate-700 text-white' },
};
export const BIKE_STATI: readonly BikeStato[] = ['disponibile', 'prenotata', 'manutenzione', 'fuori_servizio'];

/** A list URL with its query string; empty values are left out. */
export function listUrl(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Pages needed for `total` rows (at least 1, so "Pagina 1 di 1" for an empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "2026-11-22" → "22/11/26" (a calendar day, not an instant). */
export function formatShortDate(date: string): string {
  if (!isRealDate(date)) return date;
  const [y, m, d] = date.split('-') as [string, string, string];
  return `${d}/${m}/${y.slice(2)}`;
}

/**
 * An ISO instant → "22/11/2026 14:05" on the college's clock (TZ_APP, GET /api/config): the
 * same text whoever writes it — the server rendering /admin, or a browser in any time zone.
 */
export function formatDateTime(iso: string, timeZone: string): string {
  const date = parseISO(iso);
  return Number.isNaN(date.getTime()) ? iso : `${formatDay(iso, timeZone)} ${zonedClock(date, timeZone)}`;
}

/** An ISO instant → "22/11/2026", the day on the college's clock. */
export function formatDay(iso: string, timeZone: string): string {
  const date = parseISO(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const [y, m, d] = zonedToday(date, timeZone).split('-');
  return `${d}/${m}/${y}`;
}

/** The booking's payment in the details dialog (spec §2). In a render, pass `useT()` and `useLingua()`. */
export function adminPaymentLabel(status: PaymentStatus, tr: Translate = t, lingua: Lingua = currentLingua()): string {
  const fee = money(EXTERNAL_FEE_CENTS, lingua);
  switch (status) {
    case null:
      return tr('adminModel.paymentFree');
    case 'completed':
      return tr('adminModel.paymentPaid', { fee });
    case 'pending':
      return tr('adminModel.paymentPending', { fee });
    case 'refunded':
      return tr('adminModel.paymentRefunded', { fee });
    case 'failed':
      return tr('adminModel.paymentFailed', { fee });
  }
}

/** A toast: in the app's language now. */
export function bookingDeletedToast(refunded: boolean): { title: string; description?: string } {
  return refunded
    ? { title: t('adminModel.bookingDeleted'), description: t('adminModel.bookingDeletedRefund', { fee: money(EXTERNAL_FEE_CENTS, currentLingua()) }) }
    : { title: t('adminModel.bookingDeleted') };
}

/** A toast: in the app's language now. */
export function importToast(result: { imported: number; skipped: number }): { title: string; description: string } {
  return { title: t('adminModel.importDone'), description: t('adminModel.importCounts', { imported: result.imported, skipped: result.skipped }) };
}

export function bookingTime(b: Pick<AdminBookingDto, 'orarioInizio' | 'orarioFine'>): string {
  return `${b.orarioInizio}-${b.orarioFine}`;
}
