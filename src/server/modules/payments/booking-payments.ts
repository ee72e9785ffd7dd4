import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { CURRENCY, EXTERNAL_FEE_CENTS } from '../../../shared/constants.js';
import type { Config } from '../../config.js';
import type { Tx } from '../../db/transaction.js';

/*
 * The payments module owns `pagamenti`: what a booking's change does to its payment is
 * written here, and the bookings module calls it in its own transaction.
 */

/** The provider of a new payment: Stripe when configured, the simulated one otherwise. */
export const paymentProviderName = (config: Pick<Config, 'stripe'>) => (config.stripe ? 'stripe' : 'simulated');

/**
 * The external's pending payment of a booking just made, as a statement to put in the
 * booking's own statement (a CTE, decision 018: one round trip): `booked` names the CTE that
 * returned the booking's `id`; nothing is inserted for a resident (`external` false). It
 * returns the payment's `status`.
 */
export function pendingPaymentInsert(
  booked: SQL,
  o: { provider: string | Placeholder; now: string | Placeholder; external: boolean | Placeholder },
): SQL {
  // triggers: disponibilita_modifiche
  return sql`insert into pagamenti (prenotazione_id, provider, amount, currency, status, created_at, updated_at)
        select ${booked}.id, ${o.provider}, ${EXTERNAL_FEE_CENTS}, ${CURRENCY}, 'pending', ${o.now}::timestamptz, ${o.now}::timestamptz
          from ${booked}
         where ${o.external}::boolean
        returning status`;
}

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/**
 * The bookings' unpaid payments can no longer be paid: `pending` → `failed`. For a cancel (its
 * reason any) and for the life cycle's holds run out (behaviour.md §6, decision 022), in the
 * caller's transaction, after it locked the bookings (decision 023: booking, then payment).
 * Returns how many payments it failed.
 */
export async function failPendingPayments(tx: Pick<Tx, 'execute'>, bookingIds: number[], at: Date | string): Promise<number> {
  if (bookingIds.length === 0) return 0;
  const instant = typeof at === 'string' ? at : at.toISOString();
  // triggers: stats_delta, disponibilita_modifiche (and the status transition checked)
  const { rows } = await tx.execute(sql`
    update pagamenti set status = 'failed', updated_at = ${instant}::timestamptz
     where prenotazione_id in (${idList(bookingIds)}) and status = 'pending'
    returning id`);
  return rows.length;
}

/**
 * Before bookings are deleted: their open payments are closed (`pending` → `failed`, they can
 * no longer be paid; a late payment is refunded by settle.ts as one for an unknown booking)
 * and every payment row keeps the booking's day and the deletion time, so it stays in the
 * accounts once `prenotazione_id` is set to null by the foreign key (decision 015).
 */
export async function detachPayments(tx: Pick<Tx, 'execute'>, bookingIds: number[], now: Date): Promise<void> {
  if (bookingIds.length === 0) return;
  // triggers: stats_delta, disponibilita_modifiche (and the status transition checked)
  await tx.execute(sql`
    update pagamenti pay
       set status = case when pay.status = 'pending' then 'failed' else pay.status end,
           booking_date = p.data_prenotazione,
           booking_deleted_at = ${now.toISOString()}::timestamptz,
           updated_at = ${now.toISOString()}::timestamptz
      from prenotazioni p
     where p.id = pay.prenotazione_id and p.id in (${idList(bookingIds)})`);
}

/** A past payment of the demo's history (seed-history.ts): paid, and refunded when the user cancelled. */
export interface PastPayment {
  id: number;
  refunded: boolean;
  /** When the booking was made and paid (ISO). */
  paid: string;
}

/** The demo's past payments, in one statement (simulated provider, the usual fee). */
export async function insertPastPayments(tx: Pick<Tx, 'execute'>, payments: PastPayment[]): Promise<void> {
  // triggers: stats_delta, disponibilita_modifiche
  await tx.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, currency, status, completed_at, refunded_at, created_at, updated_at)
    select p.id, 'simulated', 'pi_demo_' || p.id, ${EXTERNAL_FEE_CENTS}, ${CURRENCY}, case when p.refunded then 'refunded' else 'completed' end,
           p.paid::timestamptz + interval '2 minutes', case when p.refunded then p.paid::timestamptz + interval '3 hours' end,
           p.paid::timestamptz, p.paid::timestamptz + interval '2 minutes'
      from json_to_recordset(${JSON.stringify(payments)}::json) as p(id int, refunded boolean, paid text)`);
}
