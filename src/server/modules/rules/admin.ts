import { eq, sql, type SQL } from 'drizzle-orm';
import type { AdminUserDto } from '../../../shared/schemas/admin.js';
import type { BookingDto } from '../../../shared/schemas/booking.js';
import type {
  AdminBookingRequest,
  AffectedBookingDto,
  ClosureDto,
  ClosureOutcomeDto,
  ClosureRequest,
  MaintenanceDto,
  MaintenanceOutcomeDto,
  MaintenanceRequest,
  PublicRulesDto,
  RulesDto,
  RulesUpdate,
} from '../../../shared/schemas/rules.js';
import { zonedClock, zonedInstant, zonedToday } from '../../../shared/time.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { writeAudit, type Actor } from '../admin/audit.js';
import type { AdminDeps } from '../admin/deps.js';
import { bookingAsOf, bringLifecycleUpToDate, P_COLUMNS } from '../bookings/lifecycle.js';
import { createBooking } from '../bookings/service.js';
import { refundBookingPayment } from '../payments/settle.js';
import { toPublicUser } from '../users/public-user.js';
import { sessionUserColumns } from '../auth/sessions.js';
import { bookingMovedEmail, closureCancelledEmail, deskBookingEmail, maintenanceCancelledEmail } from './emails.js';
import { suspensionOf } from './fair-use.js';
import { currentRules, lifecycleMinutes, loadRules, type Rules } from './store.js';

export const MSG_CLOSURE_NOT_FOUND = 'Chiusura non trovata';
export const MSG_MAINTENANCE_NOT_FOUND = 'Manutenzione non trovata';
export const MSG_MAINTENANCE_OVERLAP = 'Questa bici ha già una manutenzione programmata in quel periodo';

const rulesDto = (r: Rules): RulesDto => ({
  orari: r.orari,
  durataMassimaMinuti: r.durataMassimaMinuti,
  prenotazioniSettimanaliMax: r.prenotazioniSettimanaliMax,
  preavvisoMinimoMinuti: r.preavvisoMinimoMinuti,
  orizzonteGiorni: r.orizzonteGiorni,
  attesaPagamentoMinuti: r.attesaPagamentoMinuti,
  mancatoRitiroMinuti: r.mancatoRitiroMinuti,
  offertaMinuti: r.offertaMinuti,
  conservazioneMesi: r.conservazioneMesi,
  sospensione: r.sospensione,
  updatedAt: r.updatedAt.toISOString(),
  updatedBy: r.updatedBy,
});

/** GET /api/admin/regole — read from the database, not the cache: the screen shows what is stored. */
export async function getRules(deps: Pick<AdminDeps, 'db'>): Promise<RulesDto> {
  return rulesDto(await loadRules(deps.db));
}

/** PUT /api/admin/regole — the whole set, audited before/after; every process hears of it (NOTIFY). */
export async function updateRules(deps: AdminDeps, actor: Actor, input: RulesUpdate): Promise<RulesDto> {
  const now = deps.clock.now();
  const after = await runTransaction(deps.db, async (tx) => {
    await tx.execute(sql`select 1 from regole where id = 1 for update`);
    const before = await loadRules(tx);
    const s = input.sospensione;
    await tx.execute(sql`
      update regole set orari = ${JSON.stringify(input.orari)}::jsonb,
             durata_massima_minuti = ${input.durataMassimaMinuti},
             prenotazioni_settimanali_max = ${input.prenotazioniSettimanaliMax},
             preavviso_minimo_minuti = ${input.preavvisoMinimoMinuti},
             orizzonte_giorni = ${input.orizzonteGiorni},
             attesa_pagamento_minuti = ${input.attesaPagamentoMinuti},
             mancato_ritiro_minuti = ${input.mancatoRitiroMinuti},
             offerta_minuti = ${input.offertaMinuti},
             conservazione_mesi = coalesce(${input.conservazioneMesi ?? null}::integer, conservazione_mesi),
             sospensione_soglia = ${s?.soglia ?? null},
             sospensione_finestra_giorni = ${s?.finestraGiorni ?? null},
             sospensione_giorni = ${s?.giorni ?? null},
             updated_at = ${now.toISOString()}::timestamptz,
             updated_by = ${actor.email}
       where id = 1`);
    const after = await loadRules(tx);
    await writeAudit(tx, actor, { action: 'rules.update', entity: 'rules', entityId: 1, before: rulesDto(before), after: rulesDto(after) }, now);
    return after;
  });
  return rulesDto(after);
}

