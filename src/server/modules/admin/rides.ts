import { eq, sql } from 'drizzle-orm';
import type { AdminDamageDto, AdminOverdueDto } from '../../../shared/schemas/admin.js';
import type { BikeStato, DamageCategory } from '../../../shared/schemas/booking.js';
import { prenotazioni } from '../bookings/tables.js';
import { conflict, notFound } from '../../http/errors.js';
import { asOf, type BookingPersonBikeRow, bringLifecycleUpToDate, relocation, rideDesk } from '../bookings/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { forgetRideCodeAtRelease } from '../locks/index.js';
import { tickets } from '../interventi/index.js';
import type { AdminDeps } from './deps.js';
import { runTransaction } from '../../db/transaction.js';
import { namedStatement } from '../../db/prepared.js';
import { testo } from '../../../shared/i18n/index.js';

type ReadDeps = Pick<AdminDeps, 'db' | 'clock' | 'config'>;

/** How far back resolved damage reports are still listed. */
export const RESOLVED_DAMAGE_DAYS = 30;

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * The damage reports of the /admin tab (and its render): one statement planned once per
 * connection (decisions 059 and 071), the sede a bound value (null: every sede).
 */
const damagesStatement = namedStatement<{
  id: number;
  prenotazione_id: number | null;
  bici_id: number;
  numero: string;
  modello: string;
  bici_stato: BikeStato;
  nome: string | null;
  cognome: string | null;
  email: string | null;
  categoria: DamageCategory;
  descrizione: string;
  created_at: string;
  risolta_at: string | null;
  sede_id: number;
}>(
  'admin_damages',
  () => sql`
    select d.id, d.prenotazione_id, d.bici_id, b.numero, b.modello, b.stato as bici_stato, d.sede_id,
           u.nome, u.cognome, u.email, d.categoria, d.descrizione, d.created_at, d.chiuso_at as risolta_at
      from interventi d
      join biciclette b on b.id = d.bici_id
      left join users u on u.id = d.segnalato_da
     where (d.chiuso_at is null or d.chiuso_at >= ${sql.placeholder('since')}::timestamptz)
       and (${sql.placeholder('sede')}::int is null or d.sede_id = ${sql.placeholder('sede')}::int)
     order by d.chiuso_at is not null, case when d.chiuso_at is null then d.created_at end, d.chiuso_at desc, d.id`,
);

/**
 * The old `Danni da controllare` (kept for compatibility, issue 48): every repair ticket in the
 * old shape, open ones first (oldest first), then those closed in the last 30 days (latest
 * first); `risoltaAt` is the ticket's `chiusoAt`.
 */
export async function adminDamages(deps: ReadDeps, sedeId?: number): Promise<AdminDamageDto[]> {
  const since = new Date(deps.clock.now().getTime() - RESOLVED_DAMAGE_DAYS * 86_400_000).toISOString();
  const rows = await damagesStatement.run(deps.db, { since, sede: sedeId ?? null });
  return rows.map((r) => ({
    id: r.id,
    prenotazioneId: r.prenotazione_id,
    biciId: r.bici_id,
    biciNumero: r.numero,
    biciModello: r.modello,
    biciStato: r.bici_stato,
    utente: r.nome === null ? null : `${r.nome} ${r.cognome ?? ''}`.trim(),
    userEmail: r.email,
    categoria: r.categoria,
    descrizione: r.descrizione,
    createdAt: iso(r.created_at),
    risoltaAt: r.risolta_at === null ? null : iso(r.risolta_at),
    sedeId: r.sede_id,
  }));
}

/**
 * Marks a damage report resolved: its ticket `riparata` (the bike back to `disponibile` when no
 * other ticket keeps it out), its reporter told after the commit.
 */
export async function resolveDamage(deps: AdminDeps, actor: Actor, id: number): Promise<AdminDamageDto> {
  const now = deps.clock.now();
  const outcome = await runTransaction(deps.db, async (tx) => {
    const done = await tickets.resolveAsRepaired(tx, { id: actor.id, email: actor.email, ruolo: 'admin', incarichi: [] }, id, now);
    await writeAudit(
      tx,
      actor,
      { action: 'damage.resolve', entity: 'damage', entityId: id, before: { risoltaAt: null }, after: { risoltaAt: now.toISOString() } },
      now,
    );
    return done;
  });
  if (outcome.riparata) await tickets.tellRepaired(deps, id);
  const row = (await adminDamages(deps)).find((d) => d.id === id);
  return row!;
}

/**
 * The rides past their end (the /admin tab, and its render), each with the bike's next booking:
 * one statement planned once per connection (decisions 059 and 071). Planned at each request it
 * cost PostgreSQL 1.35 ms of planning for 0.2 ms of execution (issue 51).
 */
const overdueStatement = namedStatement<
  BookingPersonBikeRow & {
    fine: string;
    ritirata_at: string;
    next_id: number | null;
    next_nome: string | null;
    next_cognome: string | null;
    next_data: string | null;
    next_inizio: string | null;
    next_fine: string | null;
    sede_id: number;
  }
