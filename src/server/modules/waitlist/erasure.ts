import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../db/transaction.js';

/*
 * The waits (`attese`) losing their person (issue 23, decision 029): when the person deletes
 * their account, and in the nightly retention. The waitlist owns `attese`; the privacy
 * module calls these.
 */

/**
 * A person deleting their account, in their transaction (after its locks, decision 023): their
 * open waits end (`uscita` at `at`), then every wait of theirs loses its person and free text.
 */
export async function anonymiseWaitsOf(tx: Pick<Tx, 'execute'>, userId: number, at: string): Promise<void> {
  await tx.execute(sql`update attese set stato = 'uscita', ended_at = ${at}::timestamptz
                        where user_id = ${userId} and stato in ('in_attesa', 'offerta')`);
  await tx.execute(sql`update attese set user_id = null, destinazione = null where user_id = ${userId}`);
}

/**
 * The nightly retention's step on waits: a wait that ended before `cutoff` loses its person
 * and free text. One statement; the number of waits changed.
 */
export async function anonymiseWaitsEndedBefore(db: Pick<Db, 'execute'>, cutoff: string): Promise<{ rowCount?: number | null }> {
  return db.execute(sql`
      update attese set user_id = null, destinazione = null
       where user_id is not null and ended_at is not null and ended_at < ${cutoff}::timestamptz`);
}
