import { eq, sql } from 'drizzle-orm';
import type { DamageCategory } from '../../../shared/damage.js';
import { testo } from '../../../shared/i18n/index.js';
import type { TicketPatch } from '../../../shared/schemas/interventi.js';
import { CLOSED_TICKET_STATES, mayAt, type TicketOrigin, type TicketState } from '../../../shared/staff.js';
import type { Tx } from '../../db/transaction.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { SessionUser } from '../../http/auth.js';
import { actingRole } from '../../http/scope.js';
import { writeAudit } from '../audit/index.js';
import { bikeFollowsTickets, lockBike } from '../bikes/index.js';
import type { EncodedPhoto } from './photos.js';
import { interventi, interventiFoto, interventiNote } from './tables.js';

/** A new ticket, as any of its origins opens it. */
export interface NewTicket {
  biciId: number;
  origine: TicketOrigin;
  categoria: DamageCategory;
  descrizione: string;
  segnalatoDa: number | null;
  prenotazioneId?: number | null;
  /** The bike may not be ridden until it is closed: `manutenzione`. */
  nonUtilizzabile: boolean;
  foto?: EncodedPhoto[];
  /** When it was reported (a return's time may be the device's); now if left out. */
  createdAt?: Date;
}

const isClosed = (stato: TicketState) => CLOSED_TICKET_STATES.includes(stato);

async function insertPhotos(tx: Tx, interventoId: number, notaId: number | null, caricataDa: number | null, foto: EncodedPhoto[], now: Date): Promise<void> {
  if (foto.length === 0) return;
  await tx.insert(interventiFoto).values(foto.map((f) => ({ interventoId, notaId, caricataDa, mime: f.mime, dati: f.dati, larghezza: f.larghezza, altezza: f.altezza, createdAt: now })));
}

/** Whether an open ticket of the bike still says `Non utilizzabile`. */
async function keptOut(tx: Tx, biciId: number): Promise<boolean> {
  const { rows } = await tx.execute(sql`select 1 from interventi where bici_id = ${biciId} and chiuso_at is null and non_utilizzabile limit 1`);
  return rows.length > 0;
}

/**
 * Opens a ticket in the caller's transaction (issue 48): the bike locked first (decision 023; a
 * caller that holds it already locks it again for free), the ticket at the bike's sede (its
 * trigger), its photos (encoded before the transaction), and the bike in `manutenzione` when
 * it may not be ridden. Undefined when there is no such bike. The caller tells the sede's
 * workshop after the commit (`tellTicketOpened`).
 */
export async function openTicket(tx: Tx, t: NewTicket, now: Date): Promise<{ id: number; sedeId: number } | undefined> {
  const bike = await lockBike(tx, t.biciId);
  if (!bike) return undefined;
  const [row] = await tx
    .insert(interventi) // triggers: interventi_sede (the bike's sede)
    .values({
      biciId: t.biciId,
      prenotazioneId: t.prenotazioneId ?? null,
      origine: t.origine,
      categoria: t.categoria,
      descrizione: t.descrizione,
      segnalatoDa: t.segnalatoDa,
      nonUtilizzabile: t.nonUtilizzabile,
      createdAt: t.createdAt ?? now,
      updatedAt: now,
    })
    .returning({ id: interventi.id, sedeId: interventi.sedeId });
  await insertPhotos(tx, row!.id, null, t.segnalatoDa, t.foto ?? [], now);
  if (t.nonUtilizzabile) await bikeFollowsTickets(tx, t.biciId, 'fuori_uso', now);
  return row!;
}

/** Whether a booking already reported a problem with its bike at that moment (one ticket each). */
export async function bookingReported(tx: Pick<Tx, 'execute'>, prenotazioneId: number, biciId: number, origine: TicketOrigin): Promise<boolean> {
  const { rows } = await tx.execute(sql`select 1 from interventi where prenotazione_id = ${prenotazioneId} and bici_id = ${biciId} and origine = ${origine}`);
  return rows.length > 0;
}

/** The ticket's row locked, after its bike (decision 023's order); 404 if there is none. */
async function lockTicket(tx: Tx, id: number) {
  const { rows } = await tx.execute<{ bici_id: number }>(sql`select bici_id from interventi where id = ${id}`);
  if (!rows[0]) throw notFound(testo('interventiApi.ticketNotFound'));
  await lockBike(tx, rows[0].bici_id);
  const [row] = await tx.select().from(interventi).where(eq(interventi.id, id)).for('update');
  if (!row) throw notFound(testo('interventiApi.ticketNotFound'));
  return row;
}

/** Who changes a ticket: the session's user, or an admin's actor (the old `Danni da controllare`). */
export type TicketActor = Pick<SessionUser, 'id' | 'email' | 'ruolo' | 'incarichi'>;

/** 404 outside the sede's staff, 403 for its staff without `riparazioni` (a `Portineria`). */
function mustRepairAt(user: TicketActor, sedeId: number): void {
  if (mayAt(user, 'riparazioni', sedeId)) return;
  if (mayAt(user, 'interventi', sedeId)) throw forbidden();
  throw notFound(testo('interventiApi.ticketNotFound'));
}

