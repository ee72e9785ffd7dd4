/** The waitlist's sentences (issue 21), one source for the emails, the pushes and the dashboard. */

/** `12/12` of a `YYYY-MM-DD` date. */
export const dayMonth = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** `Una bici si è liberata per il 12/12 dalle 10:00 alle 12:00`. */
export function offerSentence(w: { dataPrenotazione: string; orarioInizio: string; orarioFine: string }): string {
  return `Una bici si è liberata per il ${dayMonth(w.dataPrenotazione)} dalle ${w.orarioInizio} alle ${w.orarioFine}`;
}
