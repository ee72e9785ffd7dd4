/**
 * Days and money in a language (issue 36): "domenica 22 novembre 2026" / "Sunday 22 November
 * 2026", "2,50 €" / "€2.50". A calendar day is not an instant: no time zone and no `Intl` (the
 * first `Intl` object of a page loads ICU's data: shared/calendar-text.ts, money.ts). Times are
 * 24-hour "HH:MM" in both languages, as the API gives them. Instants are put into the college's
 * zone (`TZ_APP`) by the callers, as before.
 */
import { italianDayMonth, italianLongDate } from '../calendar-text.js';
import { formatEuroCents } from '../money.js';
import type { Lingua } from './index.js';

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
/** Index 0 = Sunday, as `Date.prototype.getUTCDay` counts. */
const DAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const DAYS_IT = ['domenica', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato'] as const;

function parts(date: string): { y: number; m: number; d: number; weekday: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d, weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay() };
}

/** "2026-12-14" → "lunedì 14 dicembre 2026" / "Monday 14 December 2026". */
export function longDate(date: string, lingua: Lingua): string {
  if (lingua === 'it') return italianLongDate(date);
  const { y, m, d, weekday } = parts(date);
  return `${DAYS_EN[weekday]} ${d} ${MONTHS_EN[m - 1]} ${y}`;
}

/** "2026-05-03" → "3 maggio" / "3 May", with the year when asked. */
export function dayMonth(date: string, withYear: boolean, lingua: Lingua): string {
  if (lingua === 'it') return italianDayMonth(date, withYear);
  const { y, m, d } = parts(date);
  return withYear ? `${d} ${MONTHS_EN[m - 1]} ${y}` : `${d} ${MONTHS_EN[m - 1]}`;
}

/** A weekday's name, 0 = Sunday: "lunedì" / "Monday". */
export const weekdayName = (index: number, lingua: Lingua): string => (lingua === 'it' ? DAYS_IT[index]! : DAYS_EN[index]!);

/** "2026-12-24" → "24/12/2026" in both languages (the form the texts use). */
export const shortDate = (date: string): string => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** 250 → "2,50 €" / "€2.50". */
export function money(cents: number, lingua: Lingua): string {
  if (lingua === 'it') return formatEuroCents(cents);
  const sign = cents < 0 ? '-' : '';
  const whole = Math.round(Math.abs(cents));
  const euros = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}€${euros}.${String(whole % 100).padStart(2, '0')}`;
}
