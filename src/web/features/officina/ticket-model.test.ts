import { describe, expect, it } from 'vitest';
import { tFor } from '../../../shared/i18n/all';
import { ageText, dateTimeText, durationText, isClosed, parseMinutes } from './ticket-model';

describe('ticket-model', () => {
  const opened = '2026-11-20T10:00:00.000Z';
  const at = (ms: number) => new Date(opened).getTime() + ms;

  it('says how long ago a ticket was opened, in the page language, with no Intl object', () => {
    const it = tFor('it');
    const en = tFor('en');
    expect(ageText(opened, at(30_000), it)).toBe('adesso');
    expect(ageText(opened, at(5 * 60_000), it)).toBe('5 min fa');
    expect(ageText(opened, at(3 * 3_600_000 + 59 * 60_000), it)).toBe('3 h fa');
    expect(ageText(opened, at(86_400_000), it)).toBe('1 giorno fa');
    expect(ageText(opened, at(3 * 86_400_000), en)).toBe('3 days ago');
    // A clock a little behind the server's never says "in 1 minute".
    expect(ageText(opened, at(-90_000), en)).toBe('just now');
  });

  it("writes an instant on the college's clock", () => {
    expect(dateTimeText('2026-11-20T16:30:00.000Z', 'Europe/Rome')).toBe('20/11/2026 17:30');
    expect(dateTimeText('2026-07-01T22:05:00.000Z', 'Europe/Rome')).toBe('02/07/2026 00:05');
  });

  it('writes minutes of work as hours and minutes', () => {
    expect(durationText(0)).toBe('0 min');
    expect(durationText(45)).toBe('45 min');
    expect(durationText(60)).toBe('1 h');
    expect(durationText(80)).toBe('1 h 20 min');
  });

  it('reads the minutes typed: empty is none, a whole number from 0 to 1440, anything else a mistake', () => {
    expect(parseMinutes('  ')).toBeUndefined();
    expect(parseMinutes('25')).toBe(25);
    expect(parseMinutes('1440')).toBe(1440);
    expect(parseMinutes('1441')).toBeNull();
    expect(parseMinutes('2.5')).toBeNull();
    expect(parseMinutes('-3')).toBeNull();
  });

  it('knows the closed states', () => {
    expect(isClosed('riparata')).toBe(true);
    expect(isClosed('non_riparabile')).toBe(true);
    expect(isClosed('aperto')).toBe(false);
    expect(isClosed('in_lavorazione')).toBe(false);
  });
});
