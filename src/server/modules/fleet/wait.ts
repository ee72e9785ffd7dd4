import { sql } from 'drizzle-orm';
import type { BookingDto } from '../../../shared/schemas/booking.js';
import { runTransaction } from '../../db/transaction.js';
import { conflict, notFound } from '../../http/errors.js';
import { asOf, getUserBooking, relocation } from '../bookings/index.js';
import type { FleetDeps } from './heal.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * POST /api/prenotazioni/:id/aspetta (issue 35): the owner of a booking whose bike is still out
 * on a late ride, with no other bike free, keeps it. Every pass of the heal moves it to the first
 * bike free for its whole window (before any waitlist offer: the freed-time dispatcher heals
 * first); the choice is recorded so the card stops asking.
 */
export async function waitForBike(deps: Pick<FleetDeps, 'db' | 'clock' | 'config'>, userId: number, id: number): Promise<BookingDto> {
  const now = deps.clock.now();
  await runTransaction(deps.db, async (tx) => {
    await relocation.lockBikeOfBooking(tx, id);
    const { rows } = await tx.execute<{ out: boolean }>(sql`
      select ${asOf.bikeOutNow('p', now.toISOString())} as out from prenotazioni p
       where p.id = ${id} and p.user_id = ${userId} and p.stato <> 'offerta'
         for update of p`);
    const row = rows[0];
    if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
    if (!row.out) throw conflict(testo('fleetApi.nothingToWaitFor'), 'NOT_WAITING_FOR_BIKE');
    await relocation.markWaitingForBike(tx, id, now);
  });
  return getUserBooking(deps, userId, id);
}
