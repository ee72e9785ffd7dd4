import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { tShared } from '../../../shared/i18n/current.js';
import { msg } from '../../../shared/schemas/message.js';
import { normaliseSigla, SIGLA_PATTERN } from '../../../shared/sigla.js';
import type { Db } from '../../db/client.js';
import { residenti } from './tables.js';
import { sedi } from '../sedi/tables.js';
import { firstOfEach, parseCsv, type CsvRejection } from '../../lib/csv.js';
import { runTransaction, type Tx } from '../../db/transaction.js';

const boolCell = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'si', 'sì', 'no'], msg('residentsImport.activeInvalid')))
  .transform((v) => ['true', '1', 'si', 'sì'].includes(v));

export const residentRowSchema = z.object({
  sigla: z
    .string()
    .transform(normaliseSigla)
    .pipe(z.string().regex(SIGLA_PATTERN, msg('residentsImport.siglaInvalid'))),
  nome: z.string().min(1, msg('residentsImport.nameRequired')).max(100),
  cognome: z.string().min(1, msg('residentsImport.surnameRequired')).max(100),
  corsoDiStudi: z
    .string()
    .max(200)
    .transform((v) => v || null),
  annoCorso: z
    .string()
    .transform((v, ctx) => {
      if (v === '') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 10) {
        ctx.addIssue({ code: 'custom', message: tShared('residentsImport.yearInvalid') });
        return z.NEVER;
      }
      return n;
    }),
  attivo: boolCell,
  /** The resident's sede by name, any case (issue 47); the column is optional, an empty cell is none. */
  sede: z
    .string()
    .max(80)
    .transform((v) => v.trim() || null)
    .optional(),
});

export interface ImportReport {
  inserted: number;
  updated: number;
  rejected: CsvRejection[];
}

/** Resident codes as given (the demo's); a code already there is kept as it is. */
export async function insertResidentCodes(tx: Tx, rows: (typeof residenti.$inferInsert)[]): Promise<void> {
  await tx.insert(residenti).values(rows).onConflictDoNothing();
}

export class MalformedFileError extends Error {}

type ResidentRow = z.output<typeof residentRowSchema>;

/**
 * Each row's `sede` name as the id of an open sede (issue 47), case and spaces aside; a name no
 * open sede has rejects its row, in the reader's language.
 */
async function withSedi(db: Db, rows: { line: number; value: ResidentRow }[], rejected: CsvRejection[]) {
  const named = rows.some((r) => r.value.sede);
  const ids = new Map<string, number>();
  if (named) {
    const { rows: open } = await db.execute<{ id: number; nome: string }>(sql`select id, nome from ${sedi} where archiviata_at is null`);
    for (const s of open) ids.set(s.nome.trim().toLowerCase(), s.id);
  }
  return rows.flatMap(({ line, value: { sede, ...code } }): { line: number; value: typeof residenti.$inferInsert }[] => {
    if (sede === undefined || sede === null) return [{ line, value: { ...code, sedeId: null } }];
    const sedeId = ids.get(sede.toLowerCase());
    if (sedeId === undefined) {
      rejected.push({ line, reason: `sede: ${tShared('sediPeople.unknownSede', { nome: sede })}` });
      return [];
    }
    return [{ line, value: { ...code, sedeId } }];
  });
}

/**
 * Upserts resident codes from CSV text (header `sigla,nome,cognome,corsoDiStudi,annoCorso,attivo`).
 * A malformed file throws MalformedFileError and changes nothing; invalid rows are
 * rejected one by one, valid ones written in a single transaction.
 */
export async function importResidents(db: Db, csv: string): Promise<ImportReport> {
  const parsed = parseCsv(
    csv,
    { required: ['sigla', 'nome', 'cognome', 'corsoDiStudi', 'annoCorso', 'attivo'], optional: ['sede'] },
    residentRowSchema,
  );
  if (!parsed.ok) throw new MalformedFileError(parsed.error);
  const rejected = [...parsed.rejected];
  const rows = await withSedi(db, firstOfEach(parsed.rows, 'sigla', (v) => v.sigla, rejected), rejected);
  // Without the column a code keeps its sede; with it, an empty cell clears it.
  const sedeColumn = parsed.rows.some((r) => r.value.sede !== undefined);
  let inserted = 0;
  let updated = 0;
  if (rows.length > 0) {
    await runTransaction(db, async (tx) => {
      const result = await tx
        .insert(residenti)
        .values(rows.map((r) => r.value))
        .onConflictDoUpdate({
          target: residenti.sigla,
          set: {
            nome: sql`excluded.nome`,
            cognome: sql`excluded.cognome`,
            corsoDiStudi: sql`excluded.corso_di_studi`,
            annoCorso: sql`excluded.anno_corso`,
            attivo: sql`excluded.attivo`,
            ...(sedeColumn ? { sedeId: sql`excluded.sede_id` } : {}),
            updatedAt: sql`now()`,
          },
        })
        // xmax = 0 only for freshly inserted rows: tells inserts from updates.
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      inserted = result.filter((r) => r.inserted).length;
      updated = result.length - inserted;
    });
  }
  rejected.sort((a, b) => a.line - b.line);
  return { inserted, updated, rejected };
}
