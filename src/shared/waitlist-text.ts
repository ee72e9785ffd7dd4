import type { Translate } from './i18n/index.js';

/** The waitlist's sentences (issue 21), one source for the emails, the pushes and the dashboard. */

/** `12/12` of a `YYYY-MM-DD` date (the same in both languages). */
export const dayMonth = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** `Una bici si è liberata per il 12/12 dalle 10:00 alle 12:00` / `A bike has freed up for 12/12 from 10:00 to 12:00`. */
export function offerSentence(w: { dataPrenotazione: string; orarioInizio: string; orarioFine: string }, t: Translate): string {
  return t('waitlistText.offer', { giorno: dayMonth(w.dataPrenotazione), inizio: w.orarioInizio, fine: w.orarioFine });
}
