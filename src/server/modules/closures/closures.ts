import { sql, type SQL } from 'drizzle-orm';
import type { ClosureDto, ClosureOutcomeDto, ClosureRequest } from '../../../shared/schemas/rules.js';
import { zonedToday } from '../../../shared/time.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { badRequest, notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { lockFleet } from '../bikes/index.js';
import { bringLifecycleUpToDate, movableBookings } from '../bookings/index.js';
import { closureCancelledEmail } from '../rules/index.js';
import { NO_SEDI, sediNames } from '../sedi/index.js';
import { openSede } from '../sedi/index.js';
import { affectedDto, cancelAffected, noticeOf, voidNow, type ClosureDeps } from './affected.js';
import { testo } from '../../../shared/i18n/index.js';

/*
 * Closures of the service (issue 20): days nobody can book. This module owns `chiusure`;
 * the rules read them (rules/store.ts) to check a window.
 */

/**
 * The active bookings not picked up yet whose day lies in [dal, al]; `voidNow`, a preview's
 * condition (decision 035), leaves out the bookings the life cycle would release.
 */
function bookingsInClosure(tx: Pick<Tx, 'execute'>, c: { dal: string; al: string; sedeId: number | null }, lock: boolean, voidNow: SQL = sql`false`) {
  // A closure of one sede (issue 47) touches only that sede's bookings.
  const ofSede = c.sedeId === null ? sql`true` : sql`p.sede_id = ${c.sedeId}`;
  const where = sql`p.stato = 'attiva' and p.ritirata_at is null and p.data_prenotazione between ${c.dal}::date and ${c.al}::date
    and ${ofSede} and not ${voidNow}`;
  return movableBookings(tx, where, { withPayment: true, lock });
}

async function closureInput(deps: Pick<ClosureDeps, 'db' | 'clock' | 'config'>, input: ClosureRequest) {
  const today = zonedToday(deps.clock.now(), deps.config.timeZone);
  if (input.al < today) throw badRequest(testo('closures.inPast'), 'CLOSURE_IN_PAST', { fields: { al: testo('rules.fieldPastDate') } });
  const sedeId = input.sedeId ?? null;
  // One open sede, or every sede (issue 47).
  if (sedeId !== null && !(await openSede(deps.db, sedeId))) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
  return { dal: input.dal, al: input.al, motivo: input.motivo.trim(), sedeId };
}

/** POST /api/admin/chiusure/anteprima — the bookings a closure would cancel, nothing changed. */
export async function previewClosure(deps: ClosureDeps, input: ClosureRequest): Promise<ClosureOutcomeDto> {
  const c = await closureInput(deps, input);
  const rows = await bookingsInClosure(deps.db, c, false, await voidNow(deps));
  return { chiusura: null, cancellate: rows.map((r) => affectedDto(r)) };
}

/**
 * POST /api/admin/chiusure — the closure, and its bookings cancelled (reason `chiusura`), the
 * paid ones refunded (a failed refund: 502, nothing changes), each user emailed after the commit.
 */
export async function createClosure(deps: ClosureDeps, actor: Actor, input: ClosureRequest): Promise<ClosureOutcomeDto> {
  await bringLifecycleUpToDate(deps);
  const c = await closureInput(deps, input);
  const now = deps.clock.now();
  const done = await runTransaction(deps.db, async (tx) => {
    await lockFleet(tx);
    // triggers: tempo_liberato, NOTIFY bicielis_tempo_liberato, bicielis_regole
    const { rows: created } = await tx.execute<{ id: number; created_at: Date | string }>(sql`
      insert into chiusure (dal, al, motivo, sede_id, created_by, created_at)
      values (${c.dal}::date, ${c.al}::date, ${c.motivo}, ${c.sedeId}, ${actor.id}, ${now.toISOString()}::timestamptz)
      returning id, created_at`);
    const closure: ClosureDto = { id: created[0]!.id, ...c, createdAt: new Date(created[0]!.created_at).toISOString() };
    const rows = await bookingsInClosure(tx, c, true);
    const refunded = await cancelAffected(deps, tx, rows, 'chiusura', now);
    await writeAudit(
      tx,
      actor,
      { action: 'closure.create', entity: 'closure', entityId: closure.id, after: { ...closure, cancellate: rows.map((r) => r.id) } },
      now,
    );
    return { closure, rows, refunded };
  });
  const sedi = done.rows.length > 0 ? await sediNames(deps.db) : NO_SEDI;
  for (const r of done.rows) {
    deps.mailer.sendInBackground(closureCancelledEmail(noticeOf(r, sedi), done.closure, done.refunded.has(r.id), deps.config.publicUrl));
  }
  return { chiusura: done.closure, cancellate: done.rows.map((r) => affectedDto(r)) };
}

type ClosureRow = { id: number; dal: string; al: string; motivo: string; sede_id: number | null; created_at: Date | string };

const closureDto = (r: ClosureRow): ClosureDto => ({
  id: r.id,
  dal: r.dal,
  al: r.al,
  motivo: r.motivo,
  sedeId: r.sede_id,
  createdAt: new Date(r.created_at).toISOString(),
});

/** GET /api/admin/chiusure — every closure, the latest first. */
export async function listClosures(deps: Pick<ClosureDeps, 'db'>): Promise<ClosureDto[]> {
  const { rows } = await deps.db.execute<ClosureRow>(sql`
    select id, dal::text as dal, al::text as al, motivo, sede_id, created_at from chiusure order by dal desc, id desc limit 500`);
  return rows.map(closureDto);
}

/** DELETE /api/admin/chiusure/:id — the days can be booked again (cancelled bookings stay cancelled). */
export async function deleteClosure(deps: ClosureDeps, actor: Actor, id: number): Promise<ClosureDto> {
  const now = deps.clock.now();
  const removed = await runTransaction(deps.db, async (tx) => {
    // triggers: tempo_liberato, NOTIFY bicielis_tempo_liberato, bicielis_regole
    const { rows } = await tx.execute<ClosureRow>(sql`
      delete from chiusure where id = ${id} returning id, dal::text as dal, al::text as al, motivo, sede_id, created_at`);
    const r = rows[0];
    if (!r) throw notFound(testo('closures.notFound'), 'CLOSURE_NOT_FOUND');
    const closure = closureDto(r);
    await writeAudit(tx, actor, { action: 'closure.delete', entity: 'closure', entityId: id, before: closure }, now);
    return closure;
  });
  return removed;
}

