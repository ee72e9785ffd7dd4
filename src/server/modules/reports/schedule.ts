import { addDays, zonedInstant, zonedToday } from '../../../shared/time.js';

/** The nightly report runs at 23:00 in TZ_APP (croner pattern, evaluated in that zone). */
export const REPORT_CRON = '0 23 * * *';
export const REPORT_TIME = '23:00';
/** The 23:00 tick counts as 23:00 even if its timer fires up to this early. */
export const REPORT_GRACE_MS = 60_000;
/** How many past days the start-up catch-up looks at (decision 016). */
export const CATCH_UP_DAYS = 7;
/** Reports kept (spec §9). */
export const REPORTS_KEPT = 30;

/** The instant of `date` at 23:00 in `timeZone` (if that wall time did not exist, the next midnight). */
export function reportInstant(date: string, timeZone: string): Date {
  return zonedInstant(date, REPORT_TIME, timeZone) ?? zonedInstant(addDays(date, 1), '00:00', timeZone)!;
}

/**
 * The report dates whose 23:00 (TZ_APP) has passed at `now`, newest last, looking back
 * `windowDays` days (today included). The caller drops those already made.
 */
export function dueReportDates(now: Date, timeZone: string, windowDays: number = CATCH_UP_DAYS): string[] {
  const today = zonedToday(now, timeZone);
  const dates: string[] = [];
  for (let i = windowDays - 1; i >= 0; i--) {
    const date = addDays(today, -i);
    if (reportInstant(date, timeZone).getTime() <= now.getTime()) dates.push(date);
  }
  return dates;
}
