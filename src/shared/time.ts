import { TZDate } from '@date-fns/tz';

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** True when `YYYY-MM-DD` names a real calendar day. */
export function isRealDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * The instant of a wall-clock date and time in `timeZone`, or null when that wall time
 * does not exist there (the hour skipped when daylight saving time starts). For the
 * repeated hour when it ends, the later of the two instants is taken.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date | null {
  // Pure and asked for the same few windows over and over (the booking form's defaults):
  // remembered, a few thousand at most.
  const key = `${date} ${time} ${timeZone}`;
  if (instantMemo.has(key)) {
    const ms = instantMemo.get(key)!;
    return ms === null ? null : new Date(ms);
  }
  if (instantMemo.size >= 4096) instantMemo.clear();
  const result = computeZonedInstant(date, time, timeZone);
  instantMemo.set(key, result ? result.getTime() : null);
  return result;
}

const instantMemo = new Map<string, number | null>();

function computeZonedInstant(date: string, time: string, timeZone: string): Date | null {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const z = new TZDate(y, m - 1, d, hh, mm, timeZone);
  if (z.getFullYear() !== y || z.getMonth() !== m - 1 || z.getDate() !== d || z.getHours() !== hh || z.getMinutes() !== mm) {
    return null;
  }
  return new Date(z.getTime());
}

/** Today's date (`YYYY-MM-DD`) in `timeZone` at `now`. */
export function zonedToday(now: Date, timeZone: string): string {
  // Asked at every booking request; a zone's offset only changes on a whole minute, so the
  // date is the same all through a minute: the last answer is remembered for its minute.
  const minute = Math.floor(now.getTime() / 60_000);
  if (todayMemo.minute === minute && todayMemo.timeZone === timeZone) return todayMemo.today;
  const z = new TZDate(now.getTime(), timeZone);
  const today = `${z.getFullYear()}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`;
  todayMemo = { minute, timeZone, today };
  return today;
}

let todayMemo = { minute: Number.NaN, timeZone: '', today: '' };

/** The wall-clock time (`HH:mm`) in `timeZone` at `now`. */
export function zonedClock(now: Date, timeZone: string): string {
  const z = new TZDate(now.getTime(), timeZone);
  return `${String(z.getHours()).padStart(2, '0')}:${String(z.getMinutes()).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}
