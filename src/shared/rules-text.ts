import { render, testo, type Testo, type Translate } from './i18n/index.js';
import type { DayHours } from './schemas/rules.js';

/**
 * The rules in words (issue 20), in either language (issue 36): each sentence as a `Testo`
 * (the server throws it; the error handler answers in the request's language) and put into the
 * language of a `t` (the booking form). Dates are `24/12/2026` and times `07:00` in both.
 */

/** `2026-12-24` → `24/12/2026` (the same in both languages). */
export const italianDate = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The weekday of a calendar date, Monday = 0 … Sunday = 6 (the index of `orari`). */
export function weekdayIndex(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** A duration as the messages count it: whole hours and the minutes left. */
const durationValues = (minutes: number) => ({ ore: Math.floor(minutes / 60), minuti: minutes % 60 });

/** 180 → `3 ore` / `3 hours`, 60 → `1 ora`, 90 → `1 ora e 30 minuti`, 45 → `45 minuti`, in the language of `t`. */
export function italianDuration(minutes: number, t: Translate): string {
  return t('rulesText.duration', durationValues(minutes));
}

/** `Chiusura natalizia` from 24/12 to 06/01 → the refusal (issue 20): `Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia`. */
export function closureText(c: { dal: string; al: string; motivo: string }): Testo {
  return c.dal === c.al
    ? testo('rulesText.closedOn', { giorno: italianDate(c.dal), motivo: c.motivo })
    : testo('rulesText.closedFromTo', { dal: italianDate(c.dal), al: italianDate(c.al), motivo: c.motivo });
}

/** `closureText` in the language of `t`. */
export const closureSentence = (c: { dal: string; al: string; motivo: string }, t: Translate): string => render(t, closureText(c));

/** The refusal of a window outside a day's hours: `Il lunedì il servizio è aperto dalle 07:00 alle 23:00`, `La domenica il servizio è chiuso`. */
export function hoursText(date: string, hours: DayHours): Testo {
  const giorno = weekdayIndex(date);
  return hours
    ? testo('rulesText.openHours', { giorno, apertura: hours.apertura, chiusura: hours.chiusura })
    : testo('rulesText.closedDay', { giorno });
}

/** `hoursText` in the language of `t`. */
export const hoursSentence = (date: string, hours: DayHours, t: Translate): string => render(t, hoursText(date, hours));

/** `Una prenotazione può durare al massimo 3 ore`. */
export const tooLongText = (maxMinutes: number): Testo => testo('rulesText.tooLong', durationValues(maxMinutes));

/** `Prenota almeno 2 ore prima dell'inizio`. */
export const tooShortNoticeText = (noticeMinutes: number): Testo => testo('rulesText.tooShortNotice', durationValues(noticeMinutes));
