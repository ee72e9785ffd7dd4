import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';

/*
 * The person's traces in the bookings module's other tables (issue 23, decision 029): the ids of
 * queued ride actions (`azioni_offline`). The privacy module calls this at an account's deletion
 * (damage reports are repair tickets now: the interventi module's `ticketsErasure`).
 */

/** The ids of the person's queued ride actions go (in the deletion's transaction). */
export async function deleteOfflineActionsOf(tx: Pick<Tx, 'execute'>, userId: number): Promise<void> {
  await tx.execute(sql`delete from azioni_offline where user_id = ${userId}`);
}
