import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { conflict, forbidden } from '../../http/errors.js';
import { fairUseSql, type Rules } from '../rules/index.js';
import { namedStatement } from '../../db/prepared.js';
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
  const max = rules.prenotazioniSettimanaliMax;
  const s = rules.sospensione;
  if (!o.limits || (!s && max === null)) return;
  await lockStatement.run(tx, { user: o.userId });
  // Both checks in one statement after the lock, each only when its rule is on (issue 51).
  const [row] = await checksStatement.run(tx, {
    user: o.userId,
    date: o.date,
    now: o.now.toISOString(),
    suspensionOn: s !== null,
    giorni: s?.giorni ?? 0,
    finestra: s?.finestraGiorni ?? 0,
    soglia: s?.soglia ?? 0,
    weekOn: max !== null,
  });
  const fino = row?.fino ? new Date(row.fino) : null;
  if (s && fino && fino.getTime() > o.now.getTime()) throw forbidden(suspensionRefusal(fino.toISOString(), s, o.timeZone), 'SUSPENDED');
  if (max !== null && Number(row?.week ?? 0) >= max) throw conflict(weeklyLimitRefusal(max), 'WEEKLY_LIMIT');
}

/** The gate's statements, planned once per connection (issue 51, decision 059). */
const lockStatement = namedStatement('booking_user_lock', () => sql`select pg_advisory_xact_lock(${USER_BOOKING_LOCK}, ${sql.placeholder('user')}::int)`);

const checksStatement = namedStatement<{ fino: Date | string | null; week: number | string | null }>('booking_fair_use', () => {
  const p = (name: string) => sql.placeholder(name);
  const until = fairUseSql.suspendedUntil(sql`u`, { giorni: p('giorni'), finestraGiorni: p('finestra'), soglia: p('soglia') }, p('now'));
  return sql`select case when ${p('suspensionOn')}::boolean then ${until} end as fino,
                    case when ${p('weekOn')}::boolean then ${fairUseSql.fullestWeek(p('user'), p('date'))} end as week
               from users u where u.id = ${p('user')}::int`;
});