/** What a patch did that others must hear of after the commit. */
export interface PatchOutcome {
  /** It became `riparata` now: its reporter is told. */
  riparata: boolean;
}

/**
 * `PATCH /api/interventi/{id}` (issue 48): the state, the assignee (a person with `Officina` at
 * its sede, else 400), whether the bike may be ridden, in one transaction: the bike and the
 * ticket locked, the ticket written, the bike following its tickets (`bikeFollowsTickets`), the
 * change audited with the role the actor acted in.
 */
export async function patchTicket(
  tx: Tx,
  user: TicketActor,
  id: number,
  patch: TicketPatch,
  now: Date,
  o: { audit: boolean; openOnly?: boolean } = { audit: true },
): Promise<PatchOutcome> {
  const before = await lockTicket(tx, id);
  mustRepairAt(user, before.sedeId);
  if (o.openOnly && isClosed(before.stato)) throw conflict(testo('bookingsApi.damageResolved'), 'ALREADY_RESOLVED');
  if (patch.assegnatarioId !== undefined && patch.assegnatarioId !== null) {
    const { rows } = await tx.execute(sql`
      select 1 from incarichi c join users u on u.id = c.user_id
       where c.user_id = ${patch.assegnatarioId} and c.sede_id = ${before.sedeId} and c.ruolo = 'officina' and u.attiva`);
    if (rows.length === 0) throw badRequest(testo('interventiApi.assigneeNotWorkshop'), 'NOT_WORKSHOP');
  }
  const stato = patch.stato ?? before.stato;
  const after = {
    stato,
    assegnatarioId: patch.assegnatarioId === undefined ? before.assegnatarioId : patch.assegnatarioId,
    nonUtilizzabile: patch.nonUtilizzabile ?? before.nonUtilizzabile,
    chiusoAt: isClosed(stato) ? (isClosed(before.stato) ? before.chiusoAt : now) : null,
  };
  const changed = after.stato !== before.stato || after.assegnatarioId !== before.assegnatarioId || after.nonUtilizzabile !== before.nonUtilizzabile;
  if (!changed) return { riparata: false };
  await tx.update(interventi).set({ ...after, updatedAt: now }).where(eq(interventi.id, id));
  if (stato === 'non_riparabile') await bikeFollowsTickets(tx, before.biciId, 'non_riparabile', now);
  else if (await keptOut(tx, before.biciId)) await bikeFollowsTickets(tx, before.biciId, 'fuori_uso', now);
  else if (stato === 'riparata' || (before.nonUtilizzabile && !after.nonUtilizzabile)) await bikeFollowsTickets(tx, before.biciId, 'libera', now);
  const shape = (t: { stato: TicketState; assegnatarioId: number | null; nonUtilizzabile: boolean }) => ({
    biciId: before.biciId,
    stato: t.stato,
    assegnatarioId: t.assegnatarioId,
    nonUtilizzabile: t.nonUtilizzabile,
  });
  if (!o.audit) return { riparata: stato === 'riparata' && before.stato !== 'riparata' };
  await writeAudit(
    tx,
    { id: user.id, email: user.email, ruolo: actingRole({ ...user } as SessionUser, 'riparazioni', before.sedeId) ?? 'admin' },
    { action: 'ticket.update', entity: 'ticket', entityId: id, before: shape(before), after: shape(after) },
    now,
  );
  return { riparata: stato === 'riparata' && before.stato !== 'riparata' };
}

/**
 * `POST /api/interventi/{id}/note` (issue 48): a note (text, minutes of work, photos encoded
 * before the transaction) on a ticket of a sede where the author has `riparazioni`.
 */
export async function addNote(tx: Tx, user: SessionUser, id: number, note: { testo: string; minuti: number; foto: EncodedPhoto[] }, now: Date): Promise<void> {
  const ticket = await lockTicket(tx, id);
  mustRepairAt(user, ticket.sedeId);
  const [row] = await tx
    .insert(interventiNote)
    .values({ interventoId: id, autoreId: user.id, testo: note.testo, minuti: note.minuti, createdAt: now })
    .returning({ id: interventiNote.id });
  await insertPhotos(tx, id, row!.id, user.id, note.foto, now);
  await tx.update(interventi).set({ updatedAt: now }).where(eq(interventi.id, id));
}

/**
 * Marks an open ticket `riparata` for the old `Danni da controllare` (`POST /api/admin/danni/{id}/risolta`),
 * through the same patch (the bike follows); a closed one is 409. The caller audits it (`damage.resolve`)
 * and tells the reporter after the commit (`tellRepaired`).
 */
export async function resolveAsRepaired(tx: Tx, user: TicketActor, id: number, now: Date): Promise<PatchOutcome> {
  // The old list's own refusal for an id it does not know, as before tickets.
  const { rows } = await tx.execute(sql`select 1 from interventi where id = ${id}`);
  if (rows.length === 0) throw notFound(testo('bookingsApi.damageNotFound'));
  return patchTicket(tx, user, id, { stato: 'riparata' }, now, { audit: false, openOnly: true });
}
