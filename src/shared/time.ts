import { tzOffset } from '@date-fns/tz';
import { buildZoneTable, tableOffset, type ZoneTable } from './zone-table';

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
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The instants whose wall clock reads `wall` are `wall − offset` for an offset the zone has
  // then: one, none (the skipped hour) or two (the repeated hour, the later one taken). A
  // zone changes its offset at most once in a day, so the offsets a day either side are all
  // the candidates.
  let found: number | null = null;
  for (const offset of new Set([offsetMinutes(wall - DAY_MS, timeZone), offsetMinutes(wall, timeZone), offsetMinutes(wall + DAY_MS, timeZone)])) {
    const instant = wall - offset * MINUTE_MS;
    if (offsetMinutes(instant, timeZone) === offset && (found === null || instant > found)) found = instant;
  }
  return found === null ? null : new Date(found);
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The zone's offsets the page was served with (a page rendered on the server: boot/server-state.ts),
 * so that the browser needs no `Intl` object to open it: a page's first loads ICU's data, some
 * 25 ms on the 2-core machine and about four times that on a slow phone (docs/performance.md).
 * Instants outside the table, or another zone, are asked of `Intl` through date-fns.
 */
let zoneTable: ZoneTable | undefined;

/** Uses `table` (or none) for the zone it is of. */
export function setZoneTable(table: ZoneTable | undefined): void {
  zoneTable = table;
}

/** The UTC offset of `timeZone` at the instant `ms`, in minutes east of Greenwich. */
export function offsetMinutes(ms: number, timeZone: string): number {
  const fromTable = zoneTable?.timeZone === timeZone ? tableOffset(zoneTable, ms) : undefined;
  return fromTable ?? tzOffset(timeZone, new Date(ms));
}

const two = (n: number) => String(n).padStart(2, '0');

/** `HH:MM` as minutes since midnight, and back. */
export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const toHhmm = (m: number) => `${two(Math.floor(m / 60))}:${two(m % 60)}`;

/** The wall clock of `timeZone` at `now`, as the UTC fields of a Date. */
function wallClock(now: Date, timeZone: string): Date {
  return new Date(now.getTime() + offsetMinutes(now.getTime(), timeZone) * MINUTE_MS);
}

/** Today's date (`YYYY-MM-DD`) in `timeZone` at `now`. */
export function zonedToday(now: Date, timeZone: string): string {
  // Asked at every booking request; a zone's offset only changes on a whole minute, so the
  // date is the same all through a minute: the last answer is remembered for its minute.
  const minute = Math.floor(now.getTime() / 60_000);
  if (todayMemo.minute === minute && todayMemo.timeZone === timeZone) return todayMemo.today;
  const z = wallClock(now, timeZone);
  const today = `${z.getUTCFullYear()}-${two(z.getUTCMonth() + 1)}-${two(z.getUTCDate())}`;
  todayMemo = { minute, timeZone, today };
  return today;
}

let todayMemo = { minute: Number.NaN, timeZone: '', today: '' };

/** The wall-clock time (`HH:mm`) in `timeZone` at `now`. */
export function zonedClock(now: Date, timeZone: string): string {
  const z = wallClock(now, timeZone);
  return `${two(z.getUTCHours())}:${two(z.getUTCMinutes())}`;
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}

/** How far either side of its day a page's zone table reaches: a booking's past and its horizon. */
const ZONE_TABLE_DAYS = 400;
let tableMemo: ZoneTable | undefined;

/**
 * The table of `timeZone`'s offsets for a page rendered at `now` (entry-server.tsx), from the
 * runtime's time-zone data: the same for every page of a UTC day, so made once a day.
 */
export function zoneTableAround(timeZone: string, now: number): ZoneTable {
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  const from = day - ZONE_TABLE_DAYS * DAY_MS;
  if (tableMemo?.timeZone !== timeZone || tableMemo.from !== from) {
    tableMemo = buildZoneTable(timeZone, from, day + (ZONE_TABLE_DAYS + 1) * DAY_MS, (ms) => tzOffset(timeZone, new Date(ms)));
  }
  return tableMemo;
}
