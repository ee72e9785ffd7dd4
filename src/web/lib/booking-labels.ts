import type { BookingDto, BookingPhase, CancellationReason } from '../../shared/schemas/booking';

/*
 * What a booking's badge says, and the time zone used until GET /api/config answers: shared
 * by the dashboard and /admin, apart from dashboard-model.ts, which brings date-fns and its
 * Italian locale (/admin's first screen needs neither: decision 027).
 */

/** Used until GET /api/config answers, or if it fails. */
export const FALLBACK_TIME_ZONE = 'Europe/Rome';

export type BadgeTone = 'success' | 'info' | 'muted' | 'warning' | 'danger';

export const BOOKING_STATO_BADGE: Record<BookingDto['stato'], { label: string; tone: BadgeTone }> = {
  attiva: { label: 'Attiva', tone: 'success' },
  completata: { label: 'Completata', tone: 'info' },
  cancellata: { label: 'Cancellata', tone: 'muted' },
};

/** The phase of an active booking as its card shows it (decision 022); `in_ritardo` is a warning. */
export const BOOKING_PHASE_BADGE: Record<BookingPhase, { label: string; tone: BadgeTone }> = {
  da_ritirare: { label: 'Da ritirare', tone: 'info' },
  in_corso: { label: 'In corso', tone: 'success' },
  in_ritardo: { label: 'In ritardo', tone: 'danger' },
  conclusa: { label: 'Conclusa', tone: 'muted' },
  cancellata: { label: 'Cancellata', tone: 'muted' },
};

/** The reasons the fleet cancels a booking for (issue 35). */
export type FleetCancellation = Extract<CancellationReason, 'bici_non_rientrata' | 'bici_guasta'>;

/** A booking the fleet cancelled, as its badge says it (the dashboard's past rides, /admin's lists). */
export const FLEET_CANCELLATION_BADGE: Record<FleetCancellation, { label: string; tone: BadgeTone }> = {
  bici_non_rientrata: { label: 'Annullata: bici non rientrata', tone: 'warning' },
  bici_guasta: { label: 'Annullata: bici fuori uso', tone: 'warning' },
};
