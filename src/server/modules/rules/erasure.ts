import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';

/*
 * Who saved the rules last (`regole.updated_by`, shown by the rules screen) is an email: when
 * that person deletes their account (decision 029), it becomes the privacy module's marker.
 */

/** In the deletion's transaction: `updated_by` becomes `marker` when it is one of `emails` (lower case). */
export async function replaceRulesEditor(tx: Pick<Tx, 'execute'>, emails: string[], marker: string): Promise<void> {
  // The list goes as one JSON parameter (a JS array would be spread into a parenthesised list).
  const emailList = sql`array(select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))`;
  // triggers: NOTIFY bicielis_regole
  await tx.execute(sql`update regole set updated_by = ${marker} where lower(updated_by) = any(${emailList})`);
}
