import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../db/transaction.js';

/**
 * The waitlist's offer rows in `prenotazioni` (issue 21, decision 025), written here because
 * the bookings module owns that table (issue 31). The waitlist's pass (waitlist/offers.ts)
 * decides which offers end and which are made, and calls these under its locks; each returns
 * the waits (`attesa_id`) whose offer it removed or made, for the pass to update `attese`.
 */

/** Deletes the offers that ran out unanswered at `at`; their waits end `persa`. */
export async function deleteRunOutOffers(tx: Tx, at: string): Promise<number[]> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (not in the offer pass)
  const { rows } = await tx.execute<{ attesa_id: number }>(sql`
    delete from prenotazioni o where o.stato = 'offerta' and o.offerta_scade_at <= ${at}::timestamptz
    returning o.attesa_id`);
  return rows.map((r) => r.attesa_id);
}

/** Deletes the offers of waits whose user is no longer active (deactivated or deleted). */
export async function deleteOffersOfUsersGone(tx: Tx): Promise<void> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (not in the offer pass)
  await tx.execute(sql`
    delete from prenotazioni o using attese a
     where o.stato = 'offerta' and a.id = o.attesa_id
       and not exists (select 1 from users u where u.id = a.user_id and u.attiva)`);
}

/** Deletes the offers `o` on bike `b` for which `withdrawn` holds (a closure, a maintenance). */
export async function deleteWithdrawnOffers(tx: Tx, withdrawn: SQL): Promise<number[]> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (not in the offer pass)
  const { rows } = await tx.execute<{ attesa_id: number }>(sql`
    delete from prenotazioni o using biciclette b
     where b.id = o.bici_id and o.stato = 'offerta' and ${withdrawn}
    returning o.attesa_id`);
  return rows.map((r) => r.attesa_id);
}

export type OfferRow = {
  id: number;
  attesa_id: number;
  user_id: number;
  bici_id: number;
  offerta_scade_at: Date | string;
};

/**
 * Inserts the offer of bike `biciId` to wait `attesaId` (its user, window and destination),
 * holding the bike `offerMinutes` and at the latest until the window's start. The exclusion
 * constraint is the arbiter (`ON CONFLICT DO NOTHING`): undefined when the bike was taken.
 */
export async function insertOffer(tx: Tx, attesaId: number, biciId: number, at: string, offerMinutes: number): Promise<OfferRow | undefined> {
  // triggers: disponibilita_modifiche
  const { rows } = await tx.execute<OfferRow>(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine,
                              destinazione, stato, attesa_id, offerta_scade_at, created_at, updated_at)
    select a.user_id, ${biciId}, a.data_prenotazione, a.orario_inizio, a.orario_fine, a.inizio, a.fine,
           a.destinazione, 'offerta', a.id,
           least(${at}::timestamptz + make_interval(mins => ${offerMinutes}::int), a.inizio),
           ${at}::timestamptz, ${at}::timestamptz
      from attese a where a.id = ${attesaId}
    on conflict do nothing
    returning id, attesa_id, user_id, bici_id, offerta_scade_at`);
  return rows[0];
}

export type UnannouncedOffer = {
  user_id: number;
  nome: string;
  numero: string;
  /** The bike's sede (issue 47): the offer names it when there are several. */
  sede_id: number;
  data_prenotazione: string;
  orario_inizio: string;
  orario_fine: string;
  offerta_scade_at: Date | string;
};

/** Claims every offer not announced yet (once, whichever process asks first) and returns it. */
export async function claimUnannouncedOffers(db: Db, now: Date): Promise<UnannouncedOffer[]> {
  // triggers: disponibilita_modifiche
  const { rows } = await db.execute<UnannouncedOffer>(sql`
    update prenotazioni o set offerta_avvisata_at = ${now.toISOString()}::timestamptz
      from users u, biciclette b
     where o.stato = 'offerta' and o.offerta_avvisata_at is null and u.id = o.user_id and b.id = o.bici_id
    returning o.user_id, u.nome, b.numero, o.sede_id, o.data_prenotazione::text as data_prenotazione, o.orario_inizio, o.orario_fine, o.offerta_scade_at`);
  return rows;
}
