/**
 * The profile page's API (decision 022). Provisional, types only: the profile/calendar/push
 * server branch brings the full module (with its request schemas) and replaces this file.
 */

/** GET and PATCH /api/profilo */
export interface ProfileDto {
  nome: string;
  cognome: string;
  email: string;
  /** Reminders (email and web push) before the start and before the end of a ride. */
  promemoria: boolean;
  /** Whether a calendar feed link exists (the link itself is shown only when made). */
  calendarioAttivo: boolean;
  /** The VAPID public key for `pushManager.subscribe`; null when push cannot be offered. */
  push: { publicKey: string | null };
}

/** POST /api/profilo/calendario */
export interface CalendarLinkDto {
  url: string;
}
