import { and, eq, gt } from 'drizzle-orm';
import type { AdminBikeCreate, AdminBikeUpdateResponse } from '../../../shared/schemas/admin.js';
import type { BikeDto, BikeStato } from '../../../shared/schemas/booking.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { biciclette, type Bike } from '../bikes/tables.js';
import { insertBike, setBikeStateByAdmin } from '../bikes/index.js';
import { prenotazioni } from '../bookings/tables.js';
import { users } from '../users/tables.js';
import { conflict, notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { bringLifecycleUpToDate } from '../bookings/index.js';
import { bikeUnavailableEmail } from './emails.js';
import { runTransaction } from '../../db/transaction.js';

export const MSG_BIKE_NOT_FOUND = 'Bicicletta non trovata';
export const MSG_BIKE_NUMBER_TAKEN = 'Esiste già una bicicletta con questo numero';

const bikeDto = (b: Bike): BikeDto => ({
  id: b.id,
  numero: b.numero,
  modello: b.modello,
  stato: b.stato,
  updatedAt: b.updatedAt.toISOString(),
});

const auditBike = (b: Bike) => ({ ...bikeDto(b), statoAuto: b.statoAuto });

/** The Italian sentence the admin sees after a state change. */
export function bikeUpdateMessage(futureBookings: number, notifiedUsers: number): string {
  if (futureBookings === 0) return 'Stato aggiornato.';
  const bookings =
    futureBookings === 1
      ? '1 prenotazione futura resta attiva su questa bici'
      : `${futureBookings} prenotazioni future restano attive su questa bici`;
  const users =
    notifiedUsers === 0
      ? 'nessun utente è stato avvisato'
      : notifiedUsers === 1
        ? "l'utente è stato avvisato via email"
        : 'gli utenti sono stati avvisati via email';
  return `Stato aggiornato. ${bookings}: ${users}.`;
}

/**
 * PUT /api/admin/biciclette/:id { stato }: any of the four states, `updatedAt` now, and the
 * state is the admin's (`stato_auto` false: the life cycle will not undo it, decision 014).
 * To `manutenzione`/`fuori_servizio` with future `attiva` bookings (end after now): they
 * stay, each user is emailed in the background (a failed send is logged, never fails the
 * request), and the answer says how many.
 */
export async function updateBikeState(deps: AdminDeps, actor: Actor, id: number, stato: BikeStato): Promise<AdminBikeUpdateResponse> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const { bike, affected } = await runTransaction(deps.db, async (tx) => {
    const [before] = await tx.select().from(biciclette).where(eq(biciclette.id, id)).for('update');
    if (!before) throw notFound(MSG_BIKE_NOT_FOUND, 'BIKE_NOT_FOUND');
    const after = await setBikeStateByAdmin(tx, id, stato, now);
    const affected =
      stato === 'manutenzione' || stato === 'fuori_servizio'
        ? await tx
            .select({
              userId: users.id,
              email: users.email,
              nome: users.nome,
              dataPrenotazione: prenotazioni.dataPrenotazione,
              orarioInizio: prenotazioni.orarioInizio,
              orarioFine: prenotazioni.orarioFine,
            })
            .from(prenotazioni)
            .innerJoin(users, eq(users.id, prenotazioni.userId))
            .where(and(eq(prenotazioni.biciId, id), eq(prenotazioni.stato, 'attiva'), gt(prenotazioni.fine, now)))
            .orderBy(prenotazioni.inizio)
        : [];
    await writeAudit(
      tx,
      actor,
      {
        action: 'bike.update',
        entity: 'bike',
        entityId: id,
        before: auditBike(before),
        after: { ...auditBike(after!), futureBookings: affected.length },
      },
      now,
    );
    return { bike: after!, affected };
  });
  const notified = new Set<number>();
  for (const a of affected) {
    notified.add(a.userId);
    deps.mailer.sendInBackground(
      bikeUnavailableEmail(a, { biciNumero: bike.numero, ...a }, stato as 'manutenzione' | 'fuori_servizio', deps.config.publicUrl),
    );
  }
  return {
    bike: bikeDto(bike),
    futureBookings: affected.length,
    notifiedUsers: notified.size,
    message: bikeUpdateMessage(affected.length, notified.size),
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
      throw conflict(MSG_BIKE_NUMBER_TAKEN, 'BIKE_NUMBER_TAKEN');
    }
    throw err;
  }
}
