import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { pgErrorCode } from '../../db/client.js';

export interface LifecycleResult {
  released: number;
  completed: number;
  bikesInUse: number;
  bikesFreed: number;
}

/**
 * Applies the booking life cycle of behaviour.md §6 as of `now`, in one statement:
 * 1. an external booking still unpaid `holdMinutes` after creation, or at its start if
 *    sooner, becomes `cancellata` and its payment `failed` (the bike is free again);
 * 2. an `attiva` booking whose end has passed becomes `completata`;
 * 3. a bike with a booking in progress is shown `prenotata` (marked `stato_auto`), and back
 *    to `disponibile` after only if the life cycle marked it: a bike an admin put in
 *    `prenotata`, `manutenzione` or `fuori_servizio` is left alone (decision 014).
 * Idempotent and cheap when nothing is due (partial indexes on active rows), so it runs
 * both from the minute job and before every read that shows bookings or bikes.
 */
/**
 * True when `applyLifecycle` would change something at `at` (an SQL expression, e.g. a
 * placeholder): a read-only probe with no locks, so reads can skip the write when, as
 * nearly always, nothing is due. Mirrors the four steps of `applyLifecycle`.
 */
export function lifecycleDue(at: SQL | Placeholder, holdMinutes: SQL | Placeholder) {
  const inProgress = (bike: SQL) => sql`exists (
    select 1 from prenotazioni p where p.bici_id = ${bike} and p.stato = 'attiva'
       and tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz)`;
  return sql<boolean>`(
    exists (select 1 from prenotazioni where stato = 'attiva' and fine <= ${at}::timestamptz)
    or exists (select 1 from pagamenti pay join prenotazioni p on p.id = pay.prenotazione_id
                where pay.status = 'pending' and p.stato = 'attiva'
                  and (p.created_at + make_interval(mins => ${holdMinutes}::int) <= ${at}::timestamptz or p.inizio <= ${at}::timestamptz))
    -- From the bookings in progress (one scan of the active ranges' index, a few rows) to
    -- their bikes, rather than from every bike to its bookings (one probe per bike).
    or exists (select 1 from prenotazioni p join biciclette b on b.id = p.bici_id
                where p.stato = 'attiva' and tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz
                  and b.stato = 'disponibile')
    or exists (select 1 from biciclette b where b.stato = 'prenotata' and b.stato_auto and not ${inProgress(sql`b.id`)}))`;
}

const dueStatements = new WeakMap<Db, ReturnType<typeof prepareDue>>();
function prepareDue(db: Db) {
  return db
    .select({ due: lifecycleDue(sql.placeholder('at'), sql.placeholder('hold')) })
    .from(sql`(select 1) as one`)
    .prepare('lifecycle_due');
}

/** Applies the life cycle only if something is due (what every read runs first); true if it ran. */
export async function ensureLifecycle(db: Db, now: Date, holdMinutes: number): Promise<boolean> {
  let statement = dueStatements.get(db);
  if (!statement) {
    statement = prepareDue(db);
    dueStatements.set(db, statement);
  }
  const [row] = await statement.execute({ at: now.toISOString(), hold: holdMinutes });
  if (!row?.due) return false;
  await applyLifecycle(db, now, holdMinutes);
  return true;
}

/**
 * What every service does before a read or a write of bookings, bikes or payments: bring the
 * life cycle up to date at the clock's now (cheap when nothing is due).
 */
export async function bringLifecycleUpToDate(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'paymentHoldMinutes'>;
}): Promise<void> {
  await ensureLifecycle(deps.db, deps.clock.now(), deps.config.paymentHoldMinutes);
}

export async function applyLifecycle(db: Db, now: Date, holdMinutes: number): Promise<LifecycleResult> {
  const at = now.toISOString();
  const statement = sql`
    with due as (
      -- Both rows locked, booking then payment (the order every writer of a payment uses):
      -- a payment completed meanwhile (modules/payments/settle.ts) is seen as such, re-read after
      -- its commit, and its booking is not released.
      select p.id
        from prenotazioni p
        join pagamenti pay on pay.prenotazione_id = p.id
       where pay.status = 'pending'
         and p.stato = 'attiva'
         and (p.created_at + make_interval(mins => ${holdMinutes}) <= ${at}::timestamptz or p.inizio <= ${at}::timestamptz)
         for update of p, pay
    ), released as (
      update prenotazioni p
         set stato = 'cancellata', updated_at = ${at}::timestamptz
       where p.id in (select id from due)
      returning p.id
    ), failed as (
      update pagamenti
         set status = 'failed', updated_at = ${at}::timestamptz
       where prenotazione_id in (select id from released) and status = 'pending'
      returning id
    ), completed as (
      update prenotazioni
         set stato = 'completata', updated_at = ${at}::timestamptz
       where stato = 'attiva' and fine <= ${at}::timestamptz
         and id not in (select id from released)
      returning id
    ), in_use as (
      select distinct bici_id from prenotazioni
       where stato = 'attiva' and inizio <= ${at}::timestamptz and fine > ${at}::timestamptz
         and id not in (select id from released)
         and id not in (select id from completed)
    ), marked as (
      update biciclette set stato = 'prenotata', stato_auto = true, updated_at = ${at}::timestamptz
       where stato = 'disponibile' and id in (select bici_id from in_use)
      returning id
    ), freed as (
      -- Only the bikes the life cycle itself marked: an admin's prenotata stays (decision 014).
      update biciclette set stato = 'disponibile', stato_auto = false, updated_at = ${at}::timestamptz
       where stato = 'prenotata' and stato_auto and id not in (select bici_id from in_use)
      returning id
    )
    select (select count(*) from released)::int as released,
           (select count(*) from completed)::int as completed,
           (select count(*) from marked)::int as "bikesInUse",
           (select count(*) from freed)::int as "bikesFreed"`;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.execute<{ released: number; completed: number; bikesInUse: number; bikesFreed: number }>(
        statement,
      );
      return result.rows[0]!;
    } catch (err) {
      // Two runs at once may wait on each other's rows; PostgreSQL breaks the tie by
      // aborting one, which simply runs again.
      if (attempt < 3 && (pgErrorCode(err) === '40P01' || pgErrorCode(err) === '40001')) continue;
      throw err;
    }
  }
}
