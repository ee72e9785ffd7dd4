import type { StatsDay, StatsPeriod, StatsResponse } from '../../../shared/schemas/stats';

export const PERIOD_LABELS: Record<StatsPeriod, string> = {
  7: 'Ultimi 7 giorni',
  30: 'Ultimi 30 giorni',
  365: 'Ultimi 365 giorni',
};

export interface Bucket {
  /** Short label under a bar ("21/11", "nov 26"). */
  label: string;
  /** Long label for the table and the screen reader ("sabato 21 novembre 2026", "novembre 2026"). */
  longLabel: string;
  rides: number;
  cancellations: number;
  releasedHolds: number;
  revenueCents: number;
}

const MONTHS = ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'];
const MONTHS_LONG = [
  'gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno',
  'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre',
];
const WEEKDAYS = ['domenica', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato'];

function parts(date: string): [number, number, number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

/**
 * The days of the answer as the bars of a chart: one per day for 7 and 30 days; one per
 * month for 365 days (365 bars would be under a pixel each on a 375 px phone).
 */
export function bucketsFor(days: StatsDay[], period: StatsPeriod): Bucket[] {
  if (period !== 365) {
    return days.map((d) => {
      const [y, m, day] = parts(d.date);
      const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, day)).getUTCDay()]!;
      return {
        label: `${day}/${m}`,
        longLabel: `${weekday} ${day} ${MONTHS_LONG[m - 1]} ${y}`,
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
      b = {
        label: `${MONTHS[m - 1]} ${String(y).slice(2)}`,
        longLabel: `${MONTHS_LONG[m - 1]} ${y}`,
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

export function waitBucketsFor(days: StatsResponse['waitlist']['days'], period: StatsPeriod): WaitBucket[] {
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
  return bucketsFor(asDays, period).map((b) => ({ label: b.label, longLabel: b.longLabel, served: b.rides, unserved: b.cancellations }));
}