/** GET /api/regole — what the booking form needs, with the user's own suspension. */
export async function publicRules(deps: { db: AdminDeps['db']; clock: AdminDeps['clock']; config: Pick<AdminDeps['config'], 'timeZone'> }, userId: number): Promise<PublicRulesDto> {
  const rules = await currentRules(deps.db);
  const now = deps.clock.now();
  const today = zonedToday(now, deps.config.timeZone);
  return {
    orari: rules.orari,
    durataMassimaMinuti: rules.durataMassimaMinuti,
    preavvisoMinimoMinuti: rules.preavvisoMinimoMinuti,
    orizzonteGiorni: rules.orizzonteGiorni,
    prenotazioniSettimanaliMax: rules.prenotazioniSettimanaliMax,
    offertaMinuti: rules.offertaMinuti,
    chiusure: rules.chiusure.filter((c) => c.al >= today).map(({ dal, al, motivo }) => ({ dal, al, motivo })),
    sospensione: await suspensionOf(deps.db, userId, rules, now),
  };
}

// ---------------------------------------------------------------------------------------------
// Closures

interface AffectedRow extends Record<string, unknown> {
  id: number;
  user_id: number;
  nome: string;
  cognome: string;
  email: string;
  bici_id: number;
  numero: string;
  modello: string;
  data_prenotazione: string;
  orario_inizio: string;
  orario_fine: string;
  inizio: Date | string;
  fine: Date | string;
  pagata: boolean;
}

const affectedColumns = sql`p.id, p.user_id, u.nome, u.cognome, u.email, p.bici_id, b.numero, b.modello,
  p.data_prenotazione::text as data_prenotazione, p.orario_inizio, p.orario_fine, p.inizio, p.fine,
  exists (select 1 from pagamenti pay where pay.prenotazione_id = p.id and pay.status = 'completed') as pagata`;

const affectedDto = (r: AffectedRow, nuovaBiciNumero?: string | null): AffectedBookingDto => ({
  id: r.id,
  utente: `${r.nome} ${r.cognome}`.trim(),
  email: r.email,
  biciNumero: r.numero,
  dataPrenotazione: r.data_prenotazione,
  orarioInizio: r.orario_inizio,
  orarioFine: r.orario_fine,
  pagata: r.pagata,
  ...(nuovaBiciNumero !== undefined ? { nuovaBiciNumero } : {}),
});

const noticeOf = (r: AffectedRow) => ({
  email: r.email,
  nome: r.nome,
  biciNumero: r.numero,
  dataPrenotazione: r.data_prenotazione,
  orarioInizio: r.orario_inizio,
  orarioFine: r.orario_fine,
});

/**
 * Locks every bike, in id order: the first lock of a closure or a planned maintenance, as the
 * bike's lock is the first of a booking (decisions 023, 024). A booking being made waits, then
 * sees the closure or maintenance; one made before is seen by the statement after this lock.
 */
async function lockFleet(tx: Tx): Promise<void> {
  await tx.execute(sql`select id from biciclette order by id for no key update`);
}

/** The active bookings not picked up yet whose day lies in [dal, al]. */
/** `voidNow`: a preview's condition (decision 035) leaving out the bookings the life cycle would release. */
function bookingsInClosure(tx: Pick<Tx, 'execute'>, dal: string, al: string, lock: boolean, voidNow: SQL = sql`false`) {
  return tx.execute<AffectedRow>(sql`
    select ${affectedColumns}
      from prenotazioni p join users u on u.id = p.user_id join biciclette b on b.id = p.bici_id
      left join pagamenti pay on pay.prenotazione_id = p.id
     where p.stato = 'attiva' and p.ritirata_at is null and p.data_prenotazione between ${dal}::date and ${al}::date
       and not ${voidNow}
     order by p.inizio, p.id
     ${lock ? sql`for update of p` : sql``}`);
}

