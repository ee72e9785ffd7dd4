import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { prenotazioni } from './tables.js';
import type { Tx } from '../../db/transaction.js';

/*
 * The bookings module owns `prenotazioni`: the changes other modules make to bookings
 * (a maintenance's moves, the privacy's anonymity, the demo's rows) are written here.
 */

/** Every booking of an erased person stays for the statistics and the reports: no person, no free text. */
export async function anonymiseBookingsOf(tx: Pick<Tx, 'execute'>, userId: number, now: Date): Promise<void> {
  // triggers: disponibilita_modifiche
  await tx.execute(sql`update prenotazioni set user_id = null, destinazione = null, updated_at = ${now.toISOString()}::timestamptz
                        where user_id = ${userId}`);
}

/**
 * The nightly retention's step on bookings (decision 029): a concluded booking that ended
 * before `cutoff` loses its person and free text; an active one (a ride still out) waits until
 * it is over. One statement; the number of bookings changed.
 */
export async function anonymiseConcludedBefore(db: Pick<Db, 'execute'>, cutoff: string): Promise<{ rowCount?: number | null }> {
  // triggers: disponibilita_modifiche
  return db.execute(sql`
    update prenotazioni set user_id = null, destinazione = null
     where user_id is not null and stato in ('completata', 'cancellata') and fine < ${cutoff}::timestamptz`);
}

/** Bookings written as they are (the demo's seed), in one statement. */
export async function insertBookingRows(tx: Pick<Tx, 'insert'>, rows: (typeof prenotazioni.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(prenotazioni).values(rows); // triggers: stats_delta, contatori_delta, disponibilita_modifiche, codici_corsa, NOTIFY bicielis_pin (a smart lock's PIN)
}

/** A past booking of the demo's history (seed-history.ts): instants as ISO text, wall-clock times `HH:mm`. */
export interface PastBooking {
  u: number;
  b: number;
  d: string;
  s: string;
  e: string;
  dest: string | null;
  stato: 'completata' | 'cancellata';
  motivo: 'mancato_ritiro' | 'utente' | null;
  pickup: string | null;
  back: string | null;
  created: string | null;
}

/** What the demo's history needs back of each past booking. */
export interface PastBookingRow extends Record<string, unknown> {
  id: number;
  user_id: number;
  bici_id: number;
  stato: string;
  motivo: string | null;
  created_at: string;
  fine: string;
}

/** The demo's past bookings, in one statement; the day's wall-clock times are in `timeZone`. */
export async function insertPastBookings(tx: Pick<Tx, 'execute'>, rows: PastBooking[], timeZone: string): Promise<PastBookingRow[]> {
  // triggers: stats_delta, disponibilita_modifiche
  const { rows: inserted } = await tx.execute<PastBookingRow>(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato,
                              motivo_cancellazione, ritirata_at, riconsegnata_at, created_at, updated_at)
    select r.u, r.b, r.d::date, r.s, r.e, (r.d::date + r.s::time) at time zone ${timeZone}, (r.d::date + r.e::time) at time zone ${timeZone},
           r.dest, r.stato, r.motivo, r.pickup::timestamptz, r.back::timestamptz, r.created::timestamptz,
           coalesce(r.back::timestamptz, r.created::timestamptz)
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(u int, b int, d text, s text, e text, dest text, stato text, motivo text, pickup text, back text, created text)
    returning id, user_id, bici_id, stato, motivo_cancellazione as motivo, created_at::text, fine::text`);
  return inserted;
}
