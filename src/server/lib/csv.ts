import { parse } from 'csv-parse/sync';
import type { z } from 'zod';

export interface CsvRejection {
  line: number;
  reason: string;
}

export type CsvParseResult<T> =
  | { ok: true; rows: { line: number; value: T }[]; rejected: CsvRejection[] }
  | { ok: false; error: string };

/**
 * Parses a CSV whose header must contain `required` columns (and may contain `optional`
 * ones), validating each row with `schema`. A file that cannot be parsed, or whose header
 * is wrong, is malformed as a whole; a row that fails validation is rejected with its
 * line number (counting the header as line 1) and the reason.
 */
export function parseCsv<S extends z.ZodType>(
  text: string,
  columns: { required: readonly string[]; optional?: readonly string[] },
  schema: S,
): CsvParseResult<z.output<S>> {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      skip_empty_lines: true,
      trim: true,
      relax_column_count: false,
    }) as string[][];
  } catch (err) {
    return { ok: false, error: `CSV non leggibile: ${(err as Error).message}` };
  }
  const [header, ...body] = records;
  if (!header) return { ok: false, error: 'Il file è vuoto' };
  const known = new Set([...columns.required, ...(columns.optional ?? [])]);
  const missing = columns.required.filter((c) => !header.includes(c));
  const unknown = header.filter((c) => !known.has(c));
  if (missing.length > 0 || unknown.length > 0) {
    const parts = [];
    if (missing.length) parts.push(`colonne mancanti: ${missing.join(', ')}`);
    if (unknown.length) parts.push(`colonne sconosciute: ${unknown.join(', ')}`);
    return {
      ok: false,
      error: `Intestazione non valida (${parts.join('; ')}). Attesa: ${[...columns.required, ...(columns.optional ?? []).map((c) => `[${c}]`)].join(',')}`,
    };
  }
  const rows: { line: number; value: z.output<S> }[] = [];
  const rejected: CsvRejection[] = [];
  body.forEach((cells, i) => {
    const line = i + 2;
    const record = Object.fromEntries(header.map((h, j) => [h, cells[j] ?? '']));
    const parsed = schema.safeParse(record);
    if (parsed.success) rows.push({ line, value: parsed.data });
    else
      rejected.push({
        line,
        reason: parsed.error.issues.map((iss) => `${iss.path.join('.') || 'riga'}: ${iss.message}`).join('; '),
      });
  });
  return { ok: true, rows, rejected };
}

/** The rows whose `key` (named `name`) comes first in the file; a later one is added to `rejected`. */
export function firstOfEach<T>(rows: { line: number; value: T }[], name: string, key: (value: T) => string, rejected: CsvRejection[]) {
  const seen = new Map<string, number>();
  return rows.filter(({ line, value }) => {
    const first = seen.get(key(value));
    if (first !== undefined) {
      rejected.push({ line, reason: `${name} ${key(value)} già presente alla riga ${first}` });
      return false;
    }
    seen.set(key(value), line);
    return true;
  });
}