>('admin_overdue', () => {
  const { at, minutes } = asOf.AS_OF_PLACEHOLDERS;
  // As of now (decision 035): a next booking the life cycle would release is not shown. Its
  // payment is read by its unique key where the state needs it: joined, the generic plan read
  // every payment.
  const next = asOf.bookingAsOf(
    { stato: sql`x.stato`, motivo: sql`x.motivo_cancellazione`, createdAt: sql`x.created_at`, inizio: sql`x.inizio`, fine: sql`x.fine`, ritirataAt: sql`x.ritirata_at`, payStatus: sql`(select pay.status from pagamenti pay where pay.prenotazione_id = x.id)`, id: sql`x.id`, biciId: sql`x.bici_id` },
    at,
    minutes,
  );
  return sql`
    select p.id, p.sede_id, u.nome, u.cognome, u.email, p.bici_id, b.numero, b.modello, p.data_prenotazione::text as data_prenotazione,
           p.orario_inizio, p.orario_fine, p.fine, p.ritirata_at,
           n.id as next_id, nu.nome as next_nome, nu.cognome as next_cognome, n.data_prenotazione::text as next_data,
           n.orario_inizio as next_inizio, n.orario_fine as next_fine
      from prenotazioni p
      join users u on u.id = p.user_id
      join biciclette b on b.id = p.bici_id
      left join lateral (
        select x.id, x.user_id, x.data_prenotazione, x.orario_inizio, x.orario_fine
          from prenotazioni x
         where x.bici_id = p.bici_id and x.stato = 'attiva' and x.id <> p.id and x.inizio >= p.fine and not ${next.void}
         order by x.inizio limit 1) n on true
      left join users nu on nu.id = n.user_id
     where p.stato = 'attiva' and p.ritirata_at is not null and p.fine <= ${at}::timestamptz
       and (${sql.placeholder('sede')}::int is null or p.sede_id = ${sql.placeholder('sede')}::int)
     order by p.fine, p.id`;
});

/** The rides in ritardo now (picked up, not returned, end passed), with the bike's next booking. */
export async function adminOverdue(deps: ReadDeps, sedeId?: number): Promise<AdminOverdueDto[]> {
  const now = deps.clock.now();
  const values = { ...(await asOf.asOfValues(deps, now)), sede: sedeId ?? null };
  const rows = await overdueStatement.run(deps.db, values);
  return rows.map((r) => ({
    id: r.id,
    utente: `${r.nome} ${r.cognome}`.trim(),
    userEmail: r.email,
    biciId: r.bici_id,
    biciNumero: r.numero,
    biciModello: r.modello,
    dataPrenotazione: r.data_prenotazione,
    orarioInizio: r.orario_inizio,
    orarioFine: r.orario_fine,
    fine: iso(r.fine),
    ritirataAt: iso(r.ritirata_at),
    minutiRitardo: Math.floor((now.getTime() - new Date(r.fine).getTime()) / 60_000),
    sedeId: r.sede_id,
    prossima:
      r.next_id === null
        ? null
        : {
            id: r.next_id,
            utente: `${r.next_nome ?? ''} ${r.next_cognome ?? ''}`.trim(),
            dataPrenotazione: r.next_data!,
            orarioInizio: r.next_inizio!,
            orarioFine: r.next_fine!,
          },
  }));
}

/**
 * An admin records the return of a ride on the owner's behalf (an overdue bike found, or
 * brought to the desk): `completata`, `riconsegnata_at` now, the bike free again.
 */
export async function releaseRide(deps: AdminDeps, actor: Actor, id: number): Promise<{ id: number; riconsegnataAt: string }> {
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  await runTransaction(deps.db, async (tx) => {
    // The bike first, then the booking (decision 023): rideDesk.endRide may free the bike.
    await relocation.lockBikeOfBooking(tx, id);
    const [row] = await tx.select().from(prenotazioni).where(eq(prenotazioni.id, id)).for('update');
    if (!row) throw notFound(testo('admin.bookingNotFound'));
    // An active booking always has its owner (`prenotazioni_anonima_conclusa`, decision 029).
    if (row.stato !== 'attiva' || !row.ritirataAt || row.userId === null) {
      throw conflict(testo('admin.notInRide'), 'NOT_IN_RIDE');
    }
    // Nobody set the ride's new code on the lock: it is dropped, and the lock marked to change.
    await forgetRideCodeAtRelease(tx, id, row.biciId);
    await rideDesk.endRide(tx, { id, biciId: row.biciId, userId: row.userId }, now);
    await writeAudit(
      tx,
      actor,
      {
        action: 'booking.release',
        entity: 'booking',
        entityId: id,
        before: { stato: row.stato, ritirataAt: row.ritirataAt.toISOString(), riconsegnataAt: null },
        after: { stato: 'completata', riconsegnataAt: now.toISOString() },
      },
      now,
    );
  });
  return { id, riconsegnataAt: now.toISOString() };
}
