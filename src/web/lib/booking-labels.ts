import type { BookingDto, BookingPhase, CancellationReason } from '../../shared/schemas/booking';
import type { PlainKey } from './plain-key';

/*
 * What a booking's badge says, and the time zone used until GET /api/config answers: shared
 * by the dashboard and /admin, apart from dashboard-model.ts, which brings date-fns and its
 * Italian locale (/admin's first screen needs neither: decision 027). A badge holds the key of
 * its text (issue 36): `t(badge.labelKey)` where it renders.
 */

/** Used until GET /api/config answers, or if it fails. */
export const FALLBACK_TIME_ZONE = 'Europe/Rome';

export type BadgeTone = 'success' | 'info' | 'muted' | 'warning' | 'danger';

/** A badge: the key of its text and its colour. */
export interface BadgeLabel {
  labelKey: PlainKey;
  tone: BadgeTone;
}

export const BOOKING_STATO_BADGE: Record<BookingDto['stato'], BadgeLabel> = {
  attiva: { labelKey: 'bookingLabels.attiva', tone: 'success' },
  completata: { labelKey: 'bookingLabels.completata', tone: 'info' },
  cancellata: { labelKey: 'bookingLabels.cancellata', tone: 'muted' },
};

/** The phase of an active booking as its card shows it (decision 022); `in_ritardo` is a warning. */
export const BOOKING_PHASE_BADGE: Record<BookingPhase, BadgeLabel> = {
  da_ritirare: { labelKey: 'bookingLabels.daRitirare', tone: 'info' },
  in_corso: { labelKey: 'bookingLabels.inCorso', tone: 'success' },
  in_ritardo: { labelKey: 'bookingLabels.inRitardo', tone: 'danger' },
  conclusa: { labelKey: 'bookingLabels.conclusa', tone: 'muted' },
  cancellata: { labelKey: 'bookingLabels.cancellata', tone: 'muted' },
};

/** The reasons the fleet cancels a booking for (issue 35). */
export type FleetCancellation = Extract<CancellationReason, 'bici_non_rientrata' | 'bici_guasta'>;

/** A booking the fleet cancelled, as its badge says it (the dashboard's past rides, /admin's lists). */
export const FLEET_CANCELLATION_BADGE: Record<FleetCancellation, BadgeLabel> = {
  bici_non_rientrata: { labelKey: 'bookingLabels.biciNonRientrata', tone: 'warning' },
  bici_guasta: { labelKey: 'bookingLabels.biciGuasta', tone: 'warning' },
};
