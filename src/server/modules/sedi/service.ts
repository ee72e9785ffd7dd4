import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { SedeDto } from '../../../shared/schemas/sedi.js';
import { type Sede, sedi } from './tables.js';

type Reader = Pick<Db, 'select' | 'execute'>;

export const sedeDto = (s: Sede): SedeDto => ({
  id: s.id,
  nome: s.nome,
  indirizzo: s.indirizzo,
  notaRastrelliera: s.notaRastrelliera,
  archiviata: s.archiviataAt !== null,
});

/** Every sede, the open ones first, each in the order it was made (the first is the install's first). */
export async function listSedi(db: Reader): Promise<SedeDto[]> {
  const rows = await db
    .select()
    .from(sedi)
    .orderBy(sql`${sedi.archiviataAt} is not null`, asc(sedi.id));
  return rows.map(sedeDto);
}

/**
 * The open sedi's names by id, and whether there are several: what a notice, a card or a PDF
 * needs to name a booking's sede only when the install has more than one (issue 47).
 */
export async function sediNames(db: Pick<Db, 'execute'>): Promise<{ several: boolean; names: Map<number, string> }> {
  const { rows } = await db.execute<{ id: number; nome: string; aperta: boolean }>(
    sql`select id, nome, archiviata_at is null as aperta from ${sedi} order by id`,
  );
  return { several: rows.filter((r) => r.aperta).length > 1, names: new Map(rows.map((r) => [r.id, r.nome])) };
}

export type SediNames = Awaited<ReturnType<typeof sediNames>>;

/** Nothing to name: what a notice reads when nothing was read (no row to tell). */
export const NO_SEDI: SediNames = { several: false, names: new Map() };

/**
 * A bike's number as a notice tells it (issue 47): with several open sedi, its sede's name after
 * it (`07 · Residenza Nord`, read as `Bici n. 07 · Residenza Nord`); with one, the number alone,
 * so that every text is the same as before sedi.
 */
export function bikeAtSede(names: SediNames, numero: string, sedeId: number | null | undefined): string {
  const nome = names.several && sedeId != null ? names.names.get(sedeId) : undefined;
  return nome === undefined ? numero : `${numero} · ${nome}`;
}

/** The open sede with this id, or null (archived or unknown). */
export async function openSede(db: Pick<Db, 'execute'>, id: number): Promise<{ id: number; nome: string } | null> {
  const { rows } = await db.execute<{ id: number; nome: string }>(sql`select id, nome from ${sedi} where id = ${id} and archiviata_at is null`);
  return rows[0] ?? null;
}