/** A preview reads as of now (decision 035): the bookings the life cycle would release are left out. */
async function voidNow(deps: Pick<AdminDeps, 'db' | 'clock'>): Promise<SQL> {
  return bookingAsOf(P_COLUMNS, deps.clock.now().toISOString(), lifecycleMinutes(await currentRules(deps.db))).void;
}

function closureInput(deps: Pick<AdminDeps, 'clock' | 'config'>, input: ClosureRequest) {
  const today = zonedToday(deps.clock.now(), deps.config.timeZone);
  if (input.al < today) throw badRequest('La chiusura è già passata', 'CLOSURE_IN_PAST', { fields: { al: 'Data passata' } });
  return { dal: input.dal, al: input.al, motivo: input.motivo.trim() };
}

/** POST /api/admin/chiusure/anteprima — the bookings a closure would cancel, nothing changed. */
export async function previewClosure(deps: AdminDeps, input: ClosureRequest): Promise<ClosureOutcomeDto> {
  const c = closureInput(deps, input);
  const { rows } = await bookingsInClosure(deps.db, c.dal, c.al, false, await voidNow(deps));
  return { chiusura: null, cancellate: rows.map((r) => affectedDto(r)) };
}

/**
 * POST /api/admin/chiusure — the closure, and its bookings cancelled (reason `chiusura`), the
 * paid ones refunded (a failed refund: 502, nothing changes), each user emailed after the commit.
 */
export async function createClosure(deps: AdminDeps, actor: Actor, input: ClosureRequest): Promise<ClosureOutcomeDto> {
  await bringLifecycleUpToDate(deps);
  const c = closureInput(deps, input);
  const now = deps.clock.now();
  const done = await runTransaction(deps.db, async (tx) => {
    await lockFleet(tx);
    const { rows: created } = await tx.execute<{ id: number; created_at: Date | string }>(sql`
      insert into chiusure (dal, al, motivo, created_by, created_at)
      values (${c.dal}::date, ${c.al}::date, ${c.motivo}, ${actor.id}, ${now.toISOString()}::timestamptz)
      returning id, created_at`);
    const closure: ClosureDto = { id: created[0]!.id, ...c, createdAt: new Date(created[0]!.created_at).toISOString() };
    const { rows } = await bookingsInClosure(tx, c.dal, c.al, true);
    const refunded = await cancelAll(deps, tx, rows, 'chiusura', now);
    await writeAudit(
      tx,
      actor,
      { action: 'closure.create', entity: 'closure', entityId: closure.id, after: { ...closure, cancellate: rows.map((r) => r.id) } },
      now,
    );
    return { closure, rows, refunded };
  });
  for (const r of done.rows) {
    deps.mailer.sendInBackground(closureCancelledEmail(noticeOf(r), done.closure, done.refunded.has(r.id), deps.config.publicUrl));
  }
  return { chiusura: done.closure, cancellate: done.rows.map((r) => affectedDto(r)) };
}

/** Cancels locked bookings with a reason, refunding the paid ones first; the ids refunded. */
async function cancelAll(deps: AdminDeps, tx: Tx, rows: AffectedRow[], reason: 'chiusura' | 'manutenzione', now: Date): Promise<Set<number>> {
  const refunded = new Set<number>();
  for (const r of rows) {
    const outcome = await refundBookingPayment({ db: deps.db, clock: deps.clock, provider: deps.payments, log: deps.log }, r.id, tx);
    if (outcome === 'refunded') refunded.add(r.id);
  }
  if (rows.length > 0) {
    const ids = sql.join(rows.map((r) => sql`${r.id}`), sql`, `);
    await tx.execute(sql`
      update prenotazioni set stato = 'cancellata', motivo_cancellazione = ${reason}, updated_at = ${now.toISOString()}::timestamptz
       where id in (${ids})`);
    // An unpaid payment can no longer be paid.
    await tx.execute(sql`
      update pagamenti set status = 'failed', updated_at = ${now.toISOString()}::timestamptz
       where prenotazione_id in (${ids}) and status = 'pending'`);
  }
  return refunded;
}

