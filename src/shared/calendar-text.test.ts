import { format } from 'date-fns';
import { it as italian } from 'date-fns/locale';
import { describe, expect, it } from 'vitest';
import { addDays } from './time';
import { italianDayMonth, italianLongDate } from './calendar-text';

describe('calendar-text', () => {
  it('says every day of 2024–2029 as date-fns with its Italian locale does', () => {
    let day = '2024-01-01';
    let checked = 0;
    while (day < '2030-01-01') {
      const [y, m, d] = day.split('-').map(Number) as [number, number, number];
      const local = new Date(y, m - 1, d);
      expect(italianLongDate(day)).toBe(format(local, 'EEEE d MMMM yyyy', { locale: italian }));
      expect(italianDayMonth(day, false)).toBe(format(local, 'd MMMM', { locale: italian }));
      expect(italianDayMonth(day, true)).toBe(format(local, 'd MMMM yyyy', { locale: italian }));
      day = addDays(day, 1);
      checked++;
    }
    expect(checked).toBe(2192);
  });

  it('names the days the service shows', () => {
    expect(italianLongDate('2026-11-22')).toBe('domenica 22 novembre 2026');
    expect(italianLongDate('2026-11-26')).toBe('giovedì 26 novembre 2026');
    expect(italianDayMonth('2026-05-03', false)).toBe('3 maggio');
    expect(italianDayMonth('2025-12-31', true)).toBe('31 dicembre 2025');
  });
});
