import { and, count, eq, gt } from 'drizzle-orm';
import type { AdminBikeCreate, AdminBikeUpdate, AdminBikeUpdateResponse } from '../../../shared/schemas/admin.js';
import type { BikeDto } from '../../../shared/schemas/booking.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { biciclette, type Bike } from '../bikes/tables.js';
import { insertBike, lockFleet, lockOpenSede, setBikeSede, setBikeStateByAdmin } from '../bikes/index.js';
import { emptyOutcome, healInTransaction, healMinutes, tellHealOutcome } from '../fleet/index.js';
import type { PushSender } from '../notifications/index.js';
import { prenotazioni } from '../bookings/tables.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { bringLifecycleUpToDate } from '../bookings/index.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { bookingsRemain, clearBikeForSede, emptySedeMove, tellSedeMove } from './bike-sede.js';
import { testo, type Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';

const bikeDto = (b: Bike): BikeDto => ({
  id: b.id,
  numero: b.numero,
  modello: b.modello,
  stato: b.stato,
  sedeId: b.sedeId,
  updatedAt: b.updatedAt.toISOString(),
});

const auditBike = (b: Bike) => ({ ...bikeDto(b), statoAuto: b.statoAuto });

/**
 * The sentence the admin sees after a state change (issue 35), in the admin's language: out of
 * use, what the fleet's heal did with the bike's bookings of the next 24 hours.
 */
export function bikeUpdateMessage(out: boolean, moved: number, cancelled: number, lingua: Lingua = 'it'): string {
  if (!out) return tFor(lingua)('admin.bikeStateUpdated');
  return tFor(lingua)('admin.bikeStateUpdatedHealed', { spostate: moved, annullate: cancelled });
}

/** The sentence the admin sees after a move to another sede (issue 47), in the admin's language. */
const sedeMoveMessage = (moved: number, cancelled: number, lingua: Lingua) => tFor(lingua)('sediMovesApi.bikeMoved', { spostate: moved, annullate: cancelled });

type BikeUpdateDeps = AdminDeps & { push?: PushSender | undefined };
type LifecycleMinutes = Awaited<ReturnType<typeof healMinutes>>;

/**
 * In the caller's transaction, after every bike's lock: to another sede first (its bookings
 * moved within the old sede or cancelled, then `sede_id`), then the admin's state, healed
 * when out of use. The bike before and after, and what each step did to its bookings.
 */
async function changeBike(deps: BikeUpdateDeps, tx: Tx, actor: Actor, id: number, input: AdminBikeUpdate, o: { now: Date; minutes: LifecycleMinutes }) {
  const { now } = o;
  const [before] = await tx.select().from(biciclette).where(eq(biciclette.id, id)).for('update');
  if (!before) throw notFound(testo('bookingsApi.bikeNotFound'), 'BIKE_NOT_FOUND');
  let bike = before;
  let moved = emptySedeMove();
  if (input.sedeId !== undefined && input.sedeId !== before.sedeId) {
    if (!(await lockOpenSede(tx, input.sedeId))) throw notFound(testo('sediMovesApi.sedeNotFound'), 'SEDE_NOT_FOUND');
    moved = await clearBikeForSede(deps, tx, actor, id, now);
    bike = (await setBikeSede(tx, id, input.sedeId, now))!;
  }
  const out = input.stato === 'manutenzione' || input.stato === 'fuori_servizio';
  if (input.stato !== undefined) bike = (await setBikeStateByAdmin(tx, id, input.stato, now))!;
  const healed = out ? await healInTransaction(deps, tx, now, o.minutes, id) : emptyOutcome();
  const [left] = out
    ? await tx
        .select({ n: count() })
        .from(prenotazioni)
        .where(and(eq(prenotazioni.biciId, id), eq(prenotazioni.stato, 'attiva'), gt(prenotazioni.fine, now)))
    : [{ n: 0 }];
  const spostate = moved.moved.length + healed.moved.length;
  const annullate = moved.cancelled.length + healed.cancelled.length;
  await writeAudit(
    tx,
    actor,
    { action: 'bike.update', entity: 'bike', entityId: id, before: auditBike(before), after: { ...auditBike(bike), spostate, annullate, futureBookings: left?.n ?? 0 } },
    now,
  );
  return { bike, before, moved, healed, out, remaining: left?.n ?? 0 };
}

/**
 * PUT /api/admin/biciclette/:id { stato?, sedeId? }. The state: any of the four, `updatedAt`
 * now, and the state is the admin's (`stato_auto` false: the life cycle will not undo it,
 * decision 014). To `manutenzione`/`fuori_servizio` the fleet heals in the same transaction
 * (issue 35, decision 045, which supersedes decision 014's bookings that stay): the bike's
 * bookings of the next 24 hours moved to a free bike or cancelled (refunded if paid), their
 * people told after the commit; later ones move as they come within 24 hours while the bike is
 * still out (`futureBookings` counts them). The sede (issue 47): every booking and offer of the
 * bike not yet picked up moved to a free bike of the old sede or cancelled (refunded if paid),
 * their people told; a ride under way refuses it. Every bike is locked first (decision 023).
 */
export async function updateBike(deps: BikeUpdateDeps, actor: Actor, id: number, input: AdminBikeUpdate, lingua: Lingua = 'it'): Promise<AdminBikeUpdateResponse> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const minutes = await healMinutes(deps.db);
  const done = await runTransaction(deps.db, async (tx) => {
    await lockFleet(tx);
    return changeBike(deps, tx, actor, id, input, { now, minutes });
  }).catch((err: unknown) => {
    // The trigger's word, should a booking or offer still stand on the bike (it should not: all were locked).
    if (pgErrorCode(err) === '23514' && pgConstraint(err) === 'biciclette_sede_senza_prenotazioni') throw bookingsRemain();
    throw err;
  });
  const { bike, before, moved, healed, out } = done;
  await tellSedeMove(deps, moved);
  await tellHealOutcome(deps, healed, 'caller');
  const spostate = moved.moved.length + healed.moved.length;
  const annullate = moved.cancelled.length + healed.cancelled.length;
  const people = [...moved.moved.map((m) => m.row.user_id), ...moved.cancelled.map((c) => c.row.user_id)];
  people.push(...healed.moved.map((m) => m.row.user_id), ...healed.cancelled.map((c) => c.row.user_id));
  return {
    bike: bikeDto(bike),
    futureBookings: done.remaining,
    notifiedUsers: new Set(people).size,
    spostate,
    annullate,
    message: bike.sedeId !== before.sedeId ? sedeMoveMessage(spostate, annullate, lingua) : bikeUpdateMessage(out, spostate, annullate, lingua),
  };
}

/**
 * POST /api/admin/biciclette { numero, modello, sedeId? } → the new bike, `disponibile`, at the
 * sede given (an archived or unknown one: 404) or the first open one; 409 if the number is taken.
 */
export async function createBike(deps: AdminDeps, actor: Actor, input: AdminBikeCreate): Promise<BikeDto> {
  const now = deps.clock.now();
  try {
    const bike = await runTransaction(deps.db, async (tx) => {
      if (input.sedeId !== undefined && !(await lockOpenSede(tx, input.sedeId))) throw notFound(testo('sediMovesApi.sedeNotFound'), 'SEDE_NOT_FOUND');
      const row = await insertBike(tx, { numero: input.numero.trim(), modello: input.modello.trim(), sedeId: input.sedeId }, now);
      await writeAudit(tx, actor, { action: 'bike.create', entity: 'bike', entityId: row.id, after: auditBike(row) }, now);
      return row;
    });
    return bikeDto(bike);
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'biciclette_numero_unique') {
      throw conflict(testo('http.bikeNumberTaken'), 'BIKE_NUMBER_TAKEN');
    }
    throw err;
  }
}
