import { TZDate, tzOffset } from '@date-fns/tz';
import { afterEach, describe, expect, it } from 'vitest';
import { setZoneTable, zonedClock, zonedInstant, zonedToday, zoneTableAround } from './time';
import { buildZoneTable, isZoneTable, tableOffset } from './zone-table';

/** The reference: date-fns's TZDate, which shared/time.ts used before the zone tables. */
const reference: { instant(date: string, time: string, timeZone: string): number | null; today(ms: number, timeZone: string): string; clock(ms: number, timeZone: string): string } = {
  /**
   * The instant of a wall time, by brute force: of the instants a whole quarter of an hour
   * away from it (every offset a zone can have) whose wall clock reads it, the later one
   * (time.ts's rule for the repeated hour; TZDate itself took the earlier one west of UTC).
   */
  instant(date: string, time: string, timeZone: string): number | null {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const [hh, mm] = time.split(':').map(Number) as [number, number];
    const wall = Date.UTC(y, m - 1, d, hh, mm);
    // From the latest instant back: the first that reads it is the later one.
    for (let quarter = -14 * 4; quarter <= 14 * 4; quarter++) {
      const instant = wall - quarter * 15 * 60_000;
      if (tzOffset(timeZone, new Date(instant)) === quarter * 15 && reference.today(instant, timeZone) === date && reference.clock(instant, timeZone) === time) return instant;
    }
    return null;
  },
  today(ms: number, timeZone: string): string {
    const z = new TZDate(ms, timeZone);
    return `${z.getFullYear()}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`;
  },
  clock(ms: number, timeZone: string): string {
    const z = new TZDate(ms, timeZone);
    return `${String(z.getHours()).padStart(2, '0')}:${String(z.getMinutes()).padStart(2, '0')}`;
  },
};

const two = (n: number) => String(n).padStart(2, '0');
const HOUR = 3_600_000;
// Rome (the college), zones with other rules: half-hour and 45-minute offsets, a 30-minute
// daylight saving shift, the southern hemisphere, a zone without daylight saving.
const ZONES = ['Europe/Rome', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Santiago', 'Asia/Kolkata', 'UTC'];
const NOW = Date.UTC(2026, 10, 26, 12, 0);

/** Every wall time of a quarter of an hour over the days around each change of `timeZone` in 2026, and some ordinary days. */
function wallTimes(timeZone: string): [string, string][] {
  const table = zoneTableAround(timeZone, NOW);
  const days = new Set<number>([Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15), Date.UTC(2027, 4, 3)]);
  for (const [start] of table.offsets.slice(1)) for (const d of [-1, 0, 1]) days.add(Math.floor(start / 86_400_000 + d) * 86_400_000);
  const out: [string, string][] = [];
  for (const day of days) {
    const date = new Date(day).toISOString().slice(0, 10);
    for (let q = 0; q < 96; q++) out.push([date, `${two(Math.floor(q / 4))}:${two((q % 4) * 15)}`]);
  }
  return out;
}

afterEach(() => setZoneTable(undefined));

