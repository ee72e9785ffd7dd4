import { and, eq, sql } from 'drizzle-orm';
import {
  EXTEND_MINUTES,
  type BookingDto,
  type ExtendMinutes,
  type ExtendOptionsDto,
} from '../../../shared/schemas/booking.js';
import { hoursText, tooLongText, weekdayIndex } from '../../../shared/rules-text.js';
import { zonedClock, zonedInstant, zonedToday } from '../../../shared/time.js';
import { pgErrorCode, type Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { countBooking } from '../../metrics.js';
import { biciclette } from '../bikes/tables.js';
import { pagamenti } from '../payments/tables.js';
import { currentRules, lifecycleMinutes, loadRules, sedeRules, type Executor, type Rules } from '../rules/index.js';
import { users } from '../users/tables.js';
import { bookingAsOf, P_COLUMNS, settleDue } from './lifecycle.js';
import { lockBikeOfBooking } from './ride.js';
import { getUserBooking, type BookingReadDeps } from './service.js';
import { isBooking, prenotazioni } from './tables.js';
import { testo } from '../../../shared/i18n/index.js';

/** A ride as the extension reads it: the owner's booking row and the owner's role. */
interface RideRow {
  id: number;
  biciId: number;
  stato: string;
  dataPrenotazione: string;
  inizio: Date;
  fine: Date;
  ritirataAt: Date | null;
  ruolo: 'admin' | 'user';
  /** The booking's sede (its bike's): its hours and closures apply (issue 47). */
  sedeId: number;
}

/** What stands after the ride's end on its bike: the first instant another booking, an offer or a maintenance holds it. */
interface BikeAfter {
  /** The bike is out of service or in a maintenance set by hand (not the life cycle's). */
  out: boolean;
  nextBooking: Date | null;
  nextMaintenance: Date | null;
}

const rideColumns = {
  id: prenotazioni.id,
  biciId: prenotazioni.biciId,
  stato: prenotazioni.stato,
  dataPrenotazione: prenotazioni.dataPrenotazione,
  inizio: prenotazioni.inizio,
  fine: prenotazioni.fine,
  ritirataAt: prenotazioni.ritirataAt,
  ruolo: users.ruolo,
  sedeId: prenotazioni.sedeId,
};

/** The owner's booking (404 for anyone else's, or an offer), refused with a 409 unless it is a ride in progress at `now`. */
function rideInProgress(row: RideRow | undefined, now: Date): RideRow {
  if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
  if (row.stato !== 'attiva') throw conflict(testo('bookingsApi.notActive'), 'NOT_ACTIVE');
  if (!row.ritirataAt) throw conflict(testo('bookingsApi.notPickedUp'), 'NOT_PICKED_UP');
  if (row.fine.getTime() <= now.getTime()) throw conflict(testo('bookingsApi.rideLate'), 'RIDE_LATE');
  return row;
}

/**
 * What holds the ride's bike in the longest extension's time, [fine, fine + 60 min), as of
 * `now`: a row the life cycle would release counts for nothing (decision 035), as the
 * booking's own check reads it.
 */
async function bikeAfter(db: Executor, ride: RideRow, now: Date, rules: Rules): Promise<BikeAfter> {
  const live = bookingAsOf(P_COLUMNS, now.toISOString(), lifecycleMinutes(rules));
  const from = ride.fine.toISOString();
  const until = new Date(ride.fine.getTime() + Math.max(...EXTEND_MINUTES) * 60_000).toISOString();
  const range = sql`tstzrange(${from}::timestamptz, ${until}::timestamptz, '[)')`;
  const { rows } = await db.execute<{ out: boolean; next_booking: string | null; next_maintenance: string | null }>(sql`
    select not (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto)) as out,
           (select min(p.inizio) from ${prenotazioni} p left join ${pagamenti} pay on pay.prenotazione_id = p.id
             where p.bici_id = b.id and p.id <> ${ride.id} and p.stato in ('attiva', 'offerta')
               and tstzrange(p.inizio, p.fine, '[)') && ${range} and not ${live.void}) as next_booking,
           (select min(m.inizio) from manutenzioni m
             where m.bici_id = b.id and tstzrange(m.inizio, m.fine, '[)') && ${range}) as next_maintenance
      from ${biciclette} b where b.id = ${ride.biciId}`);
  const r = rows[0];
  return {
    out: r?.out ?? true,
    nextBooking: r?.next_booking ? new Date(r.next_booking) : null,
    nextMaintenance: r?.next_maintenance ? new Date(r.next_maintenance) : null,
  };
}

/**
 * Why the ride may not be extended by `minutes`, or null when it may: the new end on the
 * booking's day in TZ_APP and within that day's hours, the day not closed, the whole booking
 * within the longest one (not for an admin's own, as at booking), and nothing holding the
 * bike in the added time. No notice or horizon: the ride has started.
 */
function refusal(ride: RideRow, minutes: ExtendMinutes, rules: Rules, after: BikeAfter, timeZone: string): AppError | null {
  const end = new Date(ride.fine.getTime() + minutes * 60_000);
  const date = ride.dataPrenotazione;
  if (after.out) return conflict(testo('bookingsApi.extendBikeOut'), 'EXTEND_UNAVAILABLE');
  if (rules.chiusure.some((c) => c.dal <= date && date <= c.al)) return conflict(testo('bookingsApi.extendClosed'), 'EXTEND_CLOSED');
  const clock = zonedClock(end, timeZone);
  // Same day, and the wall time names this very instant (not a time the clocks skip or repeat).
  if (zonedToday(end, timeZone) !== date || zonedInstant(date, clock, timeZone)?.getTime() !== end.getTime()) {
    return conflict(testo('bookingsApi.extendSameDay'), 'EXTEND_OUTSIDE_HOURS');
  }
  const hours = rules.orari[weekdayIndex(date)] ?? null;
  if (!hours || clock > hours.chiusura) return conflict(hoursText(date, hours), 'EXTEND_OUTSIDE_HOURS');
  const max = rules.durataMassimaMinuti;
  if (ride.ruolo !== 'admin' && max !== null && end.getTime() - ride.inizio.getTime() > max * 60_000) {
    return conflict(tooLongText(max), 'EXTEND_TOO_LONG');
  }
  if (after.nextBooking && after.nextBooking < end) return conflict(testo('bookingsApi.extendBookedAfter'), 'EXTEND_UNAVAILABLE');
  if (after.nextMaintenance && after.nextMaintenance < end) return conflict(testo('bookingsApi.extendMaintenance'), 'EXTEND_UNAVAILABLE');
  return null;
}

async function readRide(db: Db | Tx, userId: number, id: number, lock: boolean): Promise<RideRow | undefined> {
  const query = db
    .select(rideColumns)
    .from(prenotazioni)
    .innerJoin(users, eq(users.id, prenotazioni.userId))
    .where(and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId), isBooking));
  const [row] = lock ? await query.for('update', { of: prenotazioni }) : await query;
  return row;
}

