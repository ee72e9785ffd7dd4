import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../db/transaction.js';

/*
 * The users module's part of the privacy rules (issue 23, decision 029): the account's row
 * deleted at the person's own request, and temporary passwords past their expiry cleared by
 * the nightly retention.
 */

/**
 * Deletes the account's row, in the deletion's transaction (its row is already locked,
 * decision 023). Preferences and push subscriptions go with it (ON DELETE CASCADE).
 */
export async function deleteUserRow(tx: Pick<Tx, 'execute'>, userId: number): Promise<void> {
  await tx.execute(sql`delete from users where id = ${userId}`);
}

/** The nightly retention's step: temporary passwords expired at `at` are cleared. One statement. */
export async function clearExpiredTempPasswords(db: Pick<Db, 'execute'>, at: string): Promise<{ rowCount?: number | null }> {
  return db.execute(sql`
    update users set temp_password_hash = null, temp_password_expires_at = null
     where temp_password_expires_at is not null and temp_password_expires_at <= ${at}::timestamptz`);
}