/** GET /api/admin/chiusure — every closure, the latest first. */
export async function listClosures(deps: Pick<AdminDeps, 'db'>): Promise<ClosureDto[]> {
  const { rows } = await deps.db.execute<{ id: number; dal: string; al: string; motivo: string; created_at: Date | string }>(sql`
    select id, dal::text as dal, al::text as al, motivo, created_at from chiusure order by dal desc, id desc limit 500`);
  return rows.map((r) => ({ id: r.id, dal: r.dal, al: r.al, motivo: r.motivo, createdAt: new Date(r.created_at).toISOString() }));
}

/** DELETE /api/admin/chiusure/:id — the days can be booked again (cancelled bookings stay cancelled). */
export async function deleteClosure(deps: AdminDeps, actor: Actor, id: number): Promise<ClosureDto> {
  const now = deps.clock.now();
  const removed = await runTransaction(deps.db, async (tx) => {
    const { rows } = await tx.execute<{ id: number; dal: string; al: string; motivo: string; created_at: Date | string }>(sql`
      delete from chiusure where id = ${id} returning id, dal::text as dal, al::text as al, motivo, created_at`);
    const r = rows[0];
    if (!r) throw notFound(MSG_CLOSURE_NOT_FOUND, 'CLOSURE_NOT_FOUND');
    const closure: ClosureDto = { id: r.id, dal: r.dal, al: r.al, motivo: r.motivo, createdAt: new Date(r.created_at).toISOString() };
    await writeAudit(tx, actor, { action: 'closure.delete', entity: 'closure', entityId: id, before: closure }, now);
    return closure;
  });
  return removed;
}

// ---------------------------------------------------------------------------------------------
// Planned maintenance

function maintenanceWindow(deps: Pick<AdminDeps, 'clock' | 'config'>, input: MaintenanceRequest) {
  const tz = deps.config.timeZone;
  const inizio = zonedInstant(input.dal.slice(0, 10), input.dal.slice(11, 16), tz);
  const fine = zonedInstant(input.al.slice(0, 10), input.al.slice(11, 16), tz);
  if (!inizio || !fine) throw badRequest("Orario inesistente in quel giorno per il passaggio all'ora legale", 'NONEXISTENT_TIME');
  if (fine <= inizio) throw badRequest('La fine deve essere successiva all’inizio', 'INVALID_WINDOW', { fields: { al: 'Prima dell’inizio' } });
  if (fine <= deps.clock.now()) throw badRequest('La manutenzione è già finita', 'MAINTENANCE_IN_PAST', { fields: { al: 'Data passata' } });
  return { inizio, fine, motivo: input.motivo.trim() };
}

/** The active bookings of the bike, not picked up, that overlap the period. */
function bookingsInMaintenance(tx: Pick<Tx, 'execute'>, bikeId: number, inizio: Date, fine: Date, lock: boolean, voidNow: SQL = sql`false`) {
  return tx.execute<AffectedRow>(sql`
    select ${affectedColumns}
      from prenotazioni p join users u on u.id = p.user_id join biciclette b on b.id = p.bici_id
      left join pagamenti pay on pay.prenotazione_id = p.id
     where p.bici_id = ${bikeId} and p.stato = 'attiva' and p.ritirata_at is null and not ${voidNow}
       and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${inizio.toISOString()}::timestamptz, ${fine.toISOString()}::timestamptz, '[)')
     order by p.inizio, p.id
     ${lock ? sql`for update of p` : sql``}`);
}

/**
 * Another bike free for a booking's whole window: bookable (not out of service, not in an
 * admin's maintenance), no planned maintenance, no active booking overlapping, no ride in
 * ritardo on it; the same model first, then by number.
 */