/**
 * `Prolunga` (issue 35): the lengths out of EXTEND_MINUTES the owner's ride in progress may
 * be extended by now. A read: nothing written.
 */
export async function extendOptions(deps: BookingReadDeps, userId: number, id: number): Promise<ExtendOptionsDto> {
  const now = deps.clock.now();
  const ride = rideInProgress(await readRide(deps.db, userId, id, false), now);
  const rules = sedeRules.rulesOfSede(await currentRules(deps), ride.sedeId);
  const after = await bikeAfter(deps.db, ride, now, rules);
  return { minuti: EXTEND_MINUTES.filter((m) => refusal(ride, m, rules, after, deps.config.timeZone) === null) };
}

/**
 * Extends the owner's ride in progress by `minutes` (issue 35): the same booking, free for
 * everybody, ending later on the same day. Decision 023's order: the bike, then the booking;
 * under the bike's lock the due rows of the bike and the user are settled (decision 035), the
 * rules and closures read afresh and every check made again. The exclusion constraint keeps a
 * booking inserted at the same moment out of the added time either way (23P01: 409). The end
 * reminder goes again for the new end; the late notice, the iCal entry and a smart lock's PIN
 * follow `fine` (their triggers and reads).
 */
export async function extendRide(deps: BookingReadDeps, userId: number, id: number, minutes: ExtendMinutes): Promise<BookingDto> {
  const now = deps.clock.now();
  try {
    await runTransaction(deps.db, async (tx) => {
      await lockBikeOfBooking(tx, id);
      const ride = rideInProgress(await readRide(tx, userId, id, true), now);
      const rules = sedeRules.rulesOfSede(await loadRules(tx), ride.sedeId);
      await settleDue(tx, { biciId: ride.biciId, userId, metrics: deps.metrics }, now, lifecycleMinutes(rules));
      const refused = refusal(ride, minutes, rules, await bikeAfter(tx, ride, now, rules), deps.config.timeZone);
      if (refused) throw refused;
      const end = new Date(ride.fine.getTime() + minutes * 60_000);
      // The new end is always more than END_REMINDER_MINUTES away (the ride was not late, and
      // the shortest extension is that long): its end reminder goes out again, for the new end.
      await tx
        .update(prenotazioni) // triggers: stats_delta, disponibilita_modifiche, codici_corsa, NOTIFY bicielis_pin (the PIN extended)
        .set({ fine: end, orarioFine: zonedClock(end, deps.config.timeZone), promemoriaFineAt: null, updatedAt: now })
        .where(eq(prenotazioni.id, id));
    });
  } catch (err) {
    if (!(err instanceof AppError) && pgErrorCode(err) === '23P01') throw conflict(testo('bookingsApi.extendBookedAfter'), 'EXTEND_UNAVAILABLE');
    throw err;
  }
  countBooking(deps.metrics, 'extended');
  return getUserBooking(deps, userId, id);
}
