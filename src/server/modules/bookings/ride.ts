import { and, eq, sql } from 'drizzle-orm';
import type { AppliedTimeSource, BookingDto, PickUpRequest, ReturnRequest } from '../../../shared/schemas/booking.js';
import { zonedClock } from '../../../shared/time.js';
import type { Config } from '../../config.js';
import { biciclette } from '../bikes/tables.js';
import { freeReturnedBike, markBikePickedUp } from '../bikes/index.js';
import { tickets } from '../interventi/index.js';
import { pagamenti } from '../payments/tables.js';
import { prenotazioni } from './tables.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Mailer } from '../../integrations/mailer.js';
import { bringLifecycleUpToDate } from './lifecycle.js';
import { countBooking } from '../../metrics.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';
import { getUserBooking, pickupFrom, type BookingReadDeps } from './service.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { drawRideCode, rideNewCode } from '../locks/index.js';
import {
  appliedBefore,
  appliedTime,
  deviceAction,
  isDeviceAction,
  onceById,
  recordAction,
  type ActionKey,
} from './offline-actions.js';
import { testo } from '../../../shared/i18n/index.js';

/** A pick-up's or a return's answer: the booking now, and whose clock gave the instant applied. */
export interface RideResult {
  booking: BookingDto;
  oraApplicata: AppliedTimeSource;
  /**
   * A combination lock's new code (issue 34, decision 044): drawn at the pick-up, set by the rider
   * at the return. Only in the pick-up's and the return's answers, never in a list. Null without
   * a combination lock.
   */
  nuovoCodice: string | null;
}

export interface RideDeps extends BookingReadDeps {
  config: BookingReadDeps['config'] & Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  log: { error(obj: object, msg: string): void };
}

/**
 * Locks the bike of a booking, FOR NO KEY UPDATE: the first lock of every transaction that
 * writes a booking row and may then write its bike (decision 023: bike, then booking).
 * A booking may change bike (a planned maintenance, the fleet's heal: issue 35) while this
 * waits for the lock: the booking's bike is read again once it is held, and the new one locked
 * too, until the two agree (a move holds every bike's lock, so it cannot happen after that).
 */
export async function lockBikeOfBooking(tx: Tx, bookingId: number): Promise<void> {
  for (;;) {
    const { rows: locked } = await tx.execute<{ id: number }>(sql`
      select b.id from ${biciclette} b
       where b.id = (select p.bici_id from ${prenotazioni} p where p.id = ${bookingId})
         for no key update of b`);
    if (!locked[0]) return;
    const { rows: current } = await tx.execute<{ bici_id: number }>(sql`select bici_id from ${prenotazioni} where id = ${bookingId}`);
    if (current[0]?.bici_id === locked[0].id) return;
  }
}

/** Why a pick-up sent from the device's queue finds its booking no longer `attiva` (decision 026). */
function refusedFromQueue(row: { stato: string; ritirataAt: Date | null; motivo: string | null }) {
  if (row.ritirataAt) return conflict(testo('bookingsApi.alreadyTaken'), 'ALREADY_PICKED_UP');
  if (row.stato === 'cancellata' && row.motivo === 'mancato_ritiro') return conflict(testo('bookingsApi.noShowBeforeSync'), 'NO_SHOW_RELEASED');
  if (row.stato === 'cancellata') return conflict(testo('bookingsApi.cancelledBeforeSync'), 'CANCELLED');
  return conflict(testo('bookingsApi.notActive'), 'NOT_ACTIVE');
}

/**
 * The owner marks `Ritirata` (decision 022): from PICKUP_EARLY_MINUTES before the start
 * until the no-show instant, on an `attiva` booking not picked up yet, paid if external.
 * The bike, then the booking row are locked, as the life cycle locks it: a pick-up and a
 * no-show release of the same booking are ordered by that lock, and whichever comes second
 * sees the other's result.
 *
 * From the device's queue (decision 026) it may carry `idAzione` (applied once: a replay
 * answers the booking as it is) and `oraDispositivo`. With a device time the life cycle is not
 * run first: a booking still `attiva` whose device time lies before its no-show instant is
 * picked up at that time, even when the request arrives after the instant; one released
 * already is refused (`bookingsApi.noShowBeforeSync`). A device time out of bounds gives way to the
 * server's now, and today's checks apply at that now.
 */
