import { sql, type SQL } from 'drizzle-orm';
import type { MaintenanceDto, MaintenanceOutcomeDto, MaintenanceRequest } from '../../../shared/schemas/rules.js';
import { zonedClock, zonedInstant, zonedToday } from '../../../shared/time.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { lockFleet, startPlannedMaintenance } from '../bikes/index.js';
import { bringLifecycleUpToDate, movableBookings, relocation } from '../bookings/index.js';
import { bookingMovedEmail, maintenanceCancelledEmail } from '../rules/index.js';
import { bikeAtSede, NO_SEDI, sediNames } from '../sedi/index.js';
import { affectedDto, cancelAffected, noticeOf, voidNow, type AffectedRow, type ClosureDeps } from './affected.js';
import { testo } from '../../../shared/i18n/index.js';

/*
 * Planned maintenance of a bike (issue 20): periods in which the bike is offered to nobody;
 * its bookings inside move to another bike or are cancelled. This module owns `manutenzioni`.
 */

function maintenanceWindow(deps: Pick<ClosureDeps, 'clock' | 'config'>, input: MaintenanceRequest) {
  const tz = deps.config.timeZone;
  const inizio = zonedInstant(input.dal.slice(0, 10), input.dal.slice(11, 16), tz);
  const fine = zonedInstant(input.al.slice(0, 10), input.al.slice(11, 16), tz);
  if (!inizio || !fine) throw badRequest(testo('closures.maintenanceNonexistentTime'), 'NONEXISTENT_TIME');
  if (fine <= inizio) throw badRequest(testo('closures.maintenanceEndBeforeStart'), 'INVALID_WINDOW', { fields: { al: testo('closures.fieldBeforeStart') } });
  if (fine <= deps.clock.now()) throw badRequest(testo('closures.maintenanceOver'), 'MAINTENANCE_IN_PAST', { fields: { al: testo('rules.fieldPastDate') } });
  return { inizio, fine, motivo: input.motivo.trim() };
}

/** The active bookings of the bike, not picked up, that overlap the period. */
function bookingsInMaintenance(tx: Pick<Tx, 'execute'>, bikeId: number, inizio: Date, fine: Date, lock: boolean, voidNow: SQL = sql`false`) {
  const where = sql`p.bici_id = ${bikeId} and p.stato = 'attiva' and p.ritirata_at is null and not ${voidNow}
       and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${inizio.toISOString()}::timestamptz, ${fine.toISOString()}::timestamptz, '[)')`;
  return movableBookings(tx, where, { withPayment: true, lock });
}

async function bikeNumber(tx: Pick<Tx, 'execute'>, bikeId: number): Promise<string> {
  const { rows } = await tx.execute<{ numero: string }>(sql`select numero from biciclette where id = ${bikeId}`);
  if (!rows[0]) throw notFound(testo('closures.bikeNotFound'), 'BIKE_NOT_FOUND');
  return rows[0].numero;
}

/** Where each affected booking would go. Two bookings of one bike never overlap, so their moves never compete. */
async function planMoves(tx: Pick<Tx, 'execute'>, rows: AffectedRow[], now: Date) {
  const moves: { row: AffectedRow; to: { id: number; numero: string } | null }[] = [];
  for (const row of rows) moves.push({ row, to: await relocation.freeBikeFor(tx, row, now) });
  return moves;
}

function outcome(moves: Awaited<ReturnType<typeof planMoves>>, manutenzione: MaintenanceDto | null): MaintenanceOutcomeDto {
  return {
    manutenzione,
    spostate: moves.filter((m) => m.to).map((m) => affectedDto(m.row, m.to!.numero)),
    cancellate: moves.filter((m) => !m.to).map((m) => affectedDto(m.row, null)),
  };
}

/** POST /api/admin/biciclette/:id/manutenzioni/anteprima — what the period would do, nothing changed. */
export async function previewMaintenance(deps: ClosureDeps, bikeId: number, input: MaintenanceRequest): Promise<MaintenanceOutcomeDto> {
  const w = maintenanceWindow(deps, input);
  await bikeNumber(deps.db, bikeId);
  // What the confirmation would refuse (the EXCLUDE constraint), said before it.
  const { rows: overlapping } = await deps.db.execute(sql`
    select 1 from manutenzioni m where m.bici_id = ${bikeId}
       and tstzrange(m.inizio, m.fine, '[)') && tstzrange(${w.inizio.toISOString()}::timestamptz, ${w.fine.toISOString()}::timestamptz, '[)')`);
  if (overlapping.length > 0) throw conflict(testo('closures.maintenanceOverlap'), 'MAINTENANCE_OVERLAP');
  const rows = await bookingsInMaintenance(deps.db, bikeId, w.inizio, w.fine, false, await voidNow(deps));
  return outcome(await planMoves(deps.db, rows, deps.clock.now()), null);
}

/**
 * POST /api/admin/biciclette/:id/manutenzioni — plans the period; each booking of the bike
 * inside it moves to another free bike for the same window, or is cancelled (reason
 * `manutenzione`, refunded if paid); users emailed after the commit. A period under way shows
 * the bike `manutenzione` at once (the life cycle does it at a later start, and undoes it at the end).
 */
