import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { tShared } from '../../../shared/i18n/current.js';
import { msg } from '../../../shared/schemas/message.js';
import { normaliseSigla, SIGLA_PATTERN } from '../../../shared/sigla.js';
import type { Db } from '../../db/client.js';
import { residenti } from './tables.js';
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

/**
 * Upserts resident codes from CSV text (header `sigla,nome,cognome,corsoDiStudi,annoCorso,attivo`).
 * A malformed file throws MalformedFileError and changes nothing; invalid rows are
 * rejected one by one, valid ones written in a single transaction.
 */
export async function importResidents(db: Db, csv: string): Promise<ImportReport> {
  const parsed = parseCsv(
    csv,
    { required: ['sigla', 'nome', 'cognome', 'corsoDiStudi', 'annoCorso', 'attivo'] },
    residentRowSchema,
  );
  if (!parsed.ok) throw new MalformedFileError(parsed.error);
  const rejected = [...parsed.rejected];
  const rows = firstOfEach(parsed.rows, 'sigla', (v) => v.sigla, rejected);
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
