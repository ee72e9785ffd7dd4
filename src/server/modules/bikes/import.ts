import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { msg } from '../../../shared/schemas/message.js';
import type { Db } from '../../db/client.js';
import { BIKE_STATES, biciclette } from './tables.js';
import { firstOfEach, parseCsv } from '../../lib/csv.js';
import { MalformedFileError, type ImportReport } from '../residents/index.js';
import { runTransaction } from '../../db/transaction.js';

export const bikeRowSchema = z.object({
  numero: z.string().min(1, msg('bikesImport.numberRequired')).max(20, msg('bikesImport.numberTooLong')),
  modello: z.string().min(1, msg('bikesImport.modelRequired')).max(100),
  stato: z
    .string()
    .optional()
    .transform((v) => (v ? v.toLowerCase() : undefined))
    .pipe(z.enum(BIKE_STATES, msg('bikesImport.stateInvalid', { stati: BIKE_STATES.join(', ') })).optional()),
});

/** Upserts bikes by numero from CSV text (header `numero,modello[,stato]`). */
export async function importBikes(db: Db, csv: string): Promise<ImportReport> {
  const parsed = parseCsv(csv, { required: ['numero', 'modello'], optional: ['stato'] }, bikeRowSchema);
  if (!parsed.ok) throw new MalformedFileError(parsed.error);
  const rejected = [...parsed.rejected];
  const rows = firstOfEach(parsed.rows, 'numero', (v) => v.numero, rejected);
  let inserted = 0;
  let updated = 0;
  const withState = rows.filter((r) => r.value.stato);
  const withoutState = rows.filter((r) => !r.value.stato);
  await runTransaction(db, async (tx) => {
    // Counted afresh by each attempt (a retried transaction runs this body again).
    inserted = 0;
    updated = 0;
    for (const [group, setState] of [[withState, true], [withoutState, false]] as const) {
      if (group.length === 0) continue;
      const result = await tx
        .insert(biciclette) // triggers: disponibilita_modifiche, tempo_liberato, NOTIFY bicielis_tempo_liberato
        .values(group.map(({ value }) => ({ numero: value.numero, modello: value.modello, stato: value.stato ?? 'disponibile' })))
        .onConflictDoUpdate({
          target: biciclette.numero,
          // A row without stato leaves an existing bike's state as it is.
          set: setState
            ? // A stated state is the operator's choice: the life cycle will not undo it (decision 014).
              { modello: sql`excluded.modello`, stato: sql`excluded.stato`, statoAuto: false, updatedAt: sql`now()` }
            : { modello: sql`excluded.modello`, updatedAt: sql`now()` },
        })
        // xmax = 0 only for freshly inserted rows: tells inserts from updates.
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      const fresh = result.filter((r) => r.inserted).length;
      inserted += fresh;
      updated += result.length - fresh;
    }
  });
  rejected.sort((a, b) => a.line - b.line);
  return { inserted, updated, rejected };
}
