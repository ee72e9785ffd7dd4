import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';

/**
 * The pending payments of bookings whose hold ran out (the life cycle, behaviour.md §6 as
 * changed by decision 022) become `failed`. The payments module owns `pagamenti` (issue 31):
 * the life cycle releases the bookings and calls this in the same transaction, after locking
 * booking then payment (decision 023's order). Returns how many payments it failed.
 */
export async function failPendingPayments(tx: Tx, bookingIds: number[], at: string): Promise<number> {
  if (bookingIds.length === 0) return 0;
  const { rows } = await tx.execute(sql`
    update pagamenti set status = 'failed', updated_at = ${at}::timestamptz
     where prenotazione_id in (select unnest(${`{${bookingIds.join(',')}}`}::int[])) and status = 'pending'
    returning id`);
  return rows.length;
}
