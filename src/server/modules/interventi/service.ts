import { type SQL, sql } from 'drizzle-orm';
import type { TicketDto, TicketListState, TicketNoteDto, TicketPersonDto, TicketPhotoDto, TicketSummaryDto } from '../../../shared/schemas/interventi.js';
import { mayAt } from '../../../shared/staff.js';
import type { BikeStato } from '../../../shared/schemas/booking.js';
import type { DamageCategory } from '../../../shared/damage.js';
import type { TicketOrigin, TicketState } from '../../../shared/staff.js';
import type { Db } from '../../db/client.js';
import { namedStatement, type NamedStatement } from '../../db/prepared.js';
import type { SessionUser } from '../../http/auth.js';

/** A database handle or a transaction: what the reads need. */
export type TicketReader = Pick<Db, 'execute'>;

/** The address of a ticket's photo (its bytes: `GET /api/interventi/{id}/foto/{fotoId}`). */
export const photoUrl = (ticketId: number, fotoId: number) => `/api/interventi/${ticketId}/foto/${fotoId}`;

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

interface SummaryRow extends Record<string, unknown> {
  id: number;
  sede_id: number;
  bici_id: number;
  numero: string;
  modello: string;
  bici_stato: BikeStato;
  categoria: DamageCategory;
  descrizione: string;
  origine: TicketOrigin;
  stato: TicketState;
  non_utilizzabile: boolean;
  segnalato_da: number | null;
  segnalato_nome: string | null;
  assegnatario_id: number | null;
  assegnatario_nome: string | null;
  created_at: Date | string;
  chiuso_at: Date | string | null;
  foto_id: number | null;
  foto_larghezza: number | null;
  foto_altezza: number | null;
}

const person = (id: number | null, nome: string | null): TicketPersonDto | null => (id === null ? null : { id, nome: nome ?? '' });

/** The columns of a summary, from `interventi i` joined to its bike `b`, reporter `s` and assignee `a`. */
const SUMMARY = sql`
  select i.id, i.sede_id, i.bici_id, b.numero, b.modello, b.stato as bici_stato, i.categoria, i.descrizione, i.origine,
         i.stato, i.non_utilizzabile, i.segnalato_da, trim(s.nome || ' ' || s.cognome) as segnalato_nome,
         i.assegnatario_id, trim(a.nome || ' ' || a.cognome) as assegnatario_nome, i.created_at, i.chiuso_at,
         f.id as foto_id, f.larghezza as foto_larghezza, f.altezza as foto_altezza
    from interventi i
    join biciclette b on b.id = i.bici_id
    left join users s on s.id = i.segnalato_da
    left join users a on a.id = i.assegnatario_id
    left join lateral (select id, larghezza, altezza from interventi_foto
                        where intervento_id = i.id and nota_id is null order by id limit 1) f on true`;

function summaryOf(r: SummaryRow): TicketSummaryDto {
  return {
    id: r.id,
    sedeId: r.sede_id,
    biciId: r.bici_id,
    biciNumero: r.numero,
    biciModello: r.modello,
    biciStato: r.bici_stato,
    categoria: r.categoria,
    descrizione: r.descrizione,
    origine: r.origine,
    stato: r.stato,
    nonUtilizzabile: r.non_utilizzabile,
    segnalatoDa: person(r.segnalato_da, r.segnalato_nome),
    assegnatario: person(r.assegnatario_id, r.assegnatario_nome),
    createdAt: iso(r.created_at)!,
    chiusoAt: iso(r.chiuso_at),
    miniatura: r.foto_id === null ? null : { id: r.foto_id, url: photoUrl(r.id, r.foto_id), larghezza: r.foto_larghezza!, altezza: r.foto_altezza! },
  };
}

/** The most a list answers (newest first). */
export const TICKET_LIST_MAX = 500;

/**
 * The list's statements, one a state (the workshop's list and the /admin render open `aperti` at
 * every visit): fixed text, planned once per connection (issue 51: 0.4 ms of planning for 0.05 ms
 * of running). The sedi (null: every one) and the bike (null: any) are values; the state stays in
 * the text, so the open list's plan keeps the partial index of open tickets.
 */
const listStatement = (stato: TicketListState, state: SQL) =>
  namedStatement<SummaryRow>(
    `tickets_${stato}`,
    () => sql`${SUMMARY}
     where ${state}
       and (${sql.placeholder('sedi')}::int[] is null or i.sede_id = any(${sql.placeholder('sedi')}::int[]))
       and (${sql.placeholder('bici')}::int is null or i.bici_id = ${sql.placeholder('bici')}::int)
     order by i.created_at desc, i.id desc limit ${sql.raw(String(TICKET_LIST_MAX))}`,
  );
