import type { Lingua } from '../../shared/i18n';
import { currentLingua } from './i18n';
import { longDate } from '../../shared/i18n/format';
import { isRealDate, zonedClock } from '../../shared/time';

/** A booking's day, window and times as the dashboard and the waitlist write them. */

/**
 * "2026-12-14" → "lunedì 14 dicembre 2026" / "Monday 14 December 2026"; anything else as it is.
 * In a render, give the language (`useLingua()`); elsewhere the app's language now.
 */
export function formatBookingDate(date: string, lingua: Lingua = currentLingua()): string {
  return isRealDate(date) ? longDate(date, lingua) : date;
}

export function formatTimeRange(start: string, end: string): string {
  return `${start}–${end}`;
}

/** An instant's wall-clock time in the college's zone, or null for an invalid instant. */
export function formatClock(iso: string, timeZone: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : zonedClock(date, timeZone);
}
