import { sql } from 'drizzle-orm';
import type { PickupProblemRequest, PickupProblemResponse } from '../../../shared/schemas/booking.js';
import { DAMAGE_CATEGORIES, type DamageCategory } from '../../../shared/damage.js';
import { zonedClock, zonedInstant } from '../../../shared/time.js';
import { testo, LINGUA_PREDEFINITA, type Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { countBooking } from '../../metrics.js';
import { conflict, notFound } from '../../http/errors.js';
import { SYSTEM_ACTOR, writeAudit } from '../audit/index.js';
import { lockFleet } from '../bikes/index.js';
import { tickets } from '../interventi/index.js';
import { bringLifecycleUpToDate, cancelBookings, getUserBooking, movableBookings, type MovableBookingRow, relocation } from '../bookings/index.js';
import { putFirstInLine } from '../waitlist/index.js';
import { healInTransaction, healMinutes, type FleetDeps, type HealOutcome, type LifecycleMinutes } from './heal.js';
import { tellHealOutcome } from './notices.js';

/** The first-in-line wait starts at a quarter hour (the window's own start if it has not begun). */
const QUARTER_MS = 15 * 60_000;

interface ProblemRow extends MovableBookingRow {
  destinazione: string | null;
  stato: string;
  ritirata_at: Date | string | null;
  gia_segnalata: boolean;
}

/** The rest of a window, from its start or the next quarter hour after now; null if under 15 minutes remain. */
function restOfWindow(row: ProblemRow, now: Date, timeZone: string) {
  const inizio = new Date(row.inizio);
  const fine = new Date(row.fine);
  if (inizio > now) return { inizio, fine, orarioInizio: row.orario_inizio };
  const from = new Date(Math.ceil((now.getTime() + 1) / QUARTER_MS) * QUARTER_MS);
  const orarioInizio = zonedClock(from, timeZone);
  // The wall-clock start on the booking's day (its instant, read back, guards a DST jump).
  const start = zonedInstant(row.data_prenotazione, orarioInizio, timeZone);
  if (!start || fine.getTime() - start.getTime() < QUARTER_MS) return null;
  return { inizio: start, fine, orarioInizio };
}

/** The checks of a problem at the pick-up: the owner's active booking, in its pick-up window, not picked up. */
function refuse(row: ProblemRow, now: Date, noShow: number, timeZone: string): void {
  if (row.stato !== 'attiva') throw conflict(testo('bookingsApi.notActive'), 'NOT_ACTIVE');
  if (row.ritirata_at) throw conflict(testo('fleetApi.problemPickedUp'), 'ALREADY_PICKED_UP');
  const inizio = new Date(row.inizio);
  const from = relocation.pickupFrom(inizio);
  if (now < from) throw conflict(testo('fleetApi.problemFrom', { ora: zonedClock(from, timeZone) }), 'TOO_EARLY');
  const noShowAt = Math.min(inizio.getTime() + noShow * 60_000, new Date(row.fine).getTime());
  if (now.getTime() >= noShowAt) throw conflict(testo('bookingsApi.pickupClosed'), 'PICKUP_CLOSED');
  if (row.gia_segnalata) throw conflict(testo('fleetApi.problemReported'), 'ALREADY_REPORTED');
}

interface Decided {
  row: ProblemRow;
  to: { id: number; numero: string } | null;
  refunded: boolean;
  primoInFila: boolean;
  others: HealOutcome;
  ticketId: number | null;
}

async function decide(
  deps: FleetDeps,
  tx: Tx,
  o: { userId: number; id: number; input: { categoria: DamageCategory; descrizione: string }; now: Date; minutes: LifecycleMinutes },
): Promise<Decided> {
  const { userId, id, input, now, minutes } = o;
  const { noShow } = minutes;
  await lockFleet(tx);
  const extra = sql`p.destinazione, p.stato, p.ritirata_at,
           exists (select 1 from interventi d where d.prenotazione_id = p.id and d.bici_id = p.bici_id and d.origine = 'ritiro') as gia_segnalata`;
  const rows = await movableBookings<ProblemRow>(tx, sql`p.id = ${id} and p.user_id = ${userId}`, { extra, lock: true });
  const row = rows[0];
  if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
  refuse(row, now, noShow, deps.config.timeZone);
  // The ticket (`ritiro`), the bike `Non utilizzabile`: `manutenzione` until it is closed (issue 48).
  const ticket = await tickets.open(
    tx,
    { biciId: row.bici_id, prenotazioneId: id, origine: 'ritiro', segnalatoDa: userId, ...input, nonUtilizzabile: true },
    now,
  );
  const to = await relocation.freeBikeFor(tx, row, now);
  let refunded = false;
  let primoInFila = false;
  if (to) {
    await relocation.moveBooking(tx, id, to.id, now, 'problema');
    await writeAudit(
      tx,
      SYSTEM_ACTOR,
      { action: 'booking.move', entity: 'booking', entityId: id, before: { biciNumero: row.numero }, after: { biciNumero: to.numero, causa: 'problema' } },
      now,
    );
  } else {
    refunded = (await cancelBookings(deps, tx, [id], { reason: 'bici_guasta', refund: 'always', now })).has(id);
    await writeAudit(
      tx,
      SYSTEM_ACTOR,
      { action: 'booking.cancel_fleet', entity: 'booking', entityId: id, after: { biciNumero: row.numero, motivo: 'bici_guasta', rimborsata: refunded } },
      now,
    );
    const rest = restOfWindow(row, now, deps.config.timeZone);
    if (rest) {
      await putFirstInLine(
        tx,
        { userId, dataPrenotazione: row.data_prenotazione, orarioInizio: rest.orarioInizio, orarioFine: row.orario_fine, inizio: rest.inizio, fine: rest.fine, destinazione: row.destinazione, sedeId: row.sede_id },
        now,
      );
      primoInFila = true;
    }
  }
  // The other bookings of the bike left behind, now broken (issue 35's broken bike).
  const others = await healInTransaction(deps, tx, now, minutes, row.bici_id);
  return { row, to, refunded, primoInFila, others, ticketId: ticket?.id ?? null };
}

/** What the answer tells the rider, in `lingua` (issue 36): the sentences of what was decided, one after the other. */
function sentence(d: Decided, lingua: Lingua): string {
  const t = tFor(lingua);
  if (d.to) return t('fleetApi.problemMoved', { numero: d.to.numero });
  return [
    t('fleetApi.problemCancelled'),
    ...(d.refunded ? [t('fleetApi.problemRefunded')] : []),
    ...(d.primoInFila ? [t('fleetApi.problemFirstInLine')] : []),
  ].join(' ');
}

/**
 * POST /api/prenotazioni/:id/problema (issue 35): from the pick-up window until `Ritirata`, the
 * owner reports a problem with the bike. Under every bike's lock: a repair ticket opened (`ritiro`,
 * `Non utilizzabile`), the bike to `manutenzione`, the booking moved to a free bike for its window, or cancelled (no
 * no-show, refunded if paid) with its person first in line for the rest of the window; then the
 * bike's other bookings healed as a broken bike's. The sede's workshop (or the admins) told after the commit.
 */
export async function reportPickupProblem(
  deps: FleetDeps,
  userId: number,
  id: number,
  input: PickupProblemRequest,
  lingua: Lingua = LINGUA_PREDEFINITA,
): Promise<PickupProblemResponse> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const categoria = DAMAGE_CATEGORIES.find((c) => c === input.categoria)!;
  const minutes = await healMinutes(deps.db);
  const decided = await runTransaction(deps.db, (tx) =>
    decide(deps, tx, { userId, id, input: { categoria, descrizione: input.descrizione.trim() }, now, minutes }),
  );
  if (decided.ticketId !== null) await tickets.tellOpened(deps, decided.ticketId);
  countBooking(deps.metrics, decided.to ? 'moved' : 'fleet_cancelled');
  await tellHealOutcome(deps, decided.others);
  return {
    prenotazione: await getUserBooking(deps, userId, id),
    esito: decided.to ? 'spostata' : 'annullata',
    nuovaBiciNumero: decided.to?.numero ?? null,
    primoInFila: decided.primoInFila,
    messaggio: sentence(decided, lingua),
  };
}
