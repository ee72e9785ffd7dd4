import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { offerRows } from '../bookings/index.js';

/**
 * Offers withdrawn because their bike left for another sede with no other bike of the old sede
 * free for the window (issue 47): as the offer pass withdraws the offers a closure or a
 * maintenance made impossible, each wait keeps its place in the line. In the caller's
 * transaction, which holds every bike's lock (decision 023: bikes, then the offer rows, then the
 * waits, as the offer pass takes them).
 */
export async function withdrawOffersToLine(tx: Tx, offerIds: number[]): Promise<void> {
  if (offerIds.length === 0) return;
  const list = sql.join(
    offerIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const waits = await offerRows.deleteWithdrawnOffers(tx, sql`o.id in (${list})`);
  if (waits.length === 0) return;
  await tx.execute(sql`update attese a set stato = 'in_attesa'
    where a.id in (select unnest(${`{${waits.join(',')}}`}::int[])) and a.stato = 'offerta'`);
}
