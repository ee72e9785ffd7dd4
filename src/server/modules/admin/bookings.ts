import { and, eq } from 'drizzle-orm';
import type { AdminDeleteBookingResponse } from '../../../shared/schemas/admin.js';
import { isBooking, prenotazioni } from '../bookings/tables.js';
import { pagamenti } from '../payments/tables.js';
import { notFound } from '../../http/errors.js';
import { bringLifecycleUpToDate, cancelBookings } from '../bookings/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { runTransaction } from '../../db/transaction.js';
import { testo } from '../../../shared/i18n/index.js';

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
    if (!booking) throw notFound(testo('admin.bookingNotFound'));
    const [payment] = await tx
      .select({ status: pagamenti.status })
      .from(pagamenti)
      .where(eq(pagamenti.prenotazioneId, id));
    const refunded = await cancelBookings(deps, tx, [id], { reason: 'eliminazione', refund: 'always', now });
    await writeAudit(
      tx,
      actor,
      {
        action: 'booking.delete',
        entity: 'booking',
        entityId: id,
        before: { ...booking, paymentStatus: payment?.status ?? null },
        after: { refunded: refunded.has(id) },
      },
      now,
    );
    return refunded.has(id);
  });
  return { id, refunded };
}
