import type { Lingua, Translate } from '../../shared/i18n';
import { dayMonth } from '../../shared/i18n/format';
import type { BookingDto } from '../../shared/schemas/booking';
import { addDays, zonedClock, zonedToday } from '../../shared/time';
import type { QueuedAction } from './actions';

/**
 * `Ultimo aggiornamento alle 10:42`: when the data on screen last came from the server, on
 * the college's clock (`ieri alle …`, `il 3 maggio alle …` for an older copy), in the language
 * of `t` (`lingua`: the same, for the day's name); null without a time (nothing ever read).
 */
export function lastSyncText(updatedAt: number, now: Date, timeZone: string, t: Translate, lingua: Lingua): string | null {
  if (!Number.isFinite(updatedAt) || updatedAt <= 0) return null;
  const at = new Date(updatedAt);
  const clock = zonedClock(at, timeZone);
  const day = zonedToday(at, timeZone);
  const today = zonedToday(now, timeZone);
  if (day === today) return t('offline.lastSyncToday', { clock });
  if (day === addDays(today, -1)) return t('offline.lastSyncYesterday', { clock });
  const date = dayMonth(day, day.slice(0, 4) !== today.slice(0, 4), lingua);
  return t('offline.lastSyncOn', { date, clock });
}

/** A booking as the card shows it: the server's, with the steps still waiting on this device applied. */
export interface BookingView extends BookingDto {
  /** The latest step tapped on this device and not yet sent (`In attesa di invio`), if any. */
  inAttesa: QueuedAction | null;
}

/**
 * The bookings with the waiting steps of the queue applied, as if the server had them: a
 * pick-up makes the ride `in_corso` from the tap (so that the return can be tapped offline
 * too), a return records its time. Refused steps change nothing (they are shown apart).
 */
export function applyPendingActions(bookings: readonly BookingDto[], actions: readonly QueuedAction[]): BookingView[] {
  return bookings.map((booking) => {
    const waiting = actions.filter((a) => a.stato === 'in_attesa' && a.prenotazioneId === booking.id);
    let view: BookingView = { ...booking, inAttesa: null };
    for (const action of waiting) {
      if (action.tipo === 'ritiro') {
        view = {
          ...view,
          ritirataAt: view.ritirataAt ?? action.oraDispositivo,
          fase: view.fase === 'da_ritirare' ? 'in_corso' : view.fase,
          inAttesa: action,
        };
      } else {
        view = { ...view, riconsegnataAt: view.riconsegnataAt ?? action.oraDispositivo, inAttesa: action };
      }
    }
    return view;
  });
}

/** The refused steps, oldest first: each stays on the dashboard until the user has read it. */
export function refusedActions(actions: readonly QueuedAction[]): QueuedAction[] {
  return actions.filter((a) => a.stato === 'rifiutata');
}
