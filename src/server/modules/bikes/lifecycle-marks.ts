import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { retryTransient } from '../../db/transaction.js';

/** What the life cycle's bike statement changed: bikes marked and freed, by bookings and by planned maintenance. */
export interface LifecycleMarks {
  bikesInUse: number;
  bikesFreed: number;
  maintenanceStarted: number;
  maintenanceEnded: number;
}

/**
 * The booking life cycle's second step (decision 023: after its releases committed, bikes
 * only), one statement of its own: a bike held at `at` by a booking is shown `prenotata`
 * (marked `stato_auto`), and `disponibile` again after only if the life cycle marked it (an
 * admin's `prenotata`, `manutenzione` or `fuori_servizio` stays, decision 014); a bike in
 * planned maintenance at `at` shows `manutenzione` (marked), and `disponibile` at its end.
 *
 * `inUse` is the select of the bikes held at `at` (`select distinct p.bici_id from
 * prenotazioni p where …`): which booking holds its bike is the bookings module's rule, so
 * the caller gives it. Two runs at once may wait on each other's rows; PostgreSQL aborts one,
 * which runs again (`retryTransient`).
 */
export async function applyLifecycleMarks(db: Db, at: string, inUse: SQL): Promise<LifecycleMarks> {
  // triggers: disponibilita_modifiche (the marks keep a bike bookable)
  const bikes = sql`
    with in_use as (
      ${inUse}
    ), in_maintenance as (
      -- Planned maintenance under way (issue 20): the bike shows manutenzione, marked as the
      -- life cycle's own (stato_auto), and is disponibile again at the period's end.
      select distinct m.bici_id from manutenzioni m where tstzrange(m.inizio, m.fine, '[)') @> ${at}::timestamptz
    ), marked as (
      update biciclette set stato = 'prenotata', stato_auto = true, updated_at = ${at}::timestamptz
       where stato = 'disponibile' and id in (select bici_id from in_use)
         and id not in (select bici_id from in_maintenance)
      returning id
    ), freed as (
      -- Only the bikes the life cycle itself marked: an admin's prenotata stays (decision 014).
      update biciclette set stato = 'disponibile', stato_auto = false, updated_at = ${at}::timestamptz
       where stato = 'prenotata' and stato_auto and id not in (select bici_id from in_use)
         and id not in (select bici_id from in_maintenance)
      returning id
    ), maintenance_started as (
      update biciclette set stato = 'manutenzione', stato_auto = true, updated_at = ${at}::timestamptz
       where stato in ('disponibile', 'prenotata') and id in (select bici_id from in_maintenance)
      returning id
    ), maintenance_ended as (
      update biciclette set stato = 'disponibile', stato_auto = false, updated_at = ${at}::timestamptz
       where stato = 'manutenzione' and stato_auto and id not in (select bici_id from in_maintenance)
      returning id
    )
    select (select count(*) from marked)::int as "bikesInUse",
           (select count(*) from freed)::int as "bikesFreed",
           (select count(*) from maintenance_started)::int as "maintenanceStarted",
           (select count(*) from maintenance_ended)::int as "maintenanceEnded"`;
  const { rows } = await retryTransient(() => db.execute<LifecycleMarks & Record<string, unknown>>(bikes));
  return rows[0]!;
}
