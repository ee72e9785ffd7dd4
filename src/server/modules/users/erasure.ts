import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/*
 * The users module's part of the privacy rules (issue 23, decision 029): temporary passwords
 * past their expiry cleared by the nightly retention (the account's row is deleted by
 * store.ts's deleteUserRow, for an admin's delete and the person's own alike).
 */

/** The nightly retention's step: temporary passwords expired at `at` are cleared. One statement. */
export async function clearExpiredTempPasswords(db: Pick<Db, 'execute'>, at: string): Promise<{ rowCount?: number | null }> {
  return db.execute(sql`
    update users set temp_password_hash = null, temp_password_expires_at = null
     where temp_password_expires_at is not null and temp_password_expires_at <= ${at}::timestamptz`);
}
