import { and, eq } from 'drizzle-orm';
import type { BookingDto, ReturnRequest } from '../../../shared/schemas/booking.js';
import { isBooking, prenotazioni } from '../bookings/tables.js';
import { notFound } from '../../http/errors.js';
import { rideDesk } from '../bookings/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { testo } from '../../../shared/i18n/index.js';

/** The desk's pick-up or return (issue 48): the booking now, and a combination lock's new code (null without one). */
export type DeskRideResult = BookingDto & { nuovoCodice: string | null };

/** The owner of a booking (not an offer, not anonymous), else 404. */
async function ownerOf(deps: AdminDeps, id: number): Promise<number> {
  const [row] = await deps.db.select({ userId: prenotazioni.userId }).from(prenotazioni).where(and(eq(prenotazioni.id, id), isBooking));
  if (!row || row.userId === null) throw notFound(testo('admin.bookingNotFound'));
  return row.userId;
}

/**
 * POST /api/admin/prenotazioni/:id/ritiro — the desk marks `Ritirata` on the person's behalf
 * (capability `banco`): the owner's own pick-up (bookings/ride.ts), with its checks (window,
 * payment), then an audit entry naming the actor and the role they acted in.
 */
export async function deskPickUp(deps: AdminDeps, actor: Actor, id: number): Promise<DeskRideResult> {
  const userId = await ownerOf(deps, id);
  const result = await rideDesk.pickUp(deps, userId, id, {});
  await writeAudit(deps.db, actor, { action: 'booking.pickup_for_user', entity: 'booking', entityId: id, after: { userId, ritirataAt: result.booking.ritirataAt } }, deps.clock.now());
  return { ...result.booking, nuovoCodice: result.nuovoCodice };
}

/** POST /api/admin/prenotazioni/:id/riconsegna — the desk marks `Riconsegnata` on the person's behalf, optionally with a damage report. */
export async function deskReturn(deps: AdminDeps, actor: Actor, id: number, body: Pick<ReturnRequest, 'danno'>): Promise<DeskRideResult> {
  const userId = await ownerOf(deps, id);
  const result = await rideDesk.returnBike(deps, userId, id, body.danno ? { danno: body.danno } : {});
  await writeAudit(
    deps.db,
    actor,
    { action: 'booking.return_for_user', entity: 'booking', entityId: id, after: { userId, riconsegnataAt: result.booking.riconsegnataAt, danno: body.danno ?? null } },
    deps.clock.now(),
  );
  return { ...result.booking, nuovoCodice: result.nuovoCodice };
}
