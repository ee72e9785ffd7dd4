import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../db/transaction.js';

/*
 * The person's traces in the bookings module's other tables (issue 23, decision 029): damage
 * reports (`segnalazioni_danni`) and the ids of queued ride actions (`azioni_offline`). The
 * privacy module calls these, at an account's deletion and in the nightly retention.
 */

/** Damage reports stay for the fleet, without the person (in the deletion's transaction). */
export async function forgetDamageReportsOf(tx: Pick<Tx, 'execute'>, userId: number): Promise<void> {
  await tx.execute(sql`update segnalazioni_danni set user_id = null where user_id = ${userId}`);
}

/** The ids of the person's queued ride actions go (in the deletion's transaction). */
export async function deleteOfflineActionsOf(tx: Pick<Tx, 'execute'>, userId: number): Promise<void> {
  await tx.execute(sql`delete from azioni_offline where user_id = ${userId}`);
}

/**
 * The nightly retention's step on damage reports: one made before `cutoff` loses its person.
 * One statement; the number of reports changed.
 */
export async function forgetDamageReportsBefore(db: Pick<Db, 'execute'>, cutoff: string): Promise<{ rowCount?: number | null }> {
  return db.execute(sql`update segnalazioni_danni set user_id = null where user_id is not null and created_at < ${cutoff}::timestamptz`);
}
