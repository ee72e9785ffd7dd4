import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { conflict, forbidden } from '../../http/errors.js';
import { fullestWeek, type Rules, suspensionOf } from '../rules/index.js';
import { suspensionRefusal, weeklyLimitRefusal } from './refusals.js';

/**
 * The namespace of the per-user advisory lock a booking takes first when the weekly limit or
 * the suspension is on (decision 024): a user's bookings then run one after the other.
 */
export const USER_BOOKING_LOCK = 4_202;

/**
 * The fair-use gate of every booking (the form, the desk, a waitlist's offer accepted), the
 * first step of its transaction (decision 024): when the weekly limit or the suspension is on,
 * the user's advisory lock, then, in a fresh snapshot after it, the user's suspension (403
 * SUSPENDED) and fullest week around `date` (409 WEEKLY_LIMIT). Two bookings of one user in
 * any process run one after the other, so the second counts the first. `limits` false (an
 * admin's own booking, the desk's override): nothing is checked.
 */
export async function fairUseGate(
  tx: Tx,
  o: { userId: number; date: string; rules: Rules; limits: boolean; now: Date; timeZone: string },
): Promise<void> {
  const { rules } = o;
  if (!o.limits || (!rules.sospensione && rules.prenotazioniSettimanaliMax === null)) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${USER_BOOKING_LOCK}, ${o.userId})`);
  const suspension = await suspensionOf(tx, o.userId, rules, o.now);
  if (suspension && rules.sospensione) throw forbidden(suspensionRefusal(suspension.fino, rules.sospensione, o.timeZone), 'SUSPENDED');
  const max = rules.prenotazioniSettimanaliMax;
  if (max !== null && (await fullestWeek(tx, o.userId, o.date)) >= max) {
    throw conflict(weeklyLimitRefusal(max), 'WEEKLY_LIMIT');
  }
}