async function freeBikeFor(tx: Pick<Tx, 'execute'>, r: AffectedRow, now: Date): Promise<{ id: number; numero: string } | null> {
  const { rows } = await tx.execute<{ id: number; numero: string }>(sql`
    select b.id, b.numero from biciclette b
     where b.id <> ${r.bici_id}
       and (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))
       and not exists (select 1 from manutenzioni m where m.bici_id = b.id
                          and tstzrange(m.inizio, m.fine, '[)') && tstzrange(${r.inizio}::timestamptz, ${r.fine}::timestamptz, '[)'))
       -- An offer of the waitlist holds its bike as a booking does (issue 21).
       and not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato in ('attiva', 'offerta')
                          and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${r.inizio}::timestamptz, ${r.fine}::timestamptz, '[)'))
       and not exists (select 1 from prenotazioni late where late.bici_id = b.id and late.stato = 'attiva'
                          and late.ritirata_at is not null and late.fine <= ${now.toISOString()}::timestamptz)
     order by (b.modello = ${r.modello}) desc, lpad(b.numero, 20, '0'), b.numero
     limit 1`);
  return rows[0] ?? null;
}

async function bikeNumber(tx: Pick<Tx, 'execute'>, bikeId: number): Promise<string> {
  const { rows } = await tx.execute<{ numero: string }>(sql`select numero from biciclette where id = ${bikeId}`);
  if (!rows[0]) throw notFound('Bicicletta non trovata', 'BIKE_NOT_FOUND');
  return rows[0].numero;
}

/** Where each affected booking would go. Two bookings of one bike never overlap, so their moves never compete. */
async function planMoves(tx: Pick<Tx, 'execute'>, rows: AffectedRow[], now: Date) {
  const moves: { row: AffectedRow; to: { id: number; numero: string } | null }[] = [];
  for (const row of rows) moves.push({ row, to: await freeBikeFor(tx, row, now) });
  return moves;
}

function outcome(moves: Awaited<ReturnType<typeof planMoves>>, manutenzione: MaintenanceDto | null): MaintenanceOutcomeDto {
  return {
    manutenzione,
    spostate: moves.filter((m) => m.to).map((m) => affectedDto(m.row, m.to!.numero)),
    cancellate: moves.filter((m) => !m.to).map((m) => affectedDto(m.row, null)),
  };
}

/** POST /api/admin/biciclette/:id/manutenzioni/anteprima — what the period would do, nothing changed. */
export async function previewMaintenance(deps: AdminDeps, bikeId: number, input: MaintenanceRequest): Promise<MaintenanceOutcomeDto> {
  const w = maintenanceWindow(deps, input);
  await bikeNumber(deps.db, bikeId);
  // What the confirmation would refuse (the EXCLUDE constraint), said before it.
  const { rows: overlapping } = await deps.db.execute(sql`
    select 1 from manutenzioni m where m.bici_id = ${bikeId}
       and tstzrange(m.inizio, m.fine, '[)') && tstzrange(${w.inizio.toISOString()}::timestamptz, ${w.fine.toISOString()}::timestamptz, '[)')`);
  if (overlapping.length > 0) throw conflict(MSG_MAINTENANCE_OVERLAP, 'MAINTENANCE_OVERLAP');
  const { rows } = await bookingsInMaintenance(deps.db, bikeId, w.inizio, w.fine, false, await voidNow(deps));
  return outcome(await planMoves(deps.db, rows, deps.clock.now()), null);
}

/**
 * POST /api/admin/biciclette/:id/manutenzioni — plans the period; each booking of the bike
 * inside it moves to another free bike for the same window, or is cancelled (reason
 * `manutenzione`, refunded if paid); users emailed after the commit. A period under way shows
 * the bike `manutenzione` at once (the life cycle does it at a later start, and undoes it at the end).
 */
