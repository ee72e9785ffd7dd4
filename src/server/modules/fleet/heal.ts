import { sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import type { PaymentProvider } from '../../integrations/payments/provider.js';
import type { Mailer } from '../../integrations/mailer.js';
import type { AppMetrics } from '../../metrics.js';
import { SYSTEM_ACTOR, writeAudit } from '../audit/index.js';
import { lockFleet } from '../bikes/index.js';
import { asOf, cancelBookings, movableBookings, type MovableBookingRow, relocation } from '../bookings/index.js';
import type { PushSender } from '../notifications/index.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';

/*
 * The fleet heals itself (issue 35, decision 045). A bike is *out* when a ride on it is in
 * ritardo (picked up, due back, not returned) or when it is broken: an admin's `manutenzione` or
 * `fuori_servizio`, or a damage report (at the return, or at the pick-up). The active bookings
 * on an out bike that start within the next 24 hours, not picked up, are moved, in order of
 * start, to a bike free for their whole window (the one path of `relocation.freeBikeFor`/`relocation.moveBooking`,
 * which planned maintenance also takes). One that cannot be moved:
 * - on a broken bike, is cancelled (`bici_guasta`), refunded if paid;
 * - on a late bike, stays: its person is told 15 minutes before its start, may cancel or wait,
 *   and it is moved by a later pass as soon as a bike is free for its window; if its bike is
 *   still out at its no-show instant, it is cancelled (`bici_non_rientrata`), refunded, and is
 *   no no-show (the life cycle leaves it to this pass: `asOf.bikeOutAtNoShow`).
 * Every pass holds every bike's lock (`lockFleet`), so two processes never move one booking
 * twice, nor two bookings onto one bike; it runs from the minute job, from the freed-time
 * dispatcher before any waitlist offer, and in the transaction of an admin's state change and
 * of a problem at the pick-up.
 */

/** Minutes before its start at which a booking still on a late bike is told (issue 35). */
export const ABSENT_NOTICE_MINUTES = 15;

export interface FleetDeps {
  db: Db;
  clock: Clock;
  payments: PaymentProvider;
  mailer: Mailer;
  push?: PushSender | undefined;
  config: Pick<Config, 'publicUrl' | 'timeZone' | 'stripe'>;
  metrics?: AppMetrics | undefined;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** A booking the heal looked at: its person, its bike, its window. */
export interface HealRow extends MovableBookingRow {
  /** Its bike has a ride in ritardo now (else it is broken). */
  in_ritardo: boolean;
  /** Past its no-show instant with its bike out then: cancelled as `bici_non_rientrata`. */
  scaduta: boolean;
  /** Told already that no other bike is free. */
  avvisata: boolean;
}

export interface HealMove {
  row: HealRow;
  to: { id: number; numero: string };
  causa: NonNullable<Parameters<typeof relocation.moveBooking>[4]>;
}

export interface HealCancel {
  row: HealRow;
  motivo: 'bici_guasta' | 'bici_non_rientrata';
  rimborsata: boolean;
}

export interface HealOutcome {
  moved: HealMove[];
  cancelled: HealCancel[];
  /** Still on a late bike, no other free: told now (once). */
  told: HealRow[];
}

export const emptyOutcome = (): HealOutcome => ({ moved: [], cancelled: [], told: [] });

/** The bikes out at `at`: broken (an admin's state, a damage report) or with a ride in ritardo. */
function outBikes(at: SQL): SQL {
  return sql`(select b.id from biciclette b where b.stato in ('manutenzione', 'fuori_servizio') and not b.stato_auto
              union
              select l.bici_id from prenotazioni l
               where l.stato = 'attiva' and l.ritirata_at is not null and l.fine <= ${at})`;
}

/**
 * The bookings a pass acts on, as a condition on `p` (an active booking not picked up, its unpaid
 * hold not run out): on an out bike, within the horizon, before its no-show instant; or past its
 * no-show instant with its bike out then.
 */
function dueBookings(at: SQL, noShow: number, hold: number): SQL {
  const noShowAt = sql`least(p.inizio + make_interval(mins => ${noShow}::int), p.fine)`;
  return sql`p.stato = 'attiva' and p.ritirata_at is null
    and not exists (select 1 from pagamenti pay where pay.prenotazione_id = p.id and pay.status = 'pending'
                     and (p.created_at + make_interval(mins => ${hold}::int) <= ${at} or p.inizio <= ${at}))
    and ((p.bici_id in ${outBikes(at)}
          and p.inizio < ${at} + make_interval(hours => ${asOf.HEAL_HORIZON_HOURS}) and ${noShowAt} > ${at})
         or (${noShowAt} <= ${at}
             and (tstzrange(p.inizio, p.fine, '[)') && tstzrange('-infinity', ${at} - make_interval(mins => ${noShow}::int), '(]') or p.fine <= ${at})
             and ${asOf.bikeOutAtNoShow(noShow)}))`;
}

/** The payment hold's and the no-show's minutes, as the rules say them now. */
export type LifecycleMinutes = { hold: number; noShow: number };

/** The rules' minutes a pass needs: read before its transaction (never a second connection inside it). */
export async function healMinutes(db: Db): Promise<LifecycleMinutes> {
  return lifecycleMinutes(await currentRules({ db }));
}

/** Whether a pass has anything to do now: one read, no locks (nearly always false). */
async function healDue(db: Db, at: SQL, noShow: number, hold: number, bikeId?: number): Promise<boolean> {
  const { rows } = await db.execute<{ due: boolean }>(sql`
    select exists (select 1 from prenotazioni p where ${dueBookings(at, noShow, hold)}
                   ${bikeId === undefined ? sql`` : sql`and p.bici_id = ${bikeId}`}) as due`);
  return rows[0]?.due === true;
}

const auditMove = (tx: Tx, m: HealMove, now: Date) =>
  writeAudit(
    tx,
    SYSTEM_ACTOR,
    {
      action: 'booking.move',
      entity: 'booking',
      entityId: m.row.id,
      before: { biciNumero: m.row.numero },
      after: { biciNumero: m.to.numero, causa: m.causa },
    },
    now,
  );

/**
 * One pass in the caller's transaction, which holds every bike's lock (`lockFleet`): the due
 * bookings (of one bike, with `bikeId`) locked, in order of start, each moved, cancelled or told.
 */
export async function healInTransaction(
  deps: Pick<FleetDeps, 'db' | 'clock' | 'payments' | 'log'>,
  tx: Tx,
  now: Date,
  minutes: LifecycleMinutes,
  bikeId?: number,
): Promise<HealOutcome> {
  const { hold, noShow } = minutes;
  const at = sql`${now.toISOString()}::timestamptz`;
  const extra = sql`exists (select 1 from prenotazioni l where l.bici_id = p.bici_id and l.id <> p.id and l.stato = 'attiva'
                     and l.ritirata_at is not null and l.fine <= ${at}) as in_ritardo,
           least(p.inizio + make_interval(mins => ${noShow}::int), p.fine) <= ${at} as scaduta,
           p.bici_assente_avvisata_at is not null as avvisata`;
  const where = sql`${dueBookings(at, noShow, hold)} ${bikeId === undefined ? sql`` : sql`and p.bici_id = ${bikeId}`}`;
  const rows = await movableBookings<HealRow>(tx, where, { extra, lock: true });
  const outcome = emptyOutcome();
  const cancel: { row: HealRow; motivo: HealCancel['motivo'] }[] = [];
  const toTell: HealRow[] = [];
  for (const row of rows) {
    if (row.scaduta) {
      cancel.push({ row, motivo: 'bici_non_rientrata' });
      continue;
    }
    const to = await relocation.freeBikeFor(tx, row, now);
    if (to) {
      const move: HealMove = { row, to, causa: row.in_ritardo ? 'ritardo' : 'guasto' };
      await relocation.moveBooking(tx, row.id, to.id, now, move.causa);
      await auditMove(tx, move, now);
      outcome.moved.push(move);
    } else if (!row.in_ritardo) {
      cancel.push({ row, motivo: 'bici_guasta' });
    } else if (!row.avvisata && new Date(row.inizio).getTime() - ABSENT_NOTICE_MINUTES * 60_000 <= now.getTime()) {
      toTell.push(row);
    }
  }
  for (const motivo of ['bici_guasta', 'bici_non_rientrata'] as const) {
    const group = cancel.filter((c) => c.motivo === motivo);
    if (group.length === 0) continue;
    const refunded = await cancelBookings(deps, tx, group.map((c) => c.row.id), { reason: motivo, refund: 'always', now });
    for (const { row } of group) {
      const c: HealCancel = { row, motivo, rimborsata: refunded.has(row.id) };
      await writeAudit(
        tx,
        SYSTEM_ACTOR,
        { action: 'booking.cancel_fleet', entity: 'booking', entityId: row.id, after: { biciNumero: row.numero, motivo, rimborsata: c.rimborsata } },
        now,
      );
      outcome.cancelled.push(c);
    }
  }
  const claimed = await relocation.claimBikeAbsentNotices(tx, toTell.map((r) => r.id), now);
  outcome.told = toTell.filter((r) => claimed.has(r.id));
  return outcome;
}

/**
 * A pass at the clock's now, in its own transaction (every bike locked first, decision 023),
 * when the probe finds something due; the outcome, for the caller to tell (`tellHealOutcome`).
 */
export async function healFleet(deps: Pick<FleetDeps, 'db' | 'clock' | 'payments' | 'log'>, now: Date = deps.clock.now()): Promise<HealOutcome> {
  const minutes = await healMinutes(deps.db);
  if (!(await healDue(deps.db, sql`${now.toISOString()}::timestamptz`, minutes.noShow, minutes.hold))) return emptyOutcome();
  return runTransaction(deps.db, async (tx) => {
    await lockFleet(tx);
    return healInTransaction(deps, tx, now, minutes);
  });
}
