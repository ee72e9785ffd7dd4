import type { PlainKey } from '../../../shared/schemas/message';
import type { TicketState } from '../../../shared/staff';

/** A ticket's state as the screens name it (the words) and its badge's tone. */
export const TICKET_STATE_BADGE: Record<TicketState, { label: PlainKey; tone: 'danger' | 'info' | 'success' | 'muted' }> = {
  aperto: { label: 'tickets.stateAperto', tone: 'danger' },
  in_lavorazione: { label: 'tickets.stateInLavorazione', tone: 'info' },
  riparata: { label: 'tickets.stateRiparata', tone: 'success' },
  non_riparabile: { label: 'tickets.stateNonRiparabile', tone: 'muted' },
};

export const isClosed = (stato: TicketState): boolean => stato === 'riparata' || stato === 'non_riparabile';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago a ticket was opened, in the page's language: `2 ore fa`, `ieri`, `adesso`. */
export function ageText(createdAt: string, now: number, lingua: string): string {
  const elapsed = Math.max(0, now - new Date(createdAt).getTime());
  const format = new Intl.RelativeTimeFormat(lingua, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (elapsed >= ms) return format.format(-Math.floor(elapsed / ms), unit);
  return format.format(0, 'minute');
}

/** An instant as a date and a time on the college's clock, in the page's language. */
export function dateTimeText(iso: string, timeZone: string, lingua: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lingua, { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(date);
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
