import { describe, expect, it } from 'vitest';
import { addDays, isRealDate, zonedInstant, zonedToday } from './time.js';

describe('time in the college time zone', () => {
  it('knows real dates', () => {
    expect(isRealDate('2026-02-28')).toBe(true);
    expect(isRealDate('2026-02-29')).toBe(false);
    expect(isRealDate('2028-02-29')).toBe(true);
    expect(isRealDate('2026-13-01')).toBe(false);
    expect(isRealDate('21/11/2026')).toBe(false);
  });

  it('converts wall time in Rome to instants across DST', () => {
    expect(zonedInstant('2026-11-21', '10:00', 'Europe/Rome')!.toISOString()).toBe('2026-11-21T09:00:00.000Z');
    expect(zonedInstant('2026-07-01', '10:00', 'Europe/Rome')!.toISOString()).toBe('2026-07-01T08:00:00.000Z');
    // Last Sunday of March 2026: 02:00 jumps to 03:00.
    expect(zonedInstant('2026-03-29', '02:30', 'Europe/Rome')).toBeNull();
    expect(zonedInstant('2026-03-29', '01:59', 'Europe/Rome')!.toISOString()).toBe('2026-03-29T00:59:00.000Z');
    expect(zonedInstant('2026-03-29', '03:00', 'Europe/Rome')!.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // Last Sunday of October 2026: 03:00 falls back to 02:00.
    expect(zonedInstant('2026-10-25', '01:00', 'Europe/Rome')!.toISOString()).toBe('2026-10-24T23:00:00.000Z');
    expect(zonedInstant('2026-10-25', '04:00', 'Europe/Rome')!.toISOString()).toBe('2026-10-25T03:00:00.000Z');
  });

  it("tells today's date in Rome, not in UTC", () => {
    expect(zonedToday(new Date('2026-11-21T23:30:00Z'), 'Europe/Rome')).toBe('2026-11-22');
    expect(zonedToday(new Date('2026-11-21T22:59:00Z'), 'Europe/Rome')).toBe('2026-11-21');
  });

  it("remembers today only within the same minute and zone", () => {
    // Asked again and again in one minute, then the minute of midnight in Rome.
    expect(zonedToday(new Date('2026-11-21T22:59:00.000Z'), 'Europe/Rome')).toBe('2026-11-21');
    expect(zonedToday(new Date('2026-11-21T22:59:59.999Z'), 'Europe/Rome')).toBe('2026-11-21');
    expect(zonedToday(new Date('2026-11-21T23:00:00.000Z'), 'Europe/Rome')).toBe('2026-11-22');
    // The same minute in another zone is another question.
    expect(zonedToday(new Date('2026-11-21T23:00:00.000Z'), 'UTC')).toBe('2026-11-21');
    expect(zonedToday(new Date('2026-11-21T23:00:30.000Z'), 'Europe/Rome')).toBe('2026-11-22');
    // Back in time too (an injected clock may go back).
    expect(zonedToday(new Date('2026-11-21T22:59:30.000Z'), 'Europe/Rome')).toBe('2026-11-21');
    // The night daylight saving time ends: midnight is 22:00 UTC in summer time.
    expect(zonedToday(new Date('2026-10-24T21:59:00.000Z'), 'Europe/Rome')).toBe('2026-10-24');
    expect(zonedToday(new Date('2026-10-24T22:00:00.000Z'), 'Europe/Rome')).toBe('2026-10-25');
  });

  it('adds calendar days', () => {
    expect(addDays('2026-11-21', 30)).toBe('2026-12-21');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
