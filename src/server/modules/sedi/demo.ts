import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import { sedi } from './tables.js';

/**
 * The demo's sedi (issue 47): the first open sede takes the first name, each further name is a
 * new sede. Returns their ids in the order of `names`.
 */
export async function seedDemoSedi(tx: Tx, names: readonly [string, ...string[]]): Promise<number[]> {
  const [first, ...others] = names;
  const { rows } = await tx.execute<{ id: number }>(
    sql`update ${sedi} set nome = ${first}, updated_at = now()
         where id = (select min(id) from ${sedi} where archiviata_at is null) returning id`,
  );
  const ids = rows.map((r) => r.id);
  for (const nome of others) {
    const made = await tx.insert(sedi).values({ nome }).returning({ id: sedi.id });
    ids.push(made[0]!.id);
  }
  return ids;
}