export async function createMaintenance(deps: AdminDeps, actor: Actor, bikeId: number, input: MaintenanceRequest): Promise<MaintenanceOutcomeDto> {
  await bringLifecycleUpToDate(deps);
  const w = maintenanceWindow(deps, input);
  const now = deps.clock.now();
  try {
    const done = await runTransaction(deps.db, async (tx) => {
      await lockFleet(tx);
      const numero = await bikeNumber(tx, bikeId);
      const { rows: created } = await tx.execute<{ id: number }>(sql`
        insert into manutenzioni (bici_id, inizio, fine, motivo, created_by, created_at)
        values (${bikeId}, ${w.inizio.toISOString()}::timestamptz, ${w.fine.toISOString()}::timestamptz, ${w.motivo}, ${actor.id},
                ${now.toISOString()}::timestamptz)
        returning id`);
      const { rows } = await bookingsInMaintenance(tx, bikeId, w.inizio, w.fine, true);
      const moves = await planMoves(tx, rows, now);
      for (const m of moves.filter((x) => x.to)) {
        await tx.execute(sql`update prenotazioni set bici_id = ${m.to!.id}, updated_at = ${now.toISOString()}::timestamptz where id = ${m.row.id}`);
      }
      const cancelled = moves.filter((x) => !x.to).map((x) => x.row);
      const refunded = await cancelAll(deps, tx, cancelled, 'manutenzione', now);
      if (w.inizio <= now) {
        await tx.execute(sql`
          update biciclette set stato = 'manutenzione', stato_auto = true, updated_at = ${now.toISOString()}::timestamptz
           where id = ${bikeId} and stato in ('disponibile', 'prenotata')`);
      }
      const manutenzione = maintenanceDto(deps, { id: created[0]!.id, biciId: bikeId, numero, inizio: w.inizio, fine: w.fine, motivo: w.motivo }, now);
      const result = outcome(moves, manutenzione);
      await writeAudit(tx, actor, { action: 'maintenance.create', entity: 'maintenance', entityId: manutenzione.id, after: result }, now);
      return { result, moves, refunded };
    });
    for (const m of done.moves) {
      deps.mailer.sendInBackground(
        m.to
          ? bookingMovedEmail(noticeOf(m.row), m.to.numero, deps.config.publicUrl)
          : maintenanceCancelledEmail(noticeOf(m.row), done.refunded.has(m.row.id), deps.config.publicUrl),
      );
    }
    return done.result;
  } catch (err) {
    if (pgErrorCode(err) === '23P01' && pgConstraint(err) === 'manutenzioni_no_overlap') throw conflict(MSG_MAINTENANCE_OVERLAP, 'MAINTENANCE_OVERLAP');
    throw err;
  }
}

/** `YYYY-MM-DDTHH:mm` in TZ_APP. */
const wall = (d: Date, tz: string) => `${zonedToday(d, tz)}T${zonedClock(d, tz)}`;

function maintenanceDto(
  deps: Pick<AdminDeps, 'config'>,
  m: { id: number; biciId: number; numero: string; inizio: Date; fine: Date; motivo: string },
  now: Date,
): MaintenanceDto {
  const tz = deps.config.timeZone;
  return {
    id: m.id,
    biciId: m.biciId,
    biciNumero: m.numero,
    dal: wall(m.inizio, tz),
    al: wall(m.fine, tz),
    motivo: m.motivo,
    inCorso: m.inizio <= now && now < m.fine,
  };
}

interface MaintenanceRow extends Record<string, unknown> {
  id: number;
  bici_id: number;
  numero: string;
  inizio: Date | string;
  fine: Date | string;
  motivo: string;
}
const toMaintenance = (r: MaintenanceRow) => ({ id: r.id, biciId: r.bici_id, numero: r.numero, inizio: new Date(r.inizio), fine: new Date(r.fine), motivo: r.motivo });

/** GET /api/admin/manutenzioni — the periods under way or to come, soonest first. */
export async function listMaintenance(deps: Pick<AdminDeps, 'db' | 'clock' | 'config'>): Promise<MaintenanceDto[]> {
  const now = deps.clock.now();
  const { rows } = await deps.db.execute<MaintenanceRow>(sql`
    select m.id, m.bici_id, b.numero, m.inizio, m.fine, m.motivo from manutenzioni m join biciclette b on b.id = m.bici_id
     where m.fine > ${now.toISOString()}::timestamptz order by m.inizio, m.id limit 500`);
  return rows.map((r) => maintenanceDto(deps, toMaintenance(r), now));
}

/**
 * DELETE /api/admin/manutenzioni/:id — the period is dropped (bookings moved or cancelled
 * stay so); a bike shown in maintenance by it is disponibile again at once.
 */
