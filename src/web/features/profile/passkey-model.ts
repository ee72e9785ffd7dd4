import { dayMonth } from '../../../shared/i18n/format';
import type { Lingua } from '../../../shared/i18n';
import { zonedToday } from '../../../shared/time';

/**
 * A passkey's instant (made, last used) as its day on the college's clock: "3 maggio 2026" /
 * "3 May 2026", with no Intl object (shared/i18n/format.ts). Not a date: shown as given.
 */
export function passkeyDay(iso: string, timeZone: string, lingua: Lingua): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dayMonth(zonedToday(date, timeZone), true, lingua);
}