describe('zone tables (the browser opens a server-rendered page without Intl)', () => {
  it('finds each change of offset to the millisecond', () => {
    const table = zoneTableAround('Europe/Rome', NOW);
    const changes = table.offsets.slice(1).map(([start, offset]) => [new Date(start).toISOString(), offset]);
    expect(changes).toContainEqual(['2026-10-25T01:00:00.000Z', 60]);
    expect(changes).toContainEqual(['2027-03-28T01:00:00.000Z', 120]);
    expect(changes).toContainEqual(['2026-03-29T01:00:00.000Z', 120]);
    // 400 days before 26 November 2026 is in summer time.
    expect(table.offsets[0]).toEqual([table.from, 120]);
    expect(tableOffset(table, Date.UTC(2026, 9, 25, 0, 59, 59, 999))).toBe(120);
    expect(tableOffset(table, Date.UTC(2026, 9, 25, 1))).toBe(60);
    expect(tableOffset(table, table.from - 1)).toBeUndefined();
    expect(tableOffset(table, table.to)).toBeUndefined();
    expect(table.to - table.from).toBe(801 * 86_400_000);
  });

  it('is made once a day and zone', () => {
    expect(zoneTableAround('Europe/Rome', NOW)).toBe(zoneTableAround('Europe/Rome', NOW + HOUR));
    expect(zoneTableAround('Europe/Rome', NOW)).not.toBe(zoneTableAround('Europe/Rome', NOW + 24 * HOUR));
  });

  it('samples a made-up zone exactly, whatever the step falls on', () => {
    const changes = [1_000_000, 1_000_001, 50_000_000, 50_000_000 + 7 * HOUR];
    const offsetAt = (ms: number) => changes.filter((c) => c <= ms).length * 30;
    const table = buildZoneTable('X', 0, 100_000_000, offsetAt);
    // Two changes 1 ms apart are seen as one, from the first (a zone does not do that); the others exactly.
    expect(table.offsets).toEqual([[0, 0], [1_000_000, 60], [50_000_000, 90], [50_000_000 + 7 * HOUR, 120]]);
    for (let ms = 0; ms < 100_000_000; ms += 999_983) if (ms !== 1_000_000) expect(tableOffset(table, ms)).toBe(offsetAt(ms));
  });

  it.each(ZONES)('gives in %s what date-fns gives, with the table and without it', (timeZone) => {
    const walls = wallTimes(timeZone);
    const instants = walls.map(([date, time]) => Date.UTC(...(date.split('-').map(Number) as [number, number, number]).map((n, i) => (i === 1 ? n - 1 : n)) as [number, number, number], ...(time.split(':').map(Number) as [number, number])));
    const expected = walls.map(([date, time], i) => [
      reference.instant(date, time, timeZone),
      reference.today(instants[i]!, timeZone),
      reference.clock(instants[i]!, timeZone),
    ]);
    const actual = () =>
      walls.map(([date, time], i) => [zonedInstant(date, time, timeZone)?.getTime() ?? null, zonedToday(new Date(instants[i]!), timeZone), zonedClock(new Date(instants[i]!), timeZone)]);
    expect(actual()).toEqual(expected);
    setZoneTable(zoneTableAround(timeZone, NOW));
    expect(actual()).toEqual(expected);
    // The skipped and the repeated hours are among them, where the zone has them.
    if (timeZone === 'Europe/Rome') {
      expect(expected.filter(([instant]) => instant === null).length).toBe(4 * 2);
      expect(walls.length).toBeGreaterThan(96 * 6);
    }
  });

  it('answers from the table without asking Intl, and from Intl outside it or for another zone', () => {
    const table = zoneTableAround('Europe/Rome', NOW);
    // A table that says something else than Intl shows which one answered.
    setZoneTable({ ...table, offsets: [[table.from, 7]] });
    expect(zonedClock(new Date(Date.UTC(2026, 10, 26, 12, 0)), 'Europe/Rome')).toBe('12:07');
    expect(zonedClock(new Date(table.to + HOUR), 'Europe/Rome')).toBe(reference.clock(table.to + HOUR, 'Europe/Rome'));
    expect(zonedClock(new Date(Date.UTC(2026, 10, 26, 12, 0)), 'America/New_York')).toBe('07:00');
  });

  it('tells a table from anything else a page could hold', () => {
    expect(isZoneTable(zoneTableAround('Europe/Rome', NOW))).toBe(true);
    for (const bad of [null, 1, 'x', {}, { timeZone: 'Europe/Rome', from: 0, to: 1, offsets: [] }, { timeZone: 'Europe/Rome', from: 0, to: 1, offsets: [[0, 'x']] }, { timeZone: 1, from: 0, to: 1, offsets: [[0, 60]] }])
      expect(isZoneTable(bad)).toBe(false);
  });
});
