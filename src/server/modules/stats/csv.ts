import { sql } from 'drizzle-orm';
import { ANONYMOUS_USER_LABEL } from '../../../shared/constants.js';
import type { StatsPeriod } from '../../../shared/schemas/stats.js';
import { sediNames } from '../sedi/index.js';
import { periodRange, type StatsDeps } from './service.js';

/** Columns of the export, in Italian as the staff read them. */
const HEADER = ['ID', 'Data', 'Inizio', 'Fine', 'Utente', 'Email', 'Residente', 'Bici', 'Modello', 'Destinazione', 'Stato', 'Pagamento'];

const PAYMENT_LABEL: Record<string, string> = {
  pending: 'In attesa',
  completed: 'Pagato',
  failed: 'Non riuscito',
  refunded: 'Rimborsato',
};

/**
 * One CSV cell. A text starting with = + - @ (or a tab / carriage return) would be read by
 * a spreadsheet as a formula ("CSV injection"): it is prefixed with an apostrophe. Every cell
 * is quoted, quotes doubled.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Separator `;`: what a spreadsheet set to Italian expects (the comma is the decimal mark there). */
export const CSV_SEPARATOR = ';';

export function csvLine(cells: (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(CSV_SEPARATOR) + '\r\n';
}

/**
 * The period's bookings as CSV (UTF-8 with BOM, for Excel), oldest first, and its file name.
 * With several sedi (issue 47), a last column `Sede` names each booking's; with one, the file is
 * as it was before sedi, byte for byte.
 */
export async function exportCsv(deps: StatsDeps, period: StatsPeriod, only: readonly number[] | null = null): Promise<{ fileName: string; body: string }> {
  const { from, to } = periodRange(deps, period);
  // A staff member's report (issue 48): their sedi's bookings only.
  const inScope = only === null ? sql`true` : sql`p.sede_id = any(array[${sql.join(only.map((id) => sql`${id}`), sql`, `)}]::int[])`;
  const sedi = await sediNames(deps.db);
  const { rows } = await deps.db.execute<{
    id: number;
    data: string;
    inizio: string;
    fine: string;
    nome: string;
    cognome: string;
    email: string;
    residente: boolean;
    numero: string;
    modello: string;
    destinazione: string | null;
    stato: string;
    status: string | null;
    amount: number | null;
    sede_id: number;
  }>(sql`
    select p.id, p.data_prenotazione::text as data, p.orario_inizio as inizio, p.orario_fine as fine,
           coalesce(u.nome, ${ANONYMOUS_USER_LABEL}) as nome, coalesce(u.cognome, '') as cognome,
           coalesce(u.email, '') as email, p.residente, b.numero, b.modello, p.destinazione, p.stato,
           pg.status, pg.amount, p.sede_id
      from prenotazioni p
      -- An anonymous booking (decision 029) stays in the period's rows, without a person.
      left join users u on u.id = p.user_id
      join biciclette b on b.id = p.bici_id
      left join pagamenti pg on pg.prenotazione_id = p.id
     where p.data_prenotazione between ${from}::date and ${to}::date and p.stato <> 'offerta' and ${inScope}
     order by p.data_prenotazione, p.orario_inizio, p.id`);
  let body = '\uFEFF' + csvLine(sedi.several ? [...HEADER, 'Sede'] : HEADER);
  for (const r of rows) {
    const payment = r.status
      ? `${PAYMENT_LABEL[r.status] ?? r.status} ${((r.amount ?? 0) / 100).toFixed(2).replace('.', ',')} €`
      : '';
    const cells = [
      r.id,
      r.data,
      r.inizio,
      r.fine,
      `${r.nome} ${r.cognome}`.trim(),
      r.email,
      r.residente ? 'Sì' : 'No',
      r.numero,
      r.modello,
      r.destinazione,
      r.stato,
      payment,
    ];
    body += csvLine(sedi.several ? [...cells, sedi.names.get(r.sede_id) ?? ''] : cells);
  }
  return { fileName: `prenotazioni_${from}_${to}.csv`, body };
}
