import type { PlainKey } from '../../../shared/schemas/message';
import type { TicketState } from '../../../shared/staff';
import { zonedClock, zonedToday } from '../../../shared/time';
import type { Translate } from '../../lib/i18n';

/** A ticket's state as the screens name it (the words) and its badge's tone. */
export const TICKET_STATE_BADGE: Record<TicketState, { label: PlainKey; tone: 'danger' | 'info' | 'success' | 'muted' }> = {
  aperto: { label: 'tickets.stateAperto', tone: 'danger' },
  in_lavorazione: { label: 'tickets.stateInLavorazione', tone: 'info' },
  riparata: { label: 'tickets.stateRiparata', tone: 'success' },
  non_riparabile: { label: 'tickets.stateNonRiparabile', tone: 'muted' },
};

export const isClosed = (stato: TicketState): boolean => stato === 'riparata' || stato === 'non_riparabile';

/**
 * How long ago a ticket was opened: `adesso`, `5 min fa`, `3 h fa`, `2 giorni fa`. From the
 * catalogue, with no Intl object: `/admin` opens without one (its ICU data costs a phone time).
 */
export function ageText(createdAt: string, now: number, t: Translate): string {
  const minutes = Math.floor(Math.max(0, now - new Date(createdAt).getTime()) / 60_000);
  if (minutes < 1) return t('tickets.ageNow');
  if (minutes < 60) return t('tickets.ageMinutes', { n: minutes });
  if (minutes < 24 * 60) return t('tickets.ageHours', { n: Math.floor(minutes / 60) });
  return t('tickets.ageDays', { n: Math.floor(minutes / (24 * 60)) });
}

/** An instant as `20/11/2026 17:30` on the college's clock (the zone table, no Intl object). */
export function dateTimeText(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const [y, m, d] = zonedToday(date, timeZone).split('-');
  return `${d}/${m}/${y} ${zonedClock(date, timeZone)}`;
}

/** Minutes as hours and minutes: `1 h 20 min`, `45 min`. */
export function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A note's minutes as typed: empty or a whole number from 0 to 1440; null when it is neither. */
export function parseMinutes(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d{1,4}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value <= 1440 ? value : null;
}
