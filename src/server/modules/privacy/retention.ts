import { subMonths } from 'date-fns/subMonths';
import type { Db } from '../../db/client.js';
import { retryTransient } from '../../db/transaction.js';
import { purgeExpiredSessions } from '../auth/index.js';
import { bookingsErasure } from '../bookings/index.js';
import { ticketsErasure } from '../interventi/index.js';
import { deleteExpiredPushSubscriptions } from '../notifications/index.js';
import { clearExpiredTempPasswords } from '../users/index.js';
import { anonymiseWaitsEndedBefore } from '../waitlist/index.js';

/*
 * The nightly retention (issue 23, decision 029). Bookings (with the notices recorded on
 * them), waits and damage reports older than the rules' `conservazioneMesi` lose their
 * person; expired sessions, temporary passwords and push subscriptions past their expiry go.
 * Each step is one statement of its own (decision 023: it locks concluded bookings only, then
 * the statistics' deltas its trigger inserts; it holds nothing while it waits).
 */

export interface RetentionResult {
  cutoff: string;
  bookings: number;
  waits: number;
  damages: number;
  sessions: number;
  resetTokens: number;
  pushSubscriptions: number;
}

const count = (r: { rowCount?: number | null }) => r.rowCount ?? 0;

/** Applies the retention at `now` with a period of `months`. */
export async function applyRetention(db: Db, now: Date, months: number): Promise<RetentionResult> {
  const cutoff = subMonths(now, months).toISOString();
  const at = now.toISOString();
  // A concluded booking that ended before the cutoff: no person, no free text. An active one
  // (a ride still out) waits until it is over.
  const bookings = await retryTransient(() => bookingsErasure.anonymiseConcludedBefore(db, cutoff));
  const waits = await retryTransient(() => anonymiseWaitsEndedBefore(db, cutoff));
  const damages = await retryTransient(() => ticketsErasure.forgetReportersBefore(db, cutoff));
  const sessions = await purgeExpiredSessions(db, now);
  const resetTokens = await clearExpiredTempPasswords(db, at);
  const push = await deleteExpiredPushSubscriptions(db, at);
  return {
    cutoff,
    bookings: count(bookings),
    waits: count(waits),
    damages: count(damages),
    sessions,
    resetTokens: count(resetTokens),
    pushSubscriptions: count(push),
  };
}
