import type { Lingua } from '../../../shared/i18n';
import { dayMonth, longDate } from '../../../shared/i18n/format';
import type { StatsDay, StatsPeriod, StatsResponse } from '../../../shared/schemas/stats';

/** The periods' names, as catalogue keys (put into the reader's language where shown). */
export const PERIOD_LABELS = {
  7: 'statsModel.period7',
  30: 'statsModel.period30',
  365: 'statsModel.period365',
} as const satisfies Record<StatsPeriod, `statsModel.period${StatsPeriod}`>;

export interface Bucket {
  /** Short label under a bar ("21/11", "nov 26" / "Nov 26"). */
  label: string;
  /** Long label for the table and the screen reader ("sabato 21 novembre 2026", "novembre 2026" / "November 2026"). */
  longLabel: string;
  rides: number;
  cancellations: number;
  releasedHolds: number;
  revenueCents: number;
}

function parts(date: string): [number, number, number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

/** A month and its year: "novembre 2026" / "November 2026" (format.ts's day of the month, less the day). */
const monthYear = (y: number, m: number, lingua: Lingua) => dayMonth(`${y}-${String(m).padStart(2, '0')}-01`, true, lingua).replace(/^1 /, '');

/**
 * The days of the answer as the bars of a chart: one per day for 7 and 30 days; one per
 * month for 365 days (365 bars would be under a pixel each on a 375 px phone).
 */
export function bucketsFor(days: StatsDay[], period: StatsPeriod, lingua: Lingua): Bucket[] {
  if (period !== 365) {
    return days.map((d) => {
      const [, m, day] = parts(d.date);
      return {
        label: `${day}/${m}`,
        longLabel: longDate(d.date, lingua),
        rides: d.rides,
        cancellations: d.cancellations,
        releasedHolds: d.releasedHolds,
        revenueCents: d.revenueCents,
      };
    });
  }
  const months = new Map<string, Bucket>();
  for (const d of days) {
    const [y, m] = parts(d.date);
    const key = `${y}-${m}`;
    let b = months.get(key);
    if (!b) {
      const longLabel = monthYear(y, m, lingua);
      b = {
        // The month's first three letters: "nov 26" / "Nov 26".
        label: `${longLabel.slice(0, 3)} ${String(y).slice(2)}`,
        longLabel,
        rides: 0,
        cancellations: 0,
        releasedHolds: 0,
        revenueCents: 0,
      };
      months.set(key, b);
    }
    b.rides += d.rides;
    b.cancellations += d.cancellations;
    b.releasedHolds += d.releasedHolds;
    b.revenueCents += d.revenueCents;
  }
  return [...months.values()];
}

/** "42%" of a part; "0%" when the whole is 0. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`;
}

/** The waitlist's days (issue 21) as bars, bucketed like the rides: served and unserved waits. */
export interface WaitBucket {
  label: string;
  longLabel: string;
  served: number;
  unserved: number;
}

export function waitBucketsFor(days: StatsResponse['waitlist']['days'], period: StatsPeriod, lingua: Lingua): WaitBucket[] {
  // The same days and months as the other charts: the two counts ride in two of a day's fields.
  const asDays: StatsDay[] = days.map((d) => ({
    date: d.date,
    rides: d.served,
    cancellations: d.unserved,
    releasedHolds: 0,
    revenueCents: 0,
    noShows: 0,
    damageReports: 0,
  }));
  return bucketsFor(asDays, period, lingua).map((b) => ({ label: b.label, longLabel: b.longLabel, served: b.rides, unserved: b.cancellations }));
}
