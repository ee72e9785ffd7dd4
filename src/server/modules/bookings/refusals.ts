import type { DayHours } from '../../../shared/schemas/rules.js';
import { shortDate } from '../../../shared/i18n/format.js';
import { testo, type Testo } from '../../../shared/i18n/index.js';
import { weekdayIndex } from '../../../shared/rules-text.js';
import { zonedClock, zonedToday } from '../../../shared/time.js';
import type { Rules } from '../rules/index.js';

/*
 * The refusals made of the service's rules (issue 36), as texts not yet in a language: their
 * Italian is that of shared/rules-text.ts (closureSentence, hoursSentence, italianDuration)
 * word for word; the error handler answers them in the reader's language.
 */

/** Monday = 0 … Sunday = 6, as `weekdayIndex` counts: the `giorno` of the hours' messages. */
const WEEKDAY_CODES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** `Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia` (the reason as the admin wrote it). */
export function closureRefusal(c: { dal: string; al: string; motivo: string }): Testo {
  return c.dal === c.al
    ? testo('bookingsApi.closedDay', { data: shortDate(c.dal), motivo: c.motivo })
    : testo('bookingsApi.closedRange', { dal: shortDate(c.dal), al: shortDate(c.al), motivo: c.motivo });
}

/** `Il lunedì il servizio è aperto dalle 08:00 alle 20:00`, or `… è chiuso`: the hours of `date`'s weekday. */
export function hoursRefusal(date: string, hours: DayHours): Testo {
  const giorno = WEEKDAY_CODES[weekdayIndex(date)]!;
  return hours
    ? testo('bookingsApi.hoursOpen', { giorno, apertura: hours.apertura, chiusura: hours.chiusura })
    : testo('bookingsApi.hoursClosed', { giorno });
}

/** `Una prenotazione può durare al massimo 2 ore` (`1 ora e 30 minuti`, `45 minuti`). */
export function tooLongRefusal(minutes: number): Testo {
  const ore = Math.floor(minutes / 60);
  const minuti = minutes % 60;
  const forma = ore === 0 ? 'minuti' : minuti === 0 ? 'ore' : 'entrambi';
  return testo('bookingsApi.tooLong', { forma, ore, minuti });
}

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