export async function pickUp(deps: RideDeps, userId: number, id: number, body: PickUpRequest = {}): Promise<RideResult> {
  const action = deviceAction(body);
  const fromQueue = isDeviceAction(action);
  if (!action.deviceTime) await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const noShowMinutes = lifecycleMinutes(await currentRules(deps)).noShow;
  const key: ActionKey = { userId, bookingId: id, kind: 'ritiro' };
  // Whether this call picked the bike up (a replay of a queued action did not): the last
  // attempt of the transaction decides.
  let applied = false;
  const oraApplicata = await onceById(
    deps.db,
    action.id,
    key,
    () =>
      runTransaction(deps.db, async (tx): Promise<AppliedTimeSource> => {
        applied = false;
        await lockBikeOfBooking(tx, id);
        const [row] = await tx
          .select({
            stato: prenotazioni.stato,
            motivo: prenotazioni.motivoCancellazione,
            inizio: prenotazioni.inizio,
            fine: prenotazioni.fine,
            ritirataAt: prenotazioni.ritirataAt,
            biciId: prenotazioni.biciId,
          })
          .from(prenotazioni)
          .where(and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId)))
          .for('update');
        if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
        const replay = await appliedBefore(tx, action.id, key);
        if (replay) return replay.source;
        if (row.stato !== 'attiva') throw fromQueue ? refusedFromQueue(row) : conflict(testo('bookingsApi.notActive'), 'NOT_ACTIVE');
        if (row.ritirataAt) throw conflict(testo('bookingsApi.alreadyTaken'), 'ALREADY_PICKED_UP');
        const from = pickupFrom(row.inizio);
        const noShowAt = new Date(Math.min(row.inizio.getTime() + noShowMinutes * 60_000, row.fine.getTime()));
        const time = appliedTime(action.deviceTime, now, { allowedFrom: from, allowedBefore: noShowAt });
        if (time.source === 'server') {
          if (now < from) {
            throw conflict(testo('bookingsApi.pickupFrom', { ora: zonedClock(from, deps.config.timeZone) }), 'TOO_EARLY');
          }
          // The life cycle ran just before (unless a device time was sent); a booking past its
          // no-show instant is refused anyway (the clock may have moved on since).
          if (now >= noShowAt) throw conflict(testo('bookingsApi.pickupClosed'), 'PICKUP_CLOSED');
        }
        const [payment] = await tx
          .select({ status: pagamenti.status })
          .from(pagamenti)
          .where(eq(pagamenti.prenotazioneId, id));
        if (payment && payment.status !== 'completed') throw conflict(testo('bookingsApi.payFirst'), 'PAYMENT_REQUIRED');
        await tx.update(prenotazioni).set({ ritirataAt: time.at, updatedAt: now }).where(eq(prenotazioni.id, id)); // triggers: disponibilita_modifiche
        // The bike is in use from now (also when picked up a few minutes before the start).
        await markBikePickedUp(tx, row.biciId, now);
        // The code the rider will set at the return (decision 044), the bike locked above.
        await drawRideCode(tx, id, row.biciId, body.nuovoCodice);
        await recordAction(tx, action.id, key, { deviceTime: action.deviceTime, ...time, now });
        applied = true;
        return time.source;
      }),
    (source) => source,
  );
  if (applied) countBooking(deps.metrics, 'picked_up');
  return { booking: await getUserBooking(deps, userId, id), oraApplicata, nuovoCodice: await rideNewCode(deps.db, id) };
}

