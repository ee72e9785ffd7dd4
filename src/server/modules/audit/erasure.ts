import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';

/*
 * The audit log (`audit_log`, owned by the admin module) rewritten for a person who deleted
 * their account (decision 029). The privacy module decides each entry's new values
 * (privacy/audit-redact.ts, after locking the entries `FOR UPDATE` in id order); this writes them.
 */

/** An entry's values without the person. */
export interface AuditRedaction {
  id: number;
  before: unknown;
  after: unknown;
  actorEmail: string | null;
  soggetto: string | null;
}

/** Writes each entry's new values, one statement each, in the order given (the caller's: id order). */
export async function redactAuditEntries(tx: Pick<Tx, 'execute'>, entries: AuditRedaction[]): Promise<void> {
  for (const entry of entries) {
    await tx.execute(sql`
      update audit_log set before = ${entry.before === null ? null : JSON.stringify(entry.before)}::jsonb,
                           after = ${entry.after === null ? null : JSON.stringify(entry.after)}::jsonb,
                           actor_email = ${entry.actorEmail},
                           soggetto = ${entry.soggetto}
       where id = ${entry.id}`);
  }
}
