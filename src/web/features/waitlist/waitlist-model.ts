import type { WaitDto } from '../../../shared/schemas/waitlist';
import type { Lingua, MessageKey, Translate } from '../../../shared/i18n';
import { formatTimeRange } from '../../lib/booking-format';
import { currentLingua, t as appT } from '../../lib/i18n';
import { longDate } from '../../../shared/i18n/format';
import { isRealDate } from '../../../shared/time';

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
export const placeText = (posizione: number, t: Translate = appT) => t('waitlist.place', { posizione });

/** "domenica 22 novembre 2026, 10:00–12:00". */
export const waitWindowText = (w: Pick<WaitDto, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine'>, lingua: Lingua = currentLingua()) =>
  `${isRealDate(w.dataPrenotazione) ? longDate(w.dataPrenotazione, lingua) : w.dataPrenotazione}, ${formatTimeRange(w.orarioInizio, w.orarioFine)}`;

/** The waits holding an offer (first on the dashboard) and those still in line. */
export function splitWaits(waits: readonly WaitDto[]): { offers: WaitDto[]; waiting: WaitDto[] } {
  return { offers: waits.filter((w) => w.offerta !== null), waiting: waits.filter((w) => w.offerta === null) };
}

/** Said on a wait while the user has an active booking (issue 21): freed bikes go to the next. */
export const BLOCKED_TEXT = 'waitlist.blocked' satisfies MessageKey;
