import { and, eq, sql } from 'drizzle-orm';
import type { BookingDto, ReturnRequest } from '../../../shared/schemas/booking.js';
import { zonedClock } from '../../../shared/time.js';
import type { Config } from '../../config.js';
import { biciclette, pagamenti, prenotazioni, segnalazioniDanni, users } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Mailer } from '../../integrations/mailer.js';
import { activeAdminEmails } from '../notifications/notify.js';
import { damageAdminEmail, type DamageInfo } from './emails.js';
import { bringLifecycleUpToDate } from './lifecycle.js';
import { currentRules, lifecycleMinutes } from '../rules/store.js';
import { getUserBooking, pickupFrom, type BookingReadDeps } from './service.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { offerFreedTime } from '../waitlist/offers.js';

export const MSG_NOT_ACTIVE_RIDE = 'La prenotazione non è attiva';
export const MSG_ALREADY_TAKEN = 'Hai già segnato il ritiro di questa bicicletta';
export const MSG_PAY_FIRST = 'Completa il pagamento prima del ritiro';
export const MSG_NOT_PICKED_UP = 'Non hai ancora ritirato la bicicletta';
export const MSG_PICKUP_CLOSED = 'Il tempo per ritirare la bicicletta è scaduto';

export interface RideDeps extends BookingReadDeps {
  config: BookingReadDeps['config'] & Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  log: { error(obj: object, msg: string): void };
}

/**
 * Locks the bike of a booking, FOR NO KEY UPDATE: the first lock of every transaction that
 * writes a booking row and may then write its bike (decision 023: bike, then booking).
 * Bookings never change bike, so the bike read here is the one the booking keeps.
 */
export async function lockBikeOfBooking(tx: Tx, bookingId: number): Promise<void> {
  await tx.execute(sql`
    select b.id from ${biciclette} b
     where b.id = (select p.bici_id from ${prenotazioni} p where p.id = ${bookingId})
       for no key update of b`);
}

/**
 * The owner marks `Ritirata` (decision 022): from PICKUP_EARLY_MINUTES before the start
 * until the no-show instant, on an `attiva` booking not picked up yet, paid if external.
 * The booking row is locked first, as the life cycle locks it: a pick-up and a no-show
 * release of the same booking are ordered by that lock, and whichever comes second sees
 * the other's result.
 */
export async function pickUp(deps: RideDeps, userId: number, id: number): Promise<BookingDto> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const noShowMinutes = lifecycleMinutes(await currentRules(deps.db)).noShow;
  await runTransaction(deps.db, async (tx) => {
    await lockBikeOfBooking(tx, id);
    const [row] = await tx
      .select({
        stato: prenotazioni.stato,
        inizio: prenotazioni.inizio,
        fine: prenotazioni.fine,
        ritirataAt: prenotazioni.ritirataAt,
        biciId: prenotazioni.biciId,
      })
      .from(prenotazioni)
      .where(and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId)))
      .for('update');
    if (!row) throw notFound('Prenotazione non trovata');
    if (row.stato !== 'attiva') throw conflict(MSG_NOT_ACTIVE_RIDE, 'NOT_ACTIVE');
    if (row.ritirataAt) throw conflict(MSG_ALREADY_TAKEN, 'ALREADY_PICKED_UP');
    const from = pickupFrom(row.inizio);
    if (now < from) {
      throw conflict(`Potrai ritirare la bicicletta dalle ${zonedClock(from, deps.config.timeZone)}`, 'TOO_EARLY');
    }
    // The life cycle ran just before; a booking past its no-show instant is refused anyway
    // (the clock may have moved on since).
    const noShowAt = Math.min(row.inizio.getTime() + noShowMinutes * 60_000, row.fine.getTime());
    if (now.getTime() >= noShowAt) throw conflict(MSG_PICKUP_CLOSED, 'PICKUP_CLOSED');
    const [payment] = await tx
      .select({ status: pagamenti.status })
      .from(pagamenti)
      .where(eq(pagamenti.prenotazioneId, id));
    if (payment && payment.status !== 'completed') throw conflict(MSG_PAY_FIRST, 'PAYMENT_REQUIRED');
    await tx.update(prenotazioni).set({ ritirataAt: now, updatedAt: now }).where(eq(prenotazioni.id, id));
    // The bike is in use from now (also when picked up a few minutes before the start).
    await tx
      .update(biciclette)
      .set({ stato: 'prenotata', statoAuto: true, updatedAt: now })
      .where(and(eq(biciclette.id, row.biciId), eq(biciclette.stato, 'disponibile')));
  });
  return getUserBooking(deps, userId, id);
}