export async function createMaintenance(deps: ClosureDeps, actor: Actor, bikeId: number, input: MaintenanceRequest): Promise<MaintenanceOutcomeDto> {
  await bringLifecycleUpToDate(deps);
  const w = maintenanceWindow(deps, input);
  const now = deps.clock.now();
  try {
    const done = await runTransaction(deps.db, async (tx) => {
      await lockFleet(tx);
      const numero = await bikeNumber(tx, bikeId);
      // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato
      const { rows: created } = await tx.execute<{ id: number }>(sql`
        insert into manutenzioni (bici_id, inizio, fine, motivo, created_by, created_at)
        values (${bikeId}, ${w.inizio.toISOString()}::timestamptz, ${w.fine.toISOString()}::timestamptz, ${w.motivo}, ${actor.id},
                ${now.toISOString()}::timestamptz)
        returning id`);
      const rows = await bookingsInMaintenance(tx, bikeId, w.inizio, w.fine, true);
      const moves = await planMoves(tx, rows, now);
      for (const m of moves.filter((x) => x.to)) {
        await relocation.moveBooking(tx, m.row.id, m.to!.id, now);
      }
      const cancelled = moves.filter((x) => !x.to).map((x) => x.row);
      const refunded = await cancelAffected(deps, tx, cancelled, 'manutenzione', now);
      if (w.inizio <= now) {
        await startPlannedMaintenance(tx, bikeId, now);
      }
      const manutenzione = maintenanceDto(deps, { id: created[0]!.id, biciId: bikeId, numero, inizio: w.inizio, fine: w.fine, motivo: w.motivo }, now);
      const result = outcome(moves, manutenzione);
      await writeAudit(tx, actor, { action: 'maintenance.create', entity: 'maintenance', entityId: manutenzione.id, after: result }, now);
      return { result, moves, refunded };
    });
    const sedi = done.moves.length > 0 ? await sediNames(deps.db) : NO_SEDI;
    for (const m of done.moves) {
      deps.mailer.sendInBackground(
        m.to
          ? bookingMovedEmail(noticeOf(m.row, sedi), bikeAtSede(sedi, m.to.numero, m.row.sede_id), deps.config.publicUrl)
          : maintenanceCancelledEmail(noticeOf(m.row, sedi), done.refunded.has(m.row.id), deps.config.publicUrl),
      );
    }
    return done.result;
  } catch (err) {
    if (pgErrorCode(err) === '23P01' && pgConstraint(err) === 'manutenzioni_no_overlap') throw conflict(testo('closures.maintenanceOverlap'), 'MAINTENANCE_OVERLAP');
    throw err;
  }
}

/** `YYYY-MM-DDTHH:mm` in TZ_APP. */
const wall = (d: Date, tz: string) => `${zonedToday(d, tz)}T${zonedClock(d, tz)}`;

function maintenanceDto(
  deps: Pick<ClosureDeps, 'config'>,
  m: { id: number; biciId: number; numero: string; inizio: Date; fine: Date; motivo: string },
  now: Date,
): MaintenanceDto {
  const tz = deps.config.timeZone;
  return {
    id: m.id,
    biciId: m.biciId,
    biciNumero: m.numero,
    dal: wall(m.inizio, tz),
    al: wall(m.fine, tz),
    motivo: m.motivo,
    inCorso: m.inizio <= now && now < m.fine,
  };
}

interface MaintenanceRow extends Record<string, unknown> {
  id: number;
  bici_id: number;
  numero: string;
  inizio: Date | string;
  fine: Date | string;
  motivo: string;
}
const toMaintenance = (r: MaintenanceRow) => ({ id: r.id, biciId: r.bici_id, numero: r.numero, inizio: new Date(r.inizio), fine: new Date(r.fine), motivo: r.motivo });

/** GET /api/admin/manutenzioni — the periods under way or to come, soonest first. */
export async function listMaintenance(deps: Pick<ClosureDeps, 'db' | 'clock' | 'config'>): Promise<MaintenanceDto[]> {
  const now = deps.clock.now();
  const { rows } = await deps.db.execute<MaintenanceRow>(sql`
    select m.id, m.bici_id, b.numero, m.inizio, m.fine, m.motivo from manutenzioni m join biciclette b on b.id = m.bici_id
     where m.fine > ${now.toISOString()}::timestamptz order by m.inizio, m.id limit 500`);
  return rows.map((r) => maintenanceDto(deps, toMaintenance(r), now));
}

/**
 * DELETE /api/admin/manutenzioni/:id — the period is dropped (bookings moved or cancelled
 * stay so); a bike shown in maintenance by it is disponibile again at once.
 */
export async function deleteMaintenance(deps: ClosureDeps, actor: Actor, id: number): Promise<MaintenanceDto> {
  const now = deps.clock.now();
  const removed = await runTransaction(deps.db, async (tx) => {
    // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato
    const { rows } = await tx.execute<MaintenanceRow>(sql`
      with gone as (delete from manutenzioni where id = ${id} returning *)
      select gone.id, gone.bici_id, b.numero, gone.inizio, gone.fine, gone.motivo from gone join biciclette b on b.id = gone.bici_id`);
    const r = rows[0];
    if (!r) throw notFound(testo('closures.maintenanceNotFound'), 'MAINTENANCE_NOT_FOUND');
    const dto = maintenanceDto(deps, toMaintenance(r), now);
    await writeAudit(tx, actor, { action: 'maintenance.delete', entity: 'maintenance', entityId: id, before: dto }, now);
    return dto;
  });
  await bringLifecycleUpToDate(deps);
  return removed;
}

