import type { WaitDto } from '../../../shared/schemas/waitlist';
import { formatBookingDate, formatTimeRange } from '../../lib/booking-format';

export { offerSentence } from '../../../shared/waitlist-text';

/** What is left of an offer, as the card's countdown shows it: "14:32", "1:02:05", "0:00". */
export function countdownText(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${h > 0 ? String(m).padStart(2, '0') : m}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** "1° in lista". */
export const placeText = (posizione: number) => `${posizione}° in lista`;

/** "domenica 22 novembre 2026, 10:00–12:00". */
export const waitWindowText = (w: Pick<WaitDto, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine'>) =>
  `${formatBookingDate(w.dataPrenotazione)}, ${formatTimeRange(w.orarioInizio, w.orarioFine)}`;

/** The waits holding an offer (first on the dashboard) and those still in line. */
export function splitWaits(waits: readonly WaitDto[]): { offers: WaitDto[]; waiting: WaitDto[] } {
  return { offers: waits.filter((w) => w.offerta !== null), waiting: waits.filter((w) => w.offerta === null) };
}

/** Said on a wait while the user has an active booking (issue 21): freed bikes go to the next. */
export const BLOCKED_TEXT = 'Hai già una prenotazione attiva: finché non è conclusa le bici che si liberano passano a chi segue in lista.';
