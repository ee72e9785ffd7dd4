import { and, eq, sql } from 'drizzle-orm';
import type { AdminDeleteBookingResponse } from '../../../shared/schemas/admin.js';
import { isBooking, pagamenti, prenotazioni } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { refundBookingPayment } from '../payments/settle.js';
import { writeAudit, type Actor } from './audit.js';
import { bringLifecycleUpToDate } from '../bookings/lifecycle.js';
import type { AdminDeps, Tx } from './deps.js';
import { runTransaction } from '../../db/transaction.js';

/**
 * Before bookings are deleted: their open payments are closed (`pending` → `failed`, they can
 * no longer be paid; a late payment is refunded by settle.ts as one for an unknown booking)
 * and every payment row keeps the booking's day and the deletion time, so it stays in the
 * accounts once `prenotazione_id` is set to null by the foreign key (decision 015).
 */
export async function detachPayments(tx: Tx, bookingIds: number[], now: Date): Promise<void> {
  if (bookingIds.length === 0) return;
  const ids = sql.join(bookingIds.map((id) => sql`${id}`), sql`, `);
  await tx.execute(sql`
    update ${pagamenti} pay
       set status = case when pay.status = 'pending' then 'failed' else pay.status end,
           booking_date = p.data_prenotazione,
           booking_deleted_at = ${now.toISOString()}::timestamptz,
           updated_at = ${now.toISOString()}::timestamptz
      from ${prenotazioni} p
     where p.id = pay.prenotazione_id and p.id in (${ids})`);
}

/**
 * Deletes a booking for good (behaviour.md §8). Its completed payment is refunded first,
 * whether or not the ride took place: the admin erasing a booking voids it (decision 015).
 * A failed refund is a 502 and nothing changes. The payment row stays, detached.
 */
export async function deleteBooking(deps: AdminDeps, actor: Actor, id: number): Promise<AdminDeleteBookingResponse> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const refunded = await runTransaction(deps.db, async (tx) => {
    // A waitlist's offer is not a booking (issue 21): it ends with its wait, not here.
    const [booking] = await tx.select().from(prenotazioni).where(and(eq(prenotazioni.id, id), isBooking)).for('update');
    if (!booking) throw notFound('Prenotazione non trovata');
    const [payment] = await tx
      .select({ status: pagamenti.status })
      .from(pagamenti)
      .where(eq(pagamenti.prenotazioneId, id));
    const outcome = await refundBookingPayment(
      { db: deps.db, clock: deps.clock, provider: deps.payments, log: deps.log },
      id,
      tx,
    );
    await detachPayments(tx, [id], now);
    await tx.delete(prenotazioni).where(eq(prenotazioni.id, id));
    await writeAudit(
      tx,
      actor,
      {
        action: 'booking.delete',
        entity: 'booking',
        entityId: id,
        before: { ...booking, paymentStatus: payment?.status ?? null },
        after: { refunded: outcome === 'refunded' },
      },
      now,
    );
    return outcome === 'refunded';
  });
  return { id, refunded };
}
