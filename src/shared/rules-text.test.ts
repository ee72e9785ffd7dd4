import { describe, expect, it } from 'vitest';
import { closureSentence, hoursSentence, italianDuration, weekdayIndex } from './rules-text.js';

describe('the rules in words', () => {
  it('finds the weekday of a date, Monday first, whatever the time zone', () => {
    expect(weekdayIndex('2026-11-23')).toBe(0); // a Monday
    expect(weekdayIndex('2026-11-29')).toBe(6); // a Sunday
    expect(weekdayIndex('2026-03-29')).toBe(6); // Rome's spring DST change, a Sunday
  });

  it('says durations in Italian', () => {
    expect(italianDuration(180)).toBe('3 ore');
    expect(italianDuration(60)).toBe('1 ora');
    expect(italianDuration(90)).toBe('1 ora e 30 minuti');
    expect(italianDuration(45)).toBe('45 minuti');
    expect(italianDuration(121)).toBe('2 ore e 1 minuto');
  });

  it('writes the refusal of a closure as the issue quotes it', () => {
    expect(closureSentence({ dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' })).toBe(
      'Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia',
    );
    expect(closureSentence({ dal: '2026-12-08', al: '2026-12-08', motivo: 'Immacolata' })).toBe('Il servizio è chiuso il 08/12/2026: Immacolata');
  });

  it("names the day's hours or that it is closed", () => {
    expect(hoursSentence('2026-11-23', { apertura: '07:00', chiusura: '23:00' })).toBe('Il lunedì il servizio è aperto dalle 07:00 alle 23:00');
    expect(hoursSentence('2026-11-29', null)).toBe('La domenica il servizio è chiuso');
  });
});
