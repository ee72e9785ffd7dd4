import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { msg } from '../../../shared/schemas/message.js';
import type { Db } from '../../db/client.js';
import { BIKE_STATES, biciclette } from './tables.js';
import { firstOfEach, parseCsv, type CsvRejection } from '../../lib/csv.js';
import { tShared } from '../../../shared/i18n/current.js';
import { sedi } from '../sedi/tables.js';
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
  /** The sede's name (issue 47); empty or absent: the first open sede. */
  sede: z
    .string()
    .optional()
    .transform((v) => (v ? v.trim() : undefined)),
});

type BikeRow = { line: number; value: z.output<typeof bikeRowSchema> & { sedeId?: number } };

/**
 * The sede named by each row (issue 47), by name whatever its case: an unknown or archived one
 * rejects the row. A bike already there keeps its sede (a move goes through the admin's path,
 * which moves its bookings): a row naming another rejects it too.
 */
async function withSede(db: Db, rows: BikeRow[], rejected: CsvRejection[]): Promise<BikeRow[]> {
  if (!rows.some((r) => r.value.sede)) return rows;
  const { rows: open } = await db.execute<{ id: number; nome: string }>(sql`select id, nome from ${sedi} where archiviata_at is null`);
  const byName = new Map(open.map((s) => [s.nome.trim().toLowerCase(), s]));
  const { rows: existing } = await db.execute<{ numero: string; sede_id: number; nome: string }>(sql`
    select b.numero, b.sede_id, s.nome from ${biciclette} b join ${sedi} s on s.id = b.sede_id`);
  const current = new Map(existing.map((b) => [b.numero, b]));
  const kept: BikeRow[] = [];
  for (const row of rows) {
    const named = row.value.sede;
    if (!named) {
      kept.push(row);
      continue;
    }
    const sede = byName.get(named.toLowerCase());
    const there = current.get(row.value.numero);
    if (!sede) rejected.push({ line: row.line, reason: `sede: ${tShared('sediMovesImport.sedeUnknown', { nome: named })}` });
    else if (there && there.sede_id !== sede.id) rejected.push({ line: row.line, reason: `sede: ${tShared('sediMovesImport.sedeOfExisting', { nome: there.nome })}` });
    else kept.push({ ...row, value: { ...row.value, sedeId: sede.id } });
  }
  return kept;
}

/** Upserts bikes by numero from CSV text (header `numero,modello[,stato][,sede]`). */
export async function importBikes(db: Db, csv: string): Promise<ImportReport> {
  const parsed = parseCsv(csv, { required: ['numero', 'modello'], optional: ['stato', 'sede'] }, bikeRowSchema);
  if (!parsed.ok) throw new MalformedFileError(parsed.error);
  const rejected = [...parsed.rejected];
  const rows = await withSede(db, firstOfEach(parsed.rows, 'numero', (v) => v.numero, rejected), rejected);
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
        // triggers: biciclette_sede_predefinita (no sede named: the first open one)
        .values(
          group.map(({ value }) => ({
            numero: value.numero,
            modello: value.modello,
            stato: value.stato ?? 'disponibile',
            ...(value.sedeId === undefined ? {} : { sedeId: value.sedeId }),
          })),
        )
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
