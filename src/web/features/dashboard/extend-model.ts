import { zonedClock, zonedInstant } from '../../../shared/time';
import type { BookingDto } from '../../../shared/schemas/booking';
import { type MessageKey } from '../../../shared/i18n';

/** What the `Prolunga` dialog says when the server offers no length (issue 35). */
export const MSG_NO_EXTENSION = 'extendDialog.noExtension' satisfies MessageKey;

/**
 * The ride's end moved by `minutes`, as a wall clock (`12:30`): the booking's end as an instant,
 * plus the minutes, read in `timeZone` (real minutes, as the server adds them, also on the night
 * the clocks change). Empty when the end does not name an instant.
 */
export function extendedEnd(booking: Pick<BookingDto, 'dataPrenotazione' | 'orarioFine'>, minutes: number, timeZone: string): string {
  const end = zonedInstant(booking.dataPrenotazione, booking.orarioFine, timeZone);
  return end ? zonedClock(new Date(end.getTime() + minutes * 60_000), timeZone) : '';
}
