import { and, eq, sql } from 'drizzle-orm';
import type { BookingDto } from '../../../shared/schemas/booking.js';
import { prenotazioni } from './tables.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { conflict, notFound } from '../../http/errors.js';
import { countBooking } from '../../metrics.js';
import { detachPayments, failPendingPayments, refundBookingPayment } from '../payments/index.js';
import { bikeOutNow, bringLifecycleUpToDate, P_COLUMNS } from './lifecycle.js';
import { getUserBooking, type BookingDeps } from './service.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * Why bookings end before their time. A cancelled booking stays, `cancellata`, with its
 * reason as `motivo_cancellazione` (history, reports, the fair-use count); `eliminazione` is
 * an admin's delete (behaviour.md §8): the rows go, their payments stay detached (decision 015).
 */
export type CancelReason = 'utente' | 'admin' | 'chiusura' | 'manutenzione' | 'eliminazione' | 'bici_non_rientrata' | 'bici_guasta';

/**
 * Which completed payments go back: `before-start`, those of active bookings not started yet
 * (the owner's cancel, an erasure, a deleted user: a ride taken stays paid); `always`, every
 * one (a closure or a maintenance cancels the ride whatever the hour; an admin's delete voids it).
 */
export type RefundRule = 'before-start' | 'always';

/** What a cancel needs: the database, the time, the provider that refunds. */
export type CancelDeps = Pick<BookingDeps, 'db' | 'clock' | 'payments' | 'log' | 'metrics'>;

/**
 * The one way a booking ends early, in the caller's transaction: the refunds first, through
 * the provider (a failed refund is a 502 that undoes the whole transaction), then the rows
 * cancelled with their reason and their unpaid payments failed, or, for `eliminazione`,
 * their payments detached and the rows deleted. The caller has locked the rows (decision
 * 023's order: theirs comes first); they are locked again here, which costs nothing. The
 * caller audits, emails and counts. Returns the ids whose payment was refunded.
 */
export async function cancelBookings(
  deps: CancelDeps,
  tx: Tx,
  ids: number[],
  o: { reason: CancelReason; refund: RefundRule; now: Date },
): Promise<Set<number>> {
  const refunded = new Set<number>();
  if (ids.length === 0) return refunded;
  const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const { rows } = await tx.execute<{ id: number; refundable: boolean }>(sql`
    select id, (stato = 'attiva' and inizio > ${o.now.toISOString()}::timestamptz) as refundable
      from prenotazioni where id in (${list}) order by id for update`);
  const provider = { db: deps.db, clock: deps.clock, provider: deps.payments, log: deps.log, metrics: deps.metrics };
  for (const r of rows) {
    if (o.refund === 'before-start' && !r.refundable) continue;
    if ((await refundBookingPayment(provider, r.id, tx)) === 'refunded') refunded.add(r.id);
  }
  if (o.reason === 'eliminazione') {
    await detachPayments(tx, ids, o.now);
    // triggers: stats_delta, contatori_delta, disponibilita_modifiche, tempo_liberato, lucchetti, codici_corsa, NOTIFY bicielis_tempo_liberato, bicielis_pin
    await tx.execute(sql`delete from prenotazioni where id in (${list})`);
  } else {
    // triggers: stats_delta, contatori_delta, disponibilita_modifiche, tempo_liberato, lucchetti, codici_corsa, NOTIFY bicielis_tempo_liberato, bicielis_pin
    await tx.execute(sql`
      update prenotazioni set stato = 'cancellata', motivo_cancellazione = ${o.reason}, updated_at = ${o.now.toISOString()}::timestamptz
       where id in (${list})`);
    // An unpaid payment can no longer be paid: it is closed as failed.
    await failPendingPayments(tx, ids, o.now);
  }
  return refunded;
}

/**
 * The owner cancels an active booking (reason `utente`); it stays, `cancellata`, for history
 * and reports. Paid and not yet started: the payment is refunded through the provider first
 * (`refunded`); if the refund fails, the cancel fails (502) and nothing changes. After the
 * start: no refund. Once the bike is picked up the booking cannot be cancelled: it is returned.
 */
export async function cancelBooking(deps: BookingDeps, userId: number, id: number): Promise<BookingDto> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const updated = await runTransaction(deps.db, async (tx) => {
    const [row] = await tx
      .select({ id: prenotazioni.id, stato: prenotazioni.stato, ritirataAt: prenotazioni.ritirataAt })
      .from(prenotazioni)
      .where(and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId)))
      .for('update');
    if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
    if (row.stato !== 'attiva') {
      throw conflict(testo('bookingsApi.onlyActiveDeleted'), 'NOT_ACTIVE');
    }
    if (row.ritirataAt) throw conflict(testo('bookingsApi.alreadyPickedUp'), 'PICKED_UP');
    // Its bike still out on a late ride (issue 35): `Annulla` is no no-show, and a paid booking
    // is refunded whatever the hour.
    const { rows: out } = await tx.execute<{ out: boolean }>(
      sql`select ${bikeOutNow(P_COLUMNS, now.toISOString())} as out from prenotazioni p where p.id = ${id}`,
    );
    const bikeOut = out[0]?.out === true;
    await cancelBookings(deps, tx, [id], bikeOut ? { reason: 'bici_non_rientrata', refund: 'always', now } : { reason: 'utente', refund: 'before-start', now });
    return id;
  });
  countBooking(deps.metrics, 'cancelled');
  return getUserBooking(deps, userId, updated);
}
