import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { SuspensionDto } from '../../../shared/schemas/rules.js';
import type { Executor, Rules } from './store.js';
import { isLingua, type Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';

/** A booking that counts towards the weekly limit: made and kept, or made and not picked up. */
const COUNTS = sql`(p.stato in ('attiva', 'completata') or p.motivo_cancellazione = 'mancato_ritiro')`;

/**
 * The most bookings of `userId` in any 7 consecutive days that contain `date` (issue 20's
 * "maximum bookings per user in any 7 days"): the seven weeks that contain the day, each
 * counted, the fullest one returned. The new booking would add one to each of them.
 */
function fullestWeekSql(userId: number | Placeholder, date: string | Placeholder): SQL {
  return sql`(select max((select count(*) from prenotazioni p
                 where p.user_id = ${userId}::int and ${COUNTS}
                   and p.data_prenotazione between ${date}::date - k and ${date}::date - k + 6))
      from generate_series(0, 6) k)`;
}

/**
 * Until when `user` (an SQL expression for the users row's alias, e.g. `u`) is suspended,
 * as an SQL expression: the latest no-show that made `soglia` no-shows within `finestraGiorni`
 * days, plus `giorni` days; null when none did. Only the no-shows after the last lift count.
 * Derived at read time from the bookings, so nothing has to be written when a suspension
 * starts or ends (issue 20).
 */
export function suspendedUntilSql(userAlias: SQL, rules: Pick<Rules, 'sospensione'>, now: Date): SQL {
  const s = rules.sospensione;
  if (!s) return sql`null::timestamptz`;
  return suspendedUntilOf(userAlias, s, now.toISOString());
}

/** `suspendedUntilSql` with the rule's numbers given or placeholders of a prepared statement. */
function suspendedUntilOf(
  userAlias: SQL,
  s: { giorni: number | Placeholder; finestraGiorni: number | Placeholder; soglia: number | Placeholder },
  now: string | Placeholder,
): SQL {
  return sql`(
    with ns as (
      select p.inizio as t from prenotazioni p
       where p.user_id = ${userAlias}.id and p.motivo_cancellazione = 'mancato_ritiro'
         and p.inizio > ${now}::timestamptz - make_interval(days => ${s.finestraGiorni}::int + ${s.giorni}::int)
         and p.inizio > coalesce(${userAlias}.sospensione_revocata_at, '-infinity'::timestamptz))
    select max(a.t) + make_interval(days => ${s.giorni}::int) from ns a
     where (select count(*) from ns b where b.t <= a.t and b.t > a.t - make_interval(days => ${s.finestraGiorni}::int)) >= ${s.soglia}::int)`;
}

/**
 * The suspension of one user in force at `now`, with the reason the dashboard shows: in
 * `reader`'s language, `'user'` for the user's own (the dashboard), Italian by default (the
 * refusals built on it are put into their reader's language by the error handler).
 */
export async function suspensionOf(
  db: Executor,
  userId: number,
  rules: Pick<Rules, 'sospensione'>,
  now: Date,
  reader: Lingua | 'user' = 'it',
): Promise<SuspensionDto | null> {
  if (!rules.sospensione) return null;
  const { rows } = await db.execute<{ fino: Date | string | null; lingua: string | null }>(sql`
    select ${suspendedUntilSql(sql`u`, rules, now)} as fino, u.lingua from users u where u.id = ${userId}`);
  const fino = rows[0]?.fino ? new Date(rows[0].fino) : null;
  if (!fino || fino.getTime() <= now.getTime()) return null;
  const lingua = reader === 'user' ? (isLingua(rows[0]?.lingua) ? rows[0].lingua : 'it') : reader;
  return { fino: fino.toISOString(), motivo: suspensionReason(rules.sospensione, lingua) };
}

/** `3 mancati ritiri in 30 giorni` / `3 no-shows in 30 days`. */
export const suspensionReason = (s: NonNullable<Rules['sospensione']>, lingua: Lingua = 'it'): string =>
  tFor(lingua)('rules.suspensionReason', { soglia: s.soglia, giorni: s.finestraGiorni });

/** The fair-use gate's two checks as SQL expressions, for the booking's named statement (issue 51). */
export const fairUseSql = { fullestWeek: fullestWeekSql, suspendedUntil: suspendedUntilOf };
