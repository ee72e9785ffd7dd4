import { and, count, eq, gt } from 'drizzle-orm';
import type { AdminBikeCreate, AdminBikeUpdateResponse } from '../../../shared/schemas/admin.js';
import type { BikeDto, BikeStato } from '../../../shared/schemas/booking.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { biciclette, type Bike } from '../bikes/tables.js';
import { insertBike, lockFleet, setBikeStateByAdmin } from '../bikes/index.js';
import { emptyOutcome, healInTransaction, healMinutes, tellHealOutcome } from '../fleet/index.js';
import type { PushSender } from '../notifications/index.js';
import { prenotazioni } from '../bookings/tables.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { bringLifecycleUpToDate } from '../bookings/index.js';
import { runTransaction } from '../../db/transaction.js';
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

/**
 * PUT /api/admin/biciclette/:id { stato }: any of the four states, `updatedAt` now, and the
 * state is the admin's (`stato_auto` false: the life cycle will not undo it, decision 014).
 * To `manutenzione`/`fuori_servizio` the fleet heals in the same transaction (issue 35, decision
 * 045, which supersedes decision 014's bookings that stay): every bike locked first, the bike's
 * bookings of the next 24 hours moved to a free bike or cancelled (refunded if paid), their
 * people told after the commit; later ones move as they come within 24 hours while the bike is
 * still out (`futureBookings` counts them).
 */
export async function updateBikeState(
  deps: AdminDeps & { push?: PushSender | undefined },
  actor: Actor,
  id: number,
  stato: BikeStato,
  lingua: Lingua = 'it',
): Promise<AdminBikeUpdateResponse> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const out = stato === 'manutenzione' || stato === 'fuori_servizio';
  const minutes = await healMinutes(deps.db);
  const { bike, healed, remaining } = await runTransaction(deps.db, async (tx) => {
    await lockFleet(tx);
    const [before] = await tx.select().from(biciclette).where(eq(biciclette.id, id)).for('update');
    if (!before) throw notFound(testo('bookingsApi.bikeNotFound'), 'BIKE_NOT_FOUND');
    const after = await setBikeStateByAdmin(tx, id, stato, now);
    const healed = out ? await healInTransaction(deps, tx, now, minutes, id) : emptyOutcome();
    const [left] = out
      ? await tx
          .select({ n: count() })
          .from(prenotazioni)
          .where(and(eq(prenotazioni.biciId, id), eq(prenotazioni.stato, 'attiva'), gt(prenotazioni.fine, now)))
      : [{ n: 0 }];
    await writeAudit(
      tx,
      actor,
      {
        action: 'bike.update',
        entity: 'bike',
        entityId: id,
        before: auditBike(before),
        after: { ...auditBike(after!), spostate: healed.moved.length, annullate: healed.cancelled.length, futureBookings: left?.n ?? 0 },
      },
      now,
    );
    return { bike: after!, healed, remaining: left?.n ?? 0 };
  });
  await tellHealOutcome(deps, healed, 'caller');
  return {
    bike: bikeDto(bike),
    futureBookings: remaining,
    notifiedUsers: new Set([...healed.moved.map((m) => m.row.user_id), ...healed.cancelled.map((c) => c.row.user_id)]).size,
    spostate: healed.moved.length,
    annullate: healed.cancelled.length,
    message: bikeUpdateMessage(out, healed.moved.length, healed.cancelled.length, lingua),
  };
}

/** POST /api/admin/biciclette { numero, modello } → the new bike, `disponibile`; 409 if the number is taken. */
export async function createBike(deps: AdminDeps, actor: Actor, input: AdminBikeCreate): Promise<BikeDto> {
  const now = deps.clock.now();
  try {
    const bike = await runTransaction(deps.db, async (tx) => {
      const row = await insertBike(tx, { numero: input.numero.trim(), modello: input.modello.trim() }, now);
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
