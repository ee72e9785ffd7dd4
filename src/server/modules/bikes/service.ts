import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { biciclette, type Bike } from './tables.js';
import { sedi } from '../sedi/tables.js';

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

/**
 * A new bike, `disponibile`, at `sedeId` (an open sede the caller checked: `lockOpenSede`), or
 * without it at the first open sede; the caller maps the unique number's violation (`biciclette_numero_unique`).
 */
export async function insertBike(tx: Tx, bike: { numero: string; modello: string; sedeId?: number | undefined }, now: Date): Promise<Bike> {
  const [row] = await tx
    .insert(biciclette) // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato, biciclette_sede_predefinita
    .values({ numero: bike.numero, modello: bike.modello, stato: 'disponibile', createdAt: now, updatedAt: now, ...(bike.sedeId === undefined ? {} : { sedeId: bike.sedeId }) })
    .returning();
  return row!;
}

/**
 * Whether `sedeId` is an open sede, its row held `FOR SHARE` until the caller's transaction ends
 * (issue 47): an archive waiting on it then sees the bike given to it.
 */
export async function lockOpenSede(tx: Pick<Tx, 'execute'>, sedeId: number): Promise<boolean> {
  const { rows } = await tx.execute(sql`select id from ${sedi} where id = ${sedeId} and archiviata_at is null for share`);
  return rows.length > 0;
}

/**
 * The bike stands at another sede from now (issue 47). The caller holds the bike's lock and has
 * moved or cancelled its bookings and offers first: the trigger refuses the change while any
 * remains (`biciclette_sede_senza_prenotazioni`).
 */
export async function setBikeSede(tx: Tx, id: number, sedeId: number, now: Date): Promise<Bike | undefined> {
  // triggers: disponibilita_modifiche, biciclette_sede
  const [after] = await tx.update(biciclette).set({ sedeId, updatedAt: now }).where(eq(biciclette.id, id)).returning();
  return after;
}

/** A pick-up: the bike is in use from now, `prenotata` marked by the life cycle, if it was `disponibile`. */
export async function markBikePickedUp(tx: Tx, id: number, now: Date): Promise<void> {
  await tx
    .update(biciclette) // triggers: disponibilita_modifiche
    .set({ stato: 'prenotata', statoAuto: true, updatedAt: now })
    .where(and(eq(biciclette.id, id), eq(biciclette.stato, 'disponibile')));
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

/**
 * Locks one bike, FOR NO KEY UPDATE (decision 023: users, then bikes, then bookings and the rest):
 * the first lock of a repair ticket's change (issue 48), so two tickets of one bike closing at
 * once see each other. Its state, sede and number; undefined when there is no such bike.
 */
export async function lockBike(tx: Pick<Tx, 'execute'>, id: number): Promise<{ id: number; numero: string; stato: string; sedeId: number } | undefined> {
  const { rows } = await tx.execute<{ id: number; numero: string; stato: string; sede_id: number }>(
    sql`select id, numero, stato, sede_id from ${biciclette} where id = ${id} for no key update`,
  );
  const row = rows[0];
  return row && { id: row.id, numero: row.numero, stato: row.stato, sedeId: row.sede_id };
}

/**
 * What a bike's repair tickets make of it (issue 48), in the ticket's transaction, the bike locked
 * first (`lockBike`):
 * - `fuori_uso`: an open ticket says `Non utilizzabile`: `manutenzione`, unless `fuori_servizio`;
 * - `libera`: no open ticket keeps it out any more (the caller checked): back to `disponibile` if
 *   a ticket had put it in `manutenzione` (not a planned maintenance's own mark, `stato_auto`);
 * - `non_riparabile`: `fuori_servizio`.
 * The bike's trigger records freed or withdrawn time, which wakes the fleet's heal (decision 045).
 */
export async function bikeFollowsTickets(tx: Pick<Tx, 'execute'>, id: number, outcome: 'fuori_uso' | 'libera' | 'non_riparabile', now: Date): Promise<void> {
  const at = now.toISOString();
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato
  if (outcome === 'fuori_uso') {
    await tx.execute(sql`
      update ${biciclette} set stato = 'manutenzione', stato_auto = false, updated_at = ${at}::timestamptz
       where id = ${id} and stato <> 'fuori_servizio' and not (stato = 'manutenzione' and not stato_auto)`);
  } else if (outcome === 'libera') {
    await tx.execute(sql`
      update ${biciclette} set stato = 'disponibile', stato_auto = false, updated_at = ${at}::timestamptz
       where id = ${id} and stato = 'manutenzione' and not stato_auto`);
  } else {
    await tx.execute(sql`
      update ${biciclette} set stato = 'fuori_servizio', stato_auto = false, updated_at = ${at}::timestamptz
       where id = ${id} and stato <> 'fuori_servizio'`);
  }
}
