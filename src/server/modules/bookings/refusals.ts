import { shortDate } from '../../../shared/i18n/format.js';
import { testo, type Testo } from '../../../shared/i18n/index.js';
import { zonedClock, zonedToday } from '../../../shared/time.js';
import type { Rules } from '../rules/index.js';

/*
 * The bookings' own refusals made of the service's rules (issue 36), as texts not yet in a
 * language; the error handler answers them in the reader's language. The closure, hours and
 * duration sentences are shared with the forms (shared/rules-text.ts `closureText`, `hoursText`,
 * `tooLongText`).
 */

/** `Puoi fare al massimo 3 prenotazioni in 7 giorni`. */
export const weeklyLimitRefusal = (max: number): Testo => testo('bookingsApi.weeklyLimit', { max });

/**
 * `Non puoi prenotare fino al 12/12/2026 alle 10:00: 3 mancati ritiri in 30 giorni`: a suspension
 * until `fino` under the rules' `sospensione` (its reason as rules/fair-use.ts words it).
 */
export function suspensionRefusal(fino: string, sospensione: NonNullable<Rules['sospensione']>, timeZone: string): Testo {
  const until = new Date(fino);
  return testo('bookingsApi.suspended', {
    data: shortDate(zonedToday(until, timeZone)),
    ora: zonedClock(until, timeZone),
    soglia: sospensione.soglia,
    giorni: sospensione.finestraGiorni,
  });
}
