import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../db/transaction.js';

/*
 * The person's traces in the repair tickets (issue 23, decision 029; issue 48): the tickets they
 * reported stay for the fleet, without the person. The privacy module calls these, at an
 * account's deletion and in the nightly retention.
 */

/** The tickets (and their photos) a person reported lose the person (in the deletion's transaction). */
export async function forgetReporterOf(tx: Pick<Tx, 'execute'>, userId: number): Promise<void> {
  await tx.execute(sql`update interventi set segnalato_da = null where segnalato_da = ${userId}`);
  await tx.execute(sql`update interventi_foto set caricata_da = null where caricata_da = ${userId}`);
}

/**
 * The nightly retention's step on the tickets: one reported before `cutoff` loses its reporter.
 * One statement; the number of tickets changed.
 */
export async function forgetReportersBefore(db: Pick<Db, 'execute'>, cutoff: string): Promise<{ rowCount?: number | null }> {
  return db.execute(sql`update interventi set segnalato_da = null where segnalato_da is not null and created_at < ${cutoff}::timestamptz`);
}
