import { italianLongDate } from '../../shared/calendar-text';
import { isRealDate, zonedClock } from '../../shared/time';

/** A booking's day, window and times as the dashboard and the waitlist write them. */

export function formatBookingDate(date: string): string {
  return isRealDate(date) ? italianLongDate(date) : date;
}

export function formatTimeRange(start: string, end: string): string {
  return `${start}–${end}`;
}

/** An instant's wall-clock time in the college's zone, or null for an invalid instant. */
export function formatClock(iso: string, timeZone: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : zonedClock(date, timeZone);
}