/**
 * Ends a picked-up ride at `now`: `completata`, `riconsegnata_at` now; the bike is free at
 * once (`disponibile`, when the life cycle had marked it and no other booking holds it now),
 * or in `manutenzione` with a damage report. In the caller's transaction, the booking locked.
 */
export async function endRide(
  tx: Tx,
  booking: { id: number; biciId: number; userId: number },
  now: Date,
  damage?: NonNullable<ReturnRequest['danno']>,
): Promise<void> {
  await tx
    .update(prenotazioni)
    .set({ stato: 'completata', riconsegnataAt: now, updatedAt: now })
    .where(eq(prenotazioni.id, booking.id));
  if (damage) {
    await tx.insert(segnalazioniDanni).values({
      prenotazioneId: booking.id,
      biciId: booking.biciId,
      userId: booking.userId,
      categoria: damage.categoria,
      descrizione: damage.descrizione,
      createdAt: now,
    });
    await tx
      .update(biciclette)
      .set({ stato: 'manutenzione', statoAuto: false, updatedAt: now })
      .where(eq(biciclette.id, booking.biciId));
    return;
  }
  const at = now.toISOString();
  await tx.execute(sql`
    update ${biciclette} b set stato = 'disponibile', stato_auto = false, updated_at = ${at}::timestamptz
     where b.id = ${booking.biciId} and b.stato = 'prenotata' and b.stato_auto
       and not exists (select 1 from ${prenotazioni} p
                        where p.bici_id = b.id and p.stato = 'attiva'
                          and (p.ritirata_at is not null or tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz))`);
}

/**
 * The owner marks `Riconsegnata`, optionally with a damage report: the booking is completed
 * at that moment (an early return frees the rest of the window). With a report, every active
 * admin is emailed after the commit.
 */
export async function returnBike(deps: RideDeps, userId: number, id: number, body: ReturnRequest): Promise<BookingDto> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const damage = await runTransaction(deps.db, async (tx) => {
    await lockBikeOfBooking(tx, id);
    const [row] = await tx
      .select({ stato: prenotazioni.stato, ritirataAt: prenotazioni.ritirataAt, biciId: prenotazioni.biciId })
      .from(prenotazioni)
      .where(and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId)))
      .for('update');
    if (!row) throw notFound('Prenotazione non trovata');
    if (row.stato !== 'attiva') throw conflict(MSG_NOT_ACTIVE_RIDE, 'NOT_ACTIVE');
    if (!row.ritirataAt) throw conflict(MSG_NOT_PICKED_UP, 'NOT_PICKED_UP');
    await endRide(tx, { id, biciId: row.biciId, userId }, now, body.danno);
    if (!body.danno) return null;
    const [info] = await tx
      .select({ nome: users.nome, cognome: users.cognome, email: users.email, biciNumero: biciclette.numero, biciModello: biciclette.modello })
      .from(users)
      .innerJoin(biciclette, eq(biciclette.id, row.biciId))
      .where(eq(users.id, userId));
    return {
      utente: `${info!.nome} ${info!.cognome}`.trim(),
      email: info!.email,
      biciNumero: info!.biciNumero,
      biciModello: info!.biciModello,
      categoria: body.danno.categoria,
      descrizione: body.danno.descrizione,
    } satisfies DamageInfo;
  });
  if (damage) {
    // After the commit: the report stands even if an email fails (it is on /admin anyway).
    for (const to of await activeAdminEmails(deps.db)) {
      deps.mailer.sendInBackground(damageAdminEmail(to, damage, deps.config.publicUrl));
    }
  }
  // An early return frees the rest of the window (or a damaged bike's offers are withdrawn).
  await offerFreedTime(deps);
  return getUserBooking(deps, userId, id);
}
