import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import type { MOVE_CAUSES } from './tables.js';

/*
 * A booking moved to another bike (issue 20's planned maintenance; issue 35's fleet that heals
 * itself, decision 045): one way to find the bike, one way to write the move. The callers hold
 * every bike's lock (`lockFleet`, decision 023's first lock for a change of many bikes), so the
 * bike found is still free when the move is written; the exclusion constraint is the arbiter
 * all the same.
 */

export type MoveCause = (typeof MOVE_CAUSES)[number];

/** What a move needs of a booking: its bike, its sede, its window, its bike's model (the same model first). */
export interface MovableBooking {
  bici_id: number;
  /** The booking's sede (its bike's, issue 47): a move never leaves it. */
  sede_id: number;
  modello: string;
  inizio: Date | string;
  fine: Date | string;
}

/**
 * Another bike of the booking's own sede (issue 47: the one place every move picks its bike, so
 * none crosses to another sede, however many bikes stand free there) free for its whole window: bookable (not out of service, not in an
 * admin's maintenance), no planned maintenance, no active booking or waitlist offer overlapping,
 * no ride in ritardo on it; the same model first, then by number.
 */
export async function freeBikeFor(tx: Pick<Tx, 'execute'>, r: MovableBooking, now: Date): Promise<{ id: number; numero: string } | null> {
  const inizio = new Date(r.inizio).toISOString();
  const fine = new Date(r.fine).toISOString();
  const { rows } = await tx.execute<{ id: number; numero: string }>(sql`
    select b.id, b.numero from biciclette b
     where b.id <> ${r.bici_id} and b.sede_id = ${r.sede_id}
       and (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))
       and not exists (select 1 from manutenzioni m where m.bici_id = b.id
                          and tstzrange(m.inizio, m.fine, '[)') && tstzrange(${inizio}::timestamptz, ${fine}::timestamptz, '[)'))
       -- An offer of the waitlist holds its bike as a booking does (issue 21).
       and not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato in ('attiva', 'offerta')
                          and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${inizio}::timestamptz, ${fine}::timestamptz, '[)'))
       and not exists (select 1 from prenotazioni late where late.bici_id = b.id and late.stato = 'attiva'
                          and late.ritirata_at is not null and late.fine <= ${now.toISOString()}::timestamptz)
     order by (b.modello = ${r.modello}) desc, lpad(b.numero, 20, '0'), b.numero
     limit 1`);
  return rows[0] ?? null;
}

/**
 * A booking moved to another bike for the same window: by a planned maintenance of its own bike
 * (no cause: the maintenance's email says why), or by the fleet's heal with its cause, which the
 * booking keeps (`spostata_*`: the card says from which bike, and why). The reminders stay as they
 * were sent; the freed-time, PIN and lock-code triggers see the change of bike.
 */
export async function moveBooking(
  tx: Pick<Tx, 'execute'>,
  bookingId: number,
  toBikeId: number,
  now: Date,
  cause?: MoveCause,
): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(
    cause
      // triggers: stats_delta, contatori_delta, disponibilita_modifiche, tempo_liberato, lucchetti, codici_corsa, NOTIFY bicielis_tempo_liberato, bicielis_pin
      ? sql`update prenotazioni set spostata_da_bici_id = bici_id, spostata_causa = ${cause}, spostata_at = ${at},
                                   bici_id = ${toBikeId}, bici_assente_avvisata_at = null, aspetta_bici_at = null, updated_at = ${at}
             where id = ${bookingId}`
      : sql`update prenotazioni set bici_id = ${toBikeId}, updated_at = ${at} where id = ${bookingId}`,
  );
}

/**
 * Claims the "no other bike is free" notice of bookings whose bike is still out (issue 35): the
 * column set once, under the caller's locks; the ids claimed now (a second claim finds it set).
 */
export async function claimBikeAbsentNotices(tx: Pick<Tx, 'execute'>, ids: number[], now: Date): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  // triggers: disponibilita_modifiche
  const { rows } = await tx.execute<{ id: number }>(sql`
    update prenotazioni set bici_assente_avvisata_at = ${now.toISOString()}::timestamptz
     where id in (${sql.join(
       ids.map((id) => sql`${id}`),
       sql`, `,
     )}) and bici_assente_avvisata_at is null
    returning id`);
  return new Set(rows.map((r) => r.id));
}

/** The owner chose `Aspetta` (issue 35): kept, first to move when a bike frees up for the window. */
export async function markWaitingForBike(tx: Pick<Tx, 'execute'>, bookingId: number, now: Date): Promise<void> {
  // triggers: disponibilita_modifiche
  await tx.execute(sql`
    update prenotazioni set aspetta_bici_at = coalesce(aspetta_bici_at, ${now.toISOString()}::timestamptz), updated_at = ${now.toISOString()}::timestamptz
     where id = ${bookingId}`);
}
