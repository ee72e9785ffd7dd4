import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { biciclette, type Bike } from './tables.js';

/*
 * The writes of `biciclette` (issue 31: one writer per table). Each runs in the caller's
 * transaction, after the caller took the bike's lock where it needs one (decision 023: the
 * bike is lock 2, before bookings and payments); none of them takes another lock.
 * `stato_auto` says whose state it is (decision 014): true for the marks of the booking life
 * cycle and of planned maintenance, which they may undo; false for an admin's choice and for
 * the states nobody undoes by themselves.
 */

type BikeStato = Bike['stato'];

/**
 * An admin sets the bike's state: any of the four, the admin's own (`stato_auto` false: the
 * life cycle will not undo it). The row after the change, or undefined if there is no such bike.
 */
export async function setBikeStateByAdmin(tx: Tx, id: number, stato: BikeStato, now: Date): Promise<Bike | undefined> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (bookable or not)
  const [after] = await tx.update(biciclette).set({ stato, statoAuto: false, updatedAt: now }).where(eq(biciclette.id, id)).returning();
  return after;
}

/** A new bike, `disponibile`; the caller maps the unique number's violation (`biciclette_numero_unique`). */
export async function insertBike(tx: Tx, bike: { numero: string; modello: string; sedeId?: number | undefined }, now: Date): Promise<Bike> {
  const [row] = await tx
    .insert(biciclette) // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato; no sede: the first open one
    .values({ numero: bike.numero, modello: bike.modello, stato: 'disponibile', createdAt: now, updatedAt: now, ...(bike.sedeId ? { sedeId: bike.sedeId } : {}) })
    .returning();
  return row!;
}

/** A pick-up: the bike is in use from now, `prenotata` marked by the life cycle, if it was `disponibile`. */
export async function markBikePickedUp(tx: Tx, id: number, now: Date): Promise<void> {
  await tx
    .update(biciclette) // triggers: disponibilita_modifiche
    .set({ stato: 'prenotata', statoAuto: true, updatedAt: now })
    .where(and(eq(biciclette.id, id), eq(biciclette.stato, 'disponibile')));
}

/** A return with a damage report: the bike goes to `manutenzione` until an admin says otherwise. */
export async function putDamagedBikeInMaintenance(tx: Tx, id: number, now: Date): Promise<void> {
  await tx.update(biciclette).set({ stato: 'manutenzione', statoAuto: false, updatedAt: now }).where(eq(biciclette.id, id)); // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato
}

/**
 * A return without damage: the bike is `disponibile` at once, if the life cycle had marked it
 * `prenotata` and no other active booking holds it now (picked up, or inside its window).
 */
export async function freeReturnedBike(tx: Tx, id: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await tx.execute(sql`
    update ${biciclette} b set stato = 'disponibile', stato_auto = false, updated_at = ${at}::timestamptz
     where b.id = ${id} and b.stato = 'prenotata' and b.stato_auto
       and not exists (select 1 from prenotazioni p
                        where p.bici_id = b.id and p.stato = 'attiva'
                          and (p.ritirata_at is not null or tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz))`);
}

/**
 * A planned maintenance already under way when it is created (issue 20): the bike shows
 * `manutenzione` at once, marked as the maintenance's own (`stato_auto`), unless an admin's
 * state (`manutenzione`, `fuori_servizio`) stands.
 */
export async function startPlannedMaintenance(tx: Pick<Tx, 'execute'>, id: number, now: Date): Promise<void> {
  // triggers: disponibilita_modifiche
  await tx.execute(sql`
    update biciclette set stato = 'manutenzione', stato_auto = true, updated_at = ${now.toISOString()}::timestamptz
     where id = ${id} and stato in ('disponibile', 'prenotata')`);
}

/**
 * Locks every bike, in id order: the first lock of a closure, a planned maintenance or the fleet's heal (issue 35), as the
 * bike's lock is the first of a booking (decisions 023, 024). A booking being made waits, then
 * sees the closure or maintenance; one made before is seen by the statement after this lock.
 */
export async function lockFleet(tx: Pick<Tx, 'execute'>): Promise<void> {
  await tx.execute(sql`select id from biciclette order by id for no key update`);
}
