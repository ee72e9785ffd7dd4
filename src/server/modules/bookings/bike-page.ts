import { and, eq, sql } from 'drizzle-orm';
import { type BikePageDto } from '../../../shared/schemas/bike-page.js';
import type { BookingDto } from '../../../shared/schemas/booking.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../http/errors.js';
import { AS_OF_PLACEHOLDERS, minutesInText, preparedPerMinutes } from './lifecycle.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';
import { fleetNow, type FleetNowDeps } from './fleet-now.js';
import { bookingDto, pickupFrom, selectBookings } from './service.js';
import { bookingStato, prenotazioni } from './tables.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * GET /api/biciclette/numero/:numero (issue 34, decision 044): the page a bike's QR code opens.
 * The bike's state now as the rack's board shows it (`fleetNow`), and the caller's own booking
 * of this bike while it is theirs to act on: from its pick-up window (`inizio −
 * PICKUP_EARLY_MINUTES`) until the return, a ride in progress or late included. Read as of now
 * (decision 035): a no-show past its instant, or an unpaid hold run out, is not current.
 * Nothing of anyone else's booking: the state and its times only.
 */
export async function bikePage(deps: FleetNowDeps, userId: number, numero: string): Promise<BikePageDto> {
  const now = deps.clock.now();
  const bike = (await fleetNow(deps, now)).find((b) => b.numero === numero);
  if (!bike) throw notFound(testo('bookingsApi.bikeNotFound'), 'BIKE_NOT_FOUND');
  return {
    numero: bike.numero,
    biciId: bike.biciId,
    stato: bike.stato,
    liberaFino: bike.liberaFino,
    inUsoFino: bike.inUsoFino,
    prenotataDalle: bike.prenotataDalle,
    prossimaLiberaOggi: bike.prossimaLiberaOggi,
    prenotazioneCorrente: await currentBookingOf(deps, userId, bike.biciId, now),
  };
}

/**
 * The user's active bookings of one bike as of now, prepared once per set of the rules' minutes
 * (decision 072): every `/bici/{numero}` render reads it.
 */
const ownBikeBookings = preparedPerMinutes('own_bike_bookings', (db: Db, minutes: { hold: number; noShow: number }) =>
  selectBookings(db, AS_OF_PLACEHOLDERS.at, minutesInText(minutes).minutes).where(
    and(eq(prenotazioni.userId, sql.placeholder('userId')), eq(prenotazioni.biciId, sql.placeholder('biciId')), eq(prenotazioni.stato, 'attiva')),
  ),
);

/** The user's booking of the bike that is current at `now` (see `bikePage`), if any. */
async function currentBookingOf(deps: FleetNowDeps, userId: number, biciId: number, now: Date): Promise<BookingDto | null> {
  const minutes = lifecycleMinutes(await currentRules(deps));
  // At most one: one active booking per user (`prenotazioni_one_active_per_user`).
  const rows = await ownBikeBookings(deps.db, minutes).execute({ at: now.toISOString(), userId, biciId });
  for (const row of rows) {
    // `stato` is as of now: a void booking reads `cancellata`.
    if (row.stato !== 'attiva') continue;
    const open = pickupFrom(row.inizio).getTime() <= now.getTime();
    const notOver = row.ritirataAt !== null || now.getTime() < row.fine.getTime();
    if (open && notOver) return bookingDto({ ...row, stato: bookingStato(row.stato) }, now);
  }
  return null;
}