const LIST_STATEMENTS: Record<TicketListState, NamedStatement<SummaryRow>> = {
  aperti: listStatement('aperti', sql`i.chiuso_at is null`),
  chiusi: listStatement('chiusi', sql`i.chiuso_at is not null`),
  tutti: listStatement('tutti', sql`true`),
};

/**
 * `GET /api/interventi`: the tickets of `sedi` (null: every sede), newest first, those open
 * (`aperti`: aperto, in_lavorazione), closed, or all; of one bike if asked.
 */
export async function listTickets(db: Db, sedi: number[] | null, q: { stato: TicketListState; biciId?: number | undefined }): Promise<TicketSummaryDto[]> {
  const rows = await LIST_STATEMENTS[q.stato].run(db, { sedi, bici: q.biciId ?? null });
  return rows.map(summaryOf);
}

/** One ticket's summary, or undefined. */
export async function ticketSummary(db: TicketReader, id: number): Promise<TicketSummaryDto | undefined> {
  const { rows } = await db.execute<SummaryRow>(sql`${SUMMARY} where i.id = ${id}`);
  return rows[0] && summaryOf(rows[0]);
}

/** Who may see a ticket: staff with `interventi` at its sede (or an admin), or the person who reported it. */
export const maySee = (user: SessionUser, t: { sedeId: number; segnalatoDa: TicketPersonDto | null }): boolean =>
  mayAt(user, 'interventi', t.sedeId) || t.segnalatoDa?.id === user.id;

/**
 * A ticket `user` may see, in full (`GET /api/interventi/{id}`'s answer, and the server's render of
 * its page: decision 070); undefined when there is none they may see, as if it did not exist.
 */
export async function visibleTicket(db: TicketReader, user: SessionUser, id: number): Promise<TicketDto | undefined> {
  const summary = await ticketSummary(db, id);
  if (!summary || !maySee(user, summary)) return undefined;
  return ticketDetail(db, summary, mayAt(user, 'interventi', summary.sedeId));
}

/** The people with `Officina` at a sede, active, by name: who may take its tickets. */
export async function workshopOf(db: TicketReader, sedeId: number): Promise<TicketPersonDto[]> {
  const { rows } = await db.execute<{ id: number; nome: string }>(sql`
    select u.id, trim(u.nome || ' ' || u.cognome) as nome from users u
     where u.attiva and exists (select 1 from incarichi c where c.user_id = u.id and c.sede_id = ${sedeId} and c.ruolo = 'officina')
     order by u.cognome, u.nome, u.id`);
  return rows.map((r) => ({ id: r.id, nome: r.nome }));
}

/**
 * `GET /api/interventi/{id}`'s answer: the summary, the report's photos, the notes in time order
 * with theirs, the minutes' sum, and (for staff) who may take it.
 */
export async function ticketDetail(db: TicketReader, summary: TicketSummaryDto, staff: boolean): Promise<TicketDto> {
  const photos = await db.execute<{ id: number; nota_id: number | null; larghezza: number; altezza: number }>(
    sql`select id, nota_id, larghezza, altezza from interventi_foto where intervento_id = ${summary.id} order by id`,
  );
  const notes = await db.execute<{ id: number; autore_id: number | null; autore_nome: string | null; testo: string; minuti: number; created_at: Date | string }>(sql`
    select n.id, n.autore_id, trim(u.nome || ' ' || u.cognome) as autore_nome, n.testo, n.minuti, n.created_at
      from interventi_note n left join users u on u.id = n.autore_id
     where n.intervento_id = ${summary.id} order by n.created_at, n.id`);
  const photoDto = (p: { id: number; larghezza: number; altezza: number }): TicketPhotoDto => ({
    id: p.id,
    url: photoUrl(summary.id, p.id),
    larghezza: p.larghezza,
    altezza: p.altezza,
  });
  const note: TicketNoteDto[] = notes.rows.map((n) => ({
    id: n.id,
    autore: person(n.autore_id, n.autore_nome),
    testo: n.testo,
    minuti: n.minuti,
    createdAt: iso(n.created_at)!,
    foto: photos.rows.filter((p) => p.nota_id === n.id).map(photoDto),
  }));
  return {
    ...summary,
    foto: photos.rows.filter((p) => p.nota_id === null).map(photoDto),
    note,
    minutiTotali: note.reduce((sum, n) => sum + n.minuti, 0),
    assegnabili: staff ? await workshopOf(db, summary.sedeId) : [],
  };
}

/** A photo's bytes and type, if it belongs to the ticket. */
export async function photoBytes(db: TicketReader, ticketId: number, fotoId: number): Promise<{ mime: string; dati: Buffer } | undefined> {
  const { rows } = await db.execute<{ mime: string; dati: Buffer }>(
    sql`select mime, dati from interventi_foto where id = ${fotoId} and intervento_id = ${ticketId}`,
  );
  return rows[0];
}
