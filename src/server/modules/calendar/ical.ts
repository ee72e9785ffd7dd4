/**
 * A small iCalendar (RFC 5545) writer for the bookings' calendar: VCALENDAR with one
 * VTIMEZONE (the app's zone, its transitions taken from the runtime's time-zone data) and
 * VEVENTs whose times are wall-clock times in that zone (`DTSTART;TZID=…`). Lines end with
 * CRLF and are folded at 75 octets without splitting a UTF-8 character (§3.1); text values
 * are escaped (§3.3.11).
 */

export interface CalendarEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  location?: string | null;
  description?: string | null;
  status?: 'CONFIRMED' | 'CANCELLED' | 'TENTATIVE';
  /** When the event last changed (LAST-MODIFIED), if known. */
  lastModified?: Date;
  /** Bumped when the event changes, so that clients replace their copy. */
  sequence?: number;
  url?: string;
}

export interface CalendarOptions {
  timeZone: string;
  /** DTSTAMP: when this calendar was made. */
  now: Date;
  name?: string;
  method?: 'PUBLISH';
}

const PRODID = '-//BiciElis//Prenotazioni biciclette//IT';

/** Escapes a TEXT value: backslash, semicolon, comma; every line break becomes `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    // Other control characters are not allowed in a TEXT value (§3.3.11): dropped.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/** Folds a content line at 75 octets (continuation lines start with a space), CRLF-terminated. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    // The first line holds 75 octets; each continuation line 74 after its leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ') + '\r\n';
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as a UTC DATE-TIME: `20261121T090000Z`. */
export function utcDateTime(d: Date): string {
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** A wall-clock DATE-TIME without zone: `20261121T100000`. */
function localDateTime(w: WallClock): string {
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}T${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
}

/** An instant as the zone's wall clock: `20261121T100000` (used with `;TZID=`). */
export function zonedDateTime(d: Date, timeZone: string): string {
  return localDateTime(wallClock(d.getTime(), timeZone));
}

/** A UTC offset as iCalendar writes it: `+0100`, `-0330`. */
function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

interface Transition {
  /** The instant the offset changes. */
  at: number;
  from: number;
  to: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The instants in [from, to) at which the zone's offset changes (to the minute). */
function transitions(timeZone: string, from: number, to: number): Transition[] {
  const found: Transition[] = [];
  let prev = from;
  let prevOffset = offsetMinutes(prev, timeZone);
  // Offsets change at most a few times a year and never twice within a day.
  for (let t = from + DAY; t < to + DAY; t += DAY) {
    const offset = offsetMinutes(t, timeZone);
    if (offset !== prevOffset) {
      let lo = prev;
      let hi = t;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (offsetMinutes(mid, timeZone) === prevOffset) lo = mid;
        else hi = mid;
      }
      if (hi >= from && hi < to) found.push({ at: hi, from: prevOffset, to: offset });
    }
    prev = t;
    prevOffset = offset;
  }
  return found;
}

/**
 * The VTIMEZONE of `timeZone` covering [from, to): one observance where the period starts and
 * one at each transition inside it, each without RRULE (a single onset, as §3.6.5 allows),
 * so the definition is exactly the runtime's time-zone data, whatever the zone's rules.
 * An observance is DAYLIGHT when its offset is above the year's lowest (standard) one.
 */
export function vtimezone(timeZone: string, from: Date, to: Date): string[] {
  const start = Date.UTC(from.getUTCFullYear(), 0, 1);
  const end = Date.UTC(to.getUTCFullYear() + 1, 0, 1);
  const standardOf = (instant: number) => {
    const year = new Date(instant).getUTCFullYear();
    return Math.min(offsetMinutes(Date.UTC(year, 0, 1), timeZone), offsetMinutes(Date.UTC(year, 6, 1), timeZone));
  };
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  const observance = (at: number, fromOffset: number, toOffset: number) => {
    const kind = toOffset > standardOf(at) ? 'DAYLIGHT' : 'STANDARD';
    // DTSTART is the onset as the wall clock read it just before (in the previous offset).
    const onset = new Date(at + fromOffset * 60_000);
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${utcDateTime(onset).slice(0, -1)}`,
      `TZOFFSETFROM:${utcOffset(fromOffset)}`,
      `TZOFFSETTO:${utcOffset(toOffset)}`,
      `END:${kind}`,
    );
  };
  const initial = offsetMinutes(start, timeZone);
  observance(start, initial, initial);
  for (const t of transitions(timeZone, start, end)) observance(t.at, t.from, t.to);
  lines.push('END:VTIMEZONE');
  return lines;
}

/** The whole VCALENDAR, CRLF line endings, folded. */
export function buildCalendar(events: CalendarEvent[], options: CalendarOptions): string {
  const { timeZone, now } = options;
  const lines: string[] = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN'];
  if (options.method) lines.push(`METHOD:${options.method}`);
  if (options.name) lines.push(`X-WR-CALNAME:${escapeText(options.name)}`);
  lines.push(`X-WR-TIMEZONE:${timeZone}`);
  const instants = events.flatMap((e) => [e.start.getTime(), e.end.getTime()]);
  const first = new Date(Math.min(now.getTime(), ...instants));
  const last = new Date(Math.max(now.getTime(), ...instants));
  lines.push(...vtimezone(timeZone, first, last));
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${utcDateTime(now)}`,
      `DTSTART;TZID=${timeZone}:${zonedDateTime(e.start, timeZone)}`,
      `DTEND;TZID=${timeZone}:${zonedDateTime(e.end, timeZone)}`,
      `SUMMARY:${escapeText(e.summary)}`,
    );
    if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`);
    if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
    if (e.url) lines.push(`URL:${e.url}`);
    lines.push(`STATUS:${e.status ?? 'CONFIRMED'}`);
    if (e.sequence !== undefined) lines.push(`SEQUENCE:${e.sequence}`);
    if (e.lastModified) lines.push(`LAST-MODIFIED:${utcDateTime(e.lastModified)}`);
    lines.push('TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('');
}
