import { describe, expect, it } from 'vitest';
import type { StatsDay } from '../../../shared/schemas/stats';
import { bucketsFor, percent, waitBucketsFor } from './stats-model';

const day = (date: string, rides: number, revenueCents = 0): StatsDay => ({
  date,
  rides,
  cancellations: 0,
  releasedHolds: 0,
  revenueCents,
  noShows: 0,
  damageReports: 0,
});

describe('bucketsFor', () => {
  it('keeps one bar a day for 7 and 30 days, with Italian labels', () => {
    const b = bucketsFor([day('2026-11-20', 2), day('2026-11-21', 1)], 7, 'it');
    expect(b.map((x) => [x.label, x.longLabel, x.rides])).toEqual([
      ['20/11', 'venerdì 20 novembre 2026', 2],
      ['21/11', 'sabato 21 novembre 2026', 1],
    ]);
  });

  it('sums 365 days by month', () => {
    const b = bucketsFor([day('2025-11-30', 1, 250), day('2025-12-01', 2, 250), day('2025-12-31', 3)], 365, 'it');
    expect(b.map((x) => [x.label, x.longLabel, x.rides, x.revenueCents])).toEqual([
      ['nov 25', 'novembre 2025', 1, 250],
      ['dic 25', 'dicembre 2025', 5, 250],
    ]);
  });
});

describe('in English (issue 36)', () => {
  it('names the days and the months in English', () => {
    expect(bucketsFor([day('2026-11-20', 2)], 7, 'en').map((x) => [x.label, x.longLabel])).toEqual([['20/11', 'Friday 20 November 2026']]);
    expect(bucketsFor([day('2025-12-01', 2), day('2026-01-31', 1)], 365, 'en').map((x) => [x.label, x.longLabel])).toEqual([
      ['Dec 25', 'December 2025'],
      ['Jan 26', 'January 2026'],
    ]);
  });
});

describe('helpers', () => {
  it('percent', () => {
    expect(percent(1, 3)).toBe('33%');
    expect(percent(0, 0)).toBe('0%');
  });
});

describe('the unserved demand chart (issue 21)', () => {
  it('buckets served and unserved waits by day, and by month over a year', () => {
    const days = [
      { date: '2026-11-20', served: 1, unserved: 3 },
      { date: '2026-11-21', served: 0, unserved: 2 },
    ];
    expect(waitBucketsFor(days, 7, 'it')).toEqual([
      { label: '20/11', longLabel: 'venerdì 20 novembre 2026', served: 1, unserved: 3 },
      { label: '21/11', longLabel: 'sabato 21 novembre 2026', served: 0, unserved: 2 },
    ]);
    expect(waitBucketsFor(days, 365, 'it')).toEqual([{ label: 'nov 26', longLabel: 'novembre 2026', served: 1, unserved: 5 }]);
  });
});
