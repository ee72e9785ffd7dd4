import { sql } from 'drizzle-orm';
import { testo, type Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { shortDate } from '../../../shared/i18n/format.js';
import type { Tx } from '../../db/transaction.js';
import { conflict } from '../../http/errors.js';
import { countBooking } from '../../metrics.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { bookingEmails, cancelBookings, movableBookings, type MovableBookingRow, relocation } from '../bookings/index.js';
import { notifyUser, type PushSender } from '../notifications/index.js';
import { withdrawOffersToLine } from '../waitlist/index.js';
import type { AdminDeps } from './deps.js';

/*
 * A bike moved to another sede (issue 47). Its bookings and the waitlist's offers on it, not yet
 * picked up, stay at the old sede: each moves to a bike of the old sede free for its window, by
 * the path planned maintenance takes (`relocation.freeBikeFor`, which keeps a move inside the
 * booking's sede, then `relocation.moveBooking`), or is cancelled (refunded if paid, as a
 * maintenance cancels) and its person told; an offer that cannot move is withdrawn and its wait
 * keeps its place in the line. A ride under way on the bike refuses the move.
 */

interface SedeMoveRow extends MovableBookingRow {
  stato: 'attiva' | 'offerta';
}

export interface SedeMoveOutcome {
  moved: { row: SedeMoveRow; to: { id: number; numero: string } }[];
  cancelled: { row: SedeMoveRow; rimborsata: boolean }[];
}

export const emptySedeMove = (): SedeMoveOutcome => ({ moved: [], cancelled: [] });

/** The refusal of a move while the bike is out on a ride, or while the trigger still finds bookings. */
export const rideInProgress = () => conflict(testo('sediMovesApi.rideInProgress'), 'BIKE_IN_USE');
export const bookingsRemain = () => conflict(testo('sediMovesApi.bookingsRemain'), 'BIKE_HAS_BOOKINGS');

/**
 * Empties the bike's future at its old sede, in the caller's transaction, which holds every
 * bike's lock (`lockFleet`) and then this bike's row: its bookings and offers (decision 023's
 * third lock), their payments (the fourth), the waits last.
 */
export async function clearBikeForSede(deps: AdminDeps, tx: Tx, actor: Actor, bikeId: number, now: Date): Promise<SedeMoveOutcome> {
  const { rows: riding } = await tx.execute(sql`
    select 1 from prenotazioni where bici_id = ${bikeId} and stato = 'attiva' and ritirata_at is not null limit 1`);
  if (riding.length > 0) throw rideInProgress();
  const rows = await movableBookings<SedeMoveRow>(tx, sql`p.bici_id = ${bikeId} and p.stato in ('attiva', 'offerta') and p.ritirata_at is null`, {
    extra: sql`p.stato`,
    lock: true,
  });
  const outcome = emptySedeMove();
  const offersLeft: number[] = [];
  const cancel: SedeMoveRow[] = [];
  for (const row of rows) {
    // A window already over is not moved: the life cycle had not released it yet.
    const to = new Date(row.fine) > now ? await relocation.freeBikeFor(tx, row, now) : null;
    if (to) {
      await relocation.moveBooking(tx, row.id, to.id, now);
      if (row.stato === 'attiva') outcome.moved.push({ row, to });
    } else if (row.stato === 'offerta') {
      offersLeft.push(row.id);
    } else {
      cancel.push(row);
    }
  }
  await withdrawOffersToLine(tx, offersLeft);
  const refunded = await cancelBookings(deps, tx, cancel.map((r) => r.id), { reason: 'admin', refund: 'always', now });
  outcome.cancelled = cancel.map((row) => ({ row, rimborsata: refunded.has(row.id) }));
  for (const m of outcome.moved) {
    await writeAudit(tx, actor, { action: 'booking.move', entity: 'booking', entityId: m.row.id, before: { biciNumero: m.row.numero }, after: { biciNumero: m.to.numero, causa: 'sede' } }, now);
  }
  for (const c of outcome.cancelled) {
    await writeAudit(
      tx,
      actor,
      { action: 'booking.cancel_fleet', entity: 'booking', entityId: c.row.id, after: { biciNumero: c.row.numero, motivo: 'sede', rimborsata: c.rimborsata } },
      now,
    );
  }
  return outcome;
}

const when = (r: SedeMoveRow, lingua: Lingua) =>
  tFor(lingua)('emailNotices.fleet.when', { data: shortDate(r.data_prenotazione), inizio: r.orario_inizio, fine: r.orario_fine });

function movedNotice(m: SedeMoveOutcome['moved'][number], url: string, lingua: Lingua) {
  const t = tFor(lingua);
  const sentence = t('emailNotices.fleet.moved', { to: m.to.numero, why: t('sediMovesApi.whyOtherSede', { bici: m.row.numero }) });
  return bookingEmails.notice(
    sentence,
    [t('emailNotices.hello', { nome: m.row.nome }), '', `${sentence}.`, t('emailNotices.fleet.movedSame', { when: when(m.row, lingua), to: m.to.numero })],
    url,
    { title: t('pushNotices.moved.title', { to: m.to.numero }), body: `${sentence}.` },
    lingua,
  );
}

function cancelledNotice(c: SedeMoveOutcome['cancelled'][number], url: string, lingua: Lingua) {
  const t = tFor(lingua);
  const why = t('sediMovesApi.whyOtherSede', { bici: c.row.numero });
  return bookingEmails.notice(
    t('emailNotices.fleet.cancelledSubject'),
    [
      t('emailNotices.hello', { nome: c.row.nome }),
      '',
      t('emailNotices.fleet.cancelledLine', { when: when(c.row, lingua), why }),
      ...(c.rimborsata ? [t('emailNotices.refunded')] : []),
      t('emailNotices.fleet.bookAnother'),
    ],
    url,
    { title: t('pushNotices.cancelled.title'), body: t('pushNotices.cancelled.body', { why: `${why.charAt(0).toUpperCase()}${why.slice(1)}` }) },
    lingua,
  );
}

/** Tells each person whose booking moved or was cancelled, by email and web push in their language, after the commit. */
export async function tellSedeMove(deps: AdminDeps & { push?: PushSender | undefined }, o: SedeMoveOutcome): Promise<void> {
  const url = `${deps.config.publicUrl}/dashboard`;
  countBooking(deps.metrics, 'moved', o.moved.length);
  countBooking(deps.metrics, 'fleet_cancelled', o.cancelled.length);
  for (const m of o.moved) await notifyUser(deps, m.row.user_id, (lingua) => movedNotice(m, url, lingua));
  for (const c of o.cancelled) await notifyUser(deps, c.row.user_id, (lingua) => cancelledNotice(c, url, lingua));
}
