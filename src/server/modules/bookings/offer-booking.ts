import { sql } from 'drizzle-orm';
import { closureText } from '../../../shared/rules-text.js';
import type { Tx } from '../../db/transaction.js';
import { badRequest } from '../../http/errors.js';
import { pendingPaymentInsert } from '../payments/index.js';
import type { ClosureRule, Rules } from '../rules/index.js';
import { fairUseGate } from './gate.js';

/*
 * The rows of `prenotazioni` in state `offerta` (issue 21, decision 025) as the waitlist's
 * service changes them: an offer accepted becomes a booking, an offer declined or left goes.
 */

/**
 * An offer accepted: the same row turns `attiva` (the bike's time is held without a gap),
 * with an external's pending payment and the usual hold counted from now, under a booking's
 * rules and locks (decision 024): the fair-use gate, then the bike, then the row. A closure
 * of the day: 400 CLOSED. Returns the booking's id, or null when the offer is gone (expired,
 * passed on, or its bike in a planned maintenance).
 */
export async function bookOffer(
  tx: Tx,
  o: {
    user: { id: number; isResidente: boolean };
    attesaId: number;
    biciId: number;
    dataPrenotazione: string;
    rules: Rules;
    limits: boolean;
    now: Date;
    timeZone: string;
    provider: string;
  },
): Promise<number | null> {
  const now = o.now.toISOString();
  await fairUseGate(tx, { userId: o.user.id, date: o.dataPrenotazione, rules: o.rules, limits: o.limits, now: o.now, timeZone: o.timeZone });
  await tx.execute(sql`select id from biciclette where id = ${o.biciId} for no key update`);
  const { rows: closed } = await tx.execute<{ dal: string; al: string; motivo: string; sedeId: number | null }>(
    sql`select c.dal::text, c.al::text, c.motivo, c.sede_id as "sedeId" from chiusure c
         where ${o.dataPrenotazione}::date between c.dal and c.al
           and (c.sede_id is null or c.sede_id = (select b.sede_id from biciclette b where b.id = ${o.biciId}))
         limit 1`,
  );
  if (closed[0]) throw badRequest(closureText(closed[0] as ClosureRule), 'CLOSED');
  // triggers: stats_delta, contatori_delta, disponibilita_modifiche, codici_corsa, NOTIFY bicielis_pin (a smart lock's PIN)
  const { rows } = await tx.execute<{ id: number }>(sql`
    with booked as (
      update prenotazioni set stato = 'attiva', offerta_scade_at = null, created_at = ${now}::timestamptz,
                              updated_at = ${now}::timestamptz
       where attesa_id = ${o.attesaId} and user_id = ${o.user.id} and stato = 'offerta' and offerta_scade_at > ${now}::timestamptz
         and not exists (select 1 from manutenzioni m where m.bici_id = prenotazioni.bici_id
                           and tstzrange(m.inizio, m.fine, '[)') && tstzrange(prenotazioni.inizio, prenotazioni.fine, '[)'))
      returning id
    ), payment as (
      ${pendingPaymentInsert(sql`booked`, { provider: o.provider, now, external: !o.user.isResidente })}
    )
    select id from booked`);
  return rows[0]?.id ?? null;
}

/** The offer of a wait goes (the wait is left or the offer declined); its bike's time is free. */
export async function withdrawOffer(tx: Pick<Tx, 'execute'>, attesaId: number): Promise<void> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (not in the offer pass)
  await tx.execute(sql`delete from prenotazioni where attesa_id = ${attesaId} and stato = 'offerta'`);
}

/** The user's offers but the one of `keepAttesaId` go (the user has a booking now); the ids of their waits. */
export async function withdrawOtherOffers(tx: Pick<Tx, 'execute'>, userId: number, keepAttesaId: number): Promise<number[]> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (not in the offer pass)
  const { rows } = await tx.execute<{ attesa_id: number }>(sql`
    delete from prenotazioni where user_id = ${userId} and stato = 'offerta' and attesa_id <> ${keepAttesaId} returning attesa_id`);
  return rows.map((r) => r.attesa_id);
}

/** Every offer of the user goes (the person is erased), as a declined offer does. */
export async function withdrawOffersOf(tx: Pick<Tx, 'execute'>, userId: number): Promise<void> {
  // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato (not in the offer pass)
  await tx.execute(sql`delete from prenotazioni where user_id = ${userId} and stato = 'offerta'`);
}