/**
 * Ends a picked-up ride: `completata`, `riconsegnata_at` at `returnedAt` (the server's `now`
 * unless a device's time was accepted, decision 026); the bike is free at once
 * (`disponibile`, when the life cycle had marked it and no other booking holds it now), or in
 * `manutenzione` with a damage report, which opens a repair ticket (`riconsegna`, issue 48, dated
 * with the return; the bike `Non utilizzabile` until it is closed). In the caller's transaction,
 * the booking locked. The ticket's id, to tell its workshop after the commit; null without one.
 */
export async function endRide(
  tx: Tx,
  booking: { id: number; biciId: number; userId: number },
  now: Date,
  damage?: NonNullable<ReturnRequest['danno']>,
  returnedAt: Date = now,
): Promise<number | null> {
  await tx
    .update(prenotazioni)
    .set({ stato: 'completata', riconsegnataAt: returnedAt, updatedAt: now }) // triggers: contatori_delta, disponibilita_modifiche, tempo_liberato, lucchetti (the new code), codici_corsa, NOTIFY bicielis_tempo_liberato, bicielis_pin
    .where(eq(prenotazioni.id, booking.id));
  if (damage) {
    const ticket = await tickets.open(
      tx,
      {
        biciId: booking.biciId,
        prenotazioneId: booking.id,
        origine: 'riconsegna',
        segnalatoDa: booking.userId,
        categoria: damage.categoria,
        descrizione: damage.descrizione.trim(),
        nonUtilizzabile: true,
        createdAt: returnedAt,
      },
      now,
    );
    return ticket?.id ?? null;
  }
  await freeReturnedBike(tx, booking.biciId, now);
  return null;
}

/**
 * The owner marks `Riconsegnata`, optionally with a damage report: the booking is completed
 * at that moment (an early return frees the rest of the window). With a report, a repair
 * ticket is opened and the sede's workshop (or the admins) told after the commit.
 *
 * From the device's queue (decision 026): with `idAzione` applied once (a replay has no
 * second effect: no second report, email or offer pass); with `oraDispositivo` the ride ends
 * at the device's time when it lies within the bounds (not before the pick-up), else now.
 */
export async function returnBike(deps: RideDeps, userId: number, id: number, body: ReturnRequest): Promise<RideResult> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const action = deviceAction(body);
  const key: ActionKey = { userId, bookingId: id, kind: 'riconsegna' };
  const outcome = await onceById(
    deps.db,
    action.id,
    key,
    () =>
      runTransaction(deps.db, async (tx) => {
        await lockBikeOfBooking(tx, id);
        const [row] = await tx
          .select({ stato: prenotazioni.stato, ritirataAt: prenotazioni.ritirataAt, biciId: prenotazioni.biciId })
          .from(prenotazioni)
          .where(and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId)))
          .for('update');
        if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
        const replay = await appliedBefore(tx, action.id, key);
        if (replay) return { applied: false as const, source: replay.source, damage: null };
        if (row.stato !== 'attiva') throw conflict(testo('bookingsApi.notActive'), 'NOT_ACTIVE');
        if (!row.ritirataAt) throw conflict(testo('bookingsApi.notPickedUp'), 'NOT_PICKED_UP');
        const time = appliedTime(action.deviceTime, now, { allowedFrom: row.ritirataAt });
        const damage = await endRide(tx, { id, biciId: row.biciId, userId }, now, body.danno, time.at);
        await recordAction(tx, action.id, key, { deviceTime: action.deviceTime, ...time, now });
        return { applied: true as const, source: time.source, damage };
      }),
    (source) => ({ applied: false as const, source, damage: null }),
  );
  if (outcome.applied) {
    countBooking(deps.metrics, 'returned');
    // After the commit: the ticket stands even if a notice fails (it is on /officina anyway).
    if (outcome.damage !== null) await tickets.tellOpened(deps, outcome.damage);
  }
  return { booking: await getUserBooking(deps, userId, id), oraApplicata: outcome.source, nuovoCodice: await rideNewCode(deps.db, id) };
}
