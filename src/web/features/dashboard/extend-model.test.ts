import { describe, expect, it } from 'vitest';
import { extendedEnd } from './extend-model';

describe('extendedEnd (Prolunga)', () => {
  it('adds real minutes to the end, read as the wall clock of the zone', () => {
    expect(extendedEnd({ dataPrenotazione: '2026-11-22', orarioFine: '12:00' }, 30, 'Europe/Rome')).toBe('12:30');
    expect(extendedEnd({ dataPrenotazione: '2026-11-22', orarioFine: '23:30' }, 15, 'Europe/Rome')).toBe('23:45');
    expect(extendedEnd({ dataPrenotazione: '2026-11-22', orarioFine: '11:50' }, 60, 'Europe/Rome')).toBe('12:50');
  });

  it('on the night the clocks go forward, an hour from 01:30 is 03:30', () => {
    expect(extendedEnd({ dataPrenotazione: '2026-03-29', orarioFine: '01:30' }, 60, 'Europe/Rome')).toBe('03:30');
  });

  it('an end that names no instant (the hour skipped) gives nothing rather than a wrong time', () => {
    expect(extendedEnd({ dataPrenotazione: '2026-03-29', orarioFine: '02:30' }, 15, 'Europe/Rome')).toBe('');
  });
});