export async function deleteMaintenance(deps: AdminDeps, actor: Actor, id: number): Promise<MaintenanceDto> {
  const now = deps.clock.now();
  const removed = await runTransaction(deps.db, async (tx) => {
    const { rows } = await tx.execute<MaintenanceRow>(sql`
      with gone as (delete from manutenzioni where id = ${id} returning *)
      select gone.id, gone.bici_id, b.numero, gone.inizio, gone.fine, gone.motivo from gone join biciclette b on b.id = gone.bici_id`);
    const r = rows[0];
    if (!r) throw notFound(MSG_MAINTENANCE_NOT_FOUND, 'MAINTENANCE_NOT_FOUND');
    const dto = maintenanceDto(deps, toMaintenance(r), now);
    await writeAudit(tx, actor, { action: 'maintenance.delete', entity: 'maintenance', entityId: id, before: dto }, now);
    return dto;
  });
  await bringLifecycleUpToDate(deps);
  return removed;
}

// ---------------------------------------------------------------------------------------------
// The desk and suspensions

/**
 * POST /api/admin/prenotazioni — a booking made at the desk for an active user, under every
 * invariant and the hours, closures and maintenance; the fair-use limits and any suspension
 * are overridden, and the override is audited. The user is emailed; an external's booking
 * starts `pending` with the usual hold, and the email holds the payment link.
 */
export async function bookForUser(deps: AdminDeps, actor: Actor, input: AdminBookingRequest & { destinazione: string | null }): Promise<BookingDto> {
  const [user] = await deps.db.select(sessionUserColumns).from(users).where(eq(users.id, input.userId));
  if (!user || !user.attiva) throw notFound('Utente non trovato o non attivo', 'USER_NOT_FOUND');
  const now = deps.clock.now();
  const rules = await currentRules(deps.db);
  const suspension = await suspensionOf(deps.db, user.id, rules, now);
  const booking = await createBooking(
    deps,
    { id: user.id, isResidente: user.isResidente },
    {
      dataPrenotazione: input.dataPrenotazione,
      orarioInizio: input.orarioInizio,
      orarioFine: input.orarioFine,
      destinazione: input.destinazione,
      biciId: input.biciId,
    },
    {
      override: true,
      // The override is audited with the booking, in its transaction.
      inTransaction: (tx, bookingId) =>
        writeAudit(
          tx,
          actor,
          {
            action: 'booking.create_for_user',
            entity: 'booking',
            entityId: bookingId,
            after: { ...input, userId: user.id, override: { limitiIgnorati: true, sospensioneIgnorataFino: suspension?.fino ?? null } },
          },
          now,
        ),
    },
  ).catch((err: unknown) => {
    // Said of the user, not of the admin who asks.
    if (err instanceof AppError && err.code === 'ALREADY_ACTIVE') throw conflict("L'utente ha già una prenotazione attiva", 'ALREADY_ACTIVE');
    throw err;
  });
  deps.mailer.sendInBackground(
    deskBookingEmail(
      { ...booking, email: user.email, nome: user.nome },
      booking.paymentStatus === 'pending',
      rules.attesaPagamentoMinuti,
      deps.config.publicUrl,
    ),
  );
  return booking;
}

/** POST /api/admin/users/:id/revoca-sospensione — the no-shows so far no longer count; audited. */
export async function liftSuspension(deps: AdminDeps, actor: Actor, id: number): Promise<AdminUserDto> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const rules = await loadRules(tx);
    const before = await suspensionOf(tx, id, rules, now);
    const [row] = await tx
      .update(users)
      .set({ sospensioneRevocataAt: now, updatedAt: now })
      .where(eq(users.id, id))
      .returning(sessionUserColumns);
    if (!row) throw notFound('Utente non trovato', 'USER_NOT_FOUND');
    await writeAudit(tx, actor, { action: 'suspension.lift', entity: 'user', entityId: id, before: { sospesoFino: before?.fino ?? null }, after: { sospesoFino: null } }, now);
    return { ...toPublicUser(row), sospesoFino: null };
  });
}

