import { z } from '../zod-it.js';
import { msg } from './message.js';
import { sedeIdParam } from './sedi.js';

/**
 * The staff's statistics (issue 10, "Also: the staff's statistics"): GET /api/admin/stats
 * and GET /api/admin/stats/export.csv, admins only. One source for the routes and the
 * /admin/statistiche screen.
 */

export const STATS_PERIODS = [7, 30, 365] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** `?period=7|30|365` (days ending today in TZ_APP); default 30. */
export const statsQuerySchema = z.object({
  period: z.coerce
    .number()
    .refine((n): n is StatsPeriod => (STATS_PERIODS as readonly number[]).includes(n), msg('schemas.invalidPeriod'))
    .default(30),
  /** One sede's figures (issue 48); absent: every sede (a staff member's: theirs). */
  sedeId: sedeIdParam.optional(),
});

export interface StatsDay {
  /** `YYYY-MM-DD` (TZ_APP). Every day of the period is present, zero-filled. */
  date: string;
  /** Bookings starting that day that were not cancelled (active or completed). */
  rides: number;
  cancellations: number;
  /** Cancelled bookings whose payment failed: the hold on the bike was released. */
  releasedHolds: number;
  /** Completed payments of that day's bookings, euro cents (refunded payments excluded). */
  revenueCents: number;
  /** That day's bookings released because the bike was never picked up (decision 022). */
  noShows: number;
  /** Damage reports made that day (TZ_APP), at the return of a ride. */
  damageReports: number;
}

export interface StatsBike {
  id: number;
  numero: string;
  modello: string;
  rides: number;
  /** Total hours booked (not cancelled), one decimal. */
  hours: number;
}

/** A sede's totals of the period (issue 47): the rows of every sede add up to the install's totals. */
export interface StatsSede {
  sedeId: number;
  nome: string;
  rides: number;
  /** Hours booked (not cancelled), one decimal. */
  hours: number;
  revenueCents: number;
  cancellations: number;
  /** Repair tickets (issue 48): opened in the period, closed in it (`riparata` or `non_riparabile`). */
  ticketsOpened: number;
  ticketsClosed: number;
  /** The median time to repair (opened → `riparata`) of the tickets repaired in the period, in hours (one decimal); null without one. */
  repairMedianHours: number | null;
}

export interface StatsResponse {
  period: StatsPeriod;
  from: string;
  to: string;
  timeZone: string;
  totals: {
    bookings: number;
    rides: number;
    cancellations: number;
    releasedHolds: number;
    revenueCents: number;
    residentRides: number;
    externalRides: number;
    noShows: number;
    damageReports: number;
    /** Repair tickets (issue 48), every sede: opened and closed in the period, and the median hours to repair. */
    ticketsOpened: number;
    ticketsClosed: number;
    repairMedianHours: number | null;
  };
  days: StatsDay[];
  /** 24 entries, hour 0–23 of the start in TZ_APP: rides (not cancelled). */
  hours: { hour: number; rides: number }[];
  /** Every bike, also those never taken (0), most used first. */
  bikes: StatsBike[];
  /**
   * Each sede's totals (issue 47): every open sede, and an archived one with figures in the
   * period, in the order they were made. One row in an install with one sede (the screens show
   * the table only with several).
   */
  sedi: StatsSede[];
  /**
   * The waitlist (issue 21), by the window's day and starting hour (TZ_APP): waits served (a
   * booking made through an offer) and unserved (the window started and no bike was ever
   * offered: demand the fleet could not meet).
   */
  waitlist: {
    served: number;
    unserved: number;
    /** Every day of the period, zero-filled. */
    days: { date: string; served: number; unserved: number }[];
    /** 24 entries, hour 0–23. */
    hours: { hour: number; unserved: number }[];
  };
}
