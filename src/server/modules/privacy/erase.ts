import { sql, type SQL } from 'drizzle-orm';
import {
  type AccountDeletedDto,
  type DeletionPreviewDto,
} from '../../../shared/schemas/privacy.js';
import type { Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { badRequest, conflict, unauthorized } from '../../http/errors.js';
import { forgetRateLimitsOf } from '../../http/rate-limit-store.js';
import { endAllSessionsOfUser, verifyPassword } from '../auth/index.js';
import { lockUserAndAdmins } from '../admin/index.js';
import type { AdminDeps } from '../admin/index.js';
import { asOf, bookingsErasure, bringLifecycleUpToDate, cancelBookings, offerRows } from '../bookings/index.js';
import { ticketsErasure } from '../interventi/index.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';
import { redrawStoredReports } from '../reports/index.js';
import { deleteUserRow } from '../users/index.js';
import { anonymiseWaitsOf, openAsOf, WAITLIST_LOCK } from '../waitlist/index.js';
import { personTerms, redactAuditOfPerson, type Person } from './audit-redact.js';
import { accountDeletedEmail } from './emails.js';
import { testo } from '../../../shared/i18n/index.js';

/*
 * `Elimina il mio account` (issue 23, decision 029). The person goes; what the college needs
 * stays without them: bookings as anonymous rows (statistics, reports), payments detached
 * from any person (accounts). The email and the resident code are free to register again.
 */

export type PrivacyDeps = AdminDeps;

interface BookingRow extends Record<string, unknown> {
  id: number;
  stato: string;
  inizio: string;
  ritirata_at: string | null;
  numero: string;
  data: string;
  orario_inizio: string;
  orario_fine: string;
  paid: boolean;
}

/** `stato`: the preview's state as of now (decision 035); the booking's own by default. */
async function bookingsOf(db: Pick<Db, 'execute'>, userId: number, lock: boolean, stato: SQL = sql`p.stato`): Promise<BookingRow[]> {
  const { rows } = await db.execute<BookingRow>(sql`
    select p.id, ${stato} as stato, p.inizio, p.ritirata_at, b.numero, p.data_prenotazione::text as data, p.orario_inizio, p.orario_fine,
           exists (select 1 from pagamenti pay where pay.prenotazione_id = p.id and pay.status = 'completed') as paid
      from prenotazioni p join biciclette b on b.id = p.bici_id
      left join pagamenti pay on pay.prenotazione_id = p.id
     where p.user_id = ${userId}
     order by p.id
     ${lock ? sql`for update of p` : sql``}`);
  return rows;
}

const startsAfter = (b: BookingRow, now: Date) => new Date(b.inizio).getTime() > now.getTime();

/** GET /api/profilo/eliminazione — exactly what a deletion would do now. */
export async function deletionPreview(deps: Pick<PrivacyDeps, 'db' | 'clock'>, userId: number): Promise<DeletionPreviewDto> {
  const now = deps.clock.now();
  // As of now (decision 035): what the life cycle would release is not cancelled again.
  const live = asOf.bookingAsOf('p', now.toISOString(), lifecycleMinutes(await currentRules(deps)));
  const { rows } = await deps.db.execute<{
    email: string; ruolo: string; attiva: boolean; admins: number; pagamenti: number; attese: number; sessioni: number; push: number; calendario: boolean;
  }>(sql`
    select u.email, u.ruolo, u.attiva,
           (select count(*) from users a where a.ruolo = 'admin' and a.attiva)::int as admins,
           (select count(*) from pagamenti pay join prenotazioni p on p.id = pay.prenotazione_id where p.user_id = u.id)::int as pagamenti,
           (select count(*) from attese a where a.user_id = u.id and a.stato in ('in_attesa', 'offerta')
              and ${openAsOf(sql`a`, sql`${now.toISOString()}::timestamptz`)})::int as attese,
           (select count(*) from sessions s where s.user_id = u.id and s.expires_at > ${now.toISOString()}::timestamptz)::int as sessioni,
           (select count(*) from push_subscriptions ps where ps.user_id = u.id)::int as push,
           coalesce((select pu.calendario_token_hash is not null from preferenze_utente pu where pu.user_id = u.id), false) as calendario
      from users u where u.id = ${userId}`);
  const u = rows[0];
  if (!u) throw unauthorized();
  const bookings = (await bookingsOf(deps.db, userId, false, live.stato)).filter((b) => b.stato !== 'offerta');
  const ride = bookings.find((b) => b.stato === 'attiva' && b.ritirata_at !== null);
  const active = bookings.filter((b) => b.stato === 'attiva' && b.ritirata_at === null);
  return {
    corsaInCorso: ride ? { id: ride.id, biciNumero: ride.numero } : null,
    ultimoAmministratore: u.ruolo === 'admin' && u.attiva && u.admins <= 1,
    annullate: active.map((b) => ({
      id: b.id,
      dataPrenotazione: b.data,
      orarioInizio: b.orario_inizio,
      orarioFine: b.orario_fine,
      biciNumero: b.numero,
      rimborso: b.paid && startsAfter(b, now),
    })),
    anonimizzate: bookings.length,
    pagamenti: u.pagamenti,
    attese: u.attese,
    sessioni: u.sessioni,
    notifichePush: u.push,
    calendario: u.calendario,
    email: u.email,
  };
}

/** The person's data everywhere but the users row, in the transaction (after its locks). */
async function anonymiseEverywhere(tx: Tx, userId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  // Waits end; offers (rows of prenotazioni, never a booking) go, as a declined offer does.
  await offerRows.withdrawOffersOf(tx, userId);
  await anonymiseWaitsOf(tx, userId, at);
  // Bookings stay for the statistics and the reports: no person, no free text.
  await bookingsErasure.anonymiseBookingsOf(tx, userId, now);
  await ticketsErasure.forgetReporterOf(tx, userId);
  await bookingsErasure.deleteOfflineActionsOf(tx, userId);
  await endAllSessionsOfUser(tx, userId);
}

/**
 * DELETE /api/profilo. The password is checked again (a wrong one: 400, nothing changes). A
 * ride in progress (409) or the last active admin (409) stops it. Otherwise, in one
 * transaction: active bookings cancelled as the owner's cancel would (refund if paid and not
 * started; an unpaid payment fails), every booking and wait anonymised, payments detached
 * by the bookings' anonymity (they never named the person), sessions, preferences, push
 * subscriptions and the account deleted, the audit log's values of the person replaced.
 * After the commit: caches, the waitlists, the outbox, the stored reports, the last email.
 */
export async function eraseAccount(deps: PrivacyDeps, userId: number, password: string): Promise<Omit<AccountDeletedDto, 'message'>> {
  const [account] = (
    await deps.db.execute<{ password_hash: string }>(sql`select password_hash from users where id = ${userId}`)
  ).rows;
  if (!account) throw unauthorized();
  if (!(await verifyPassword(account.password_hash, password))) {
    throw badRequest(testo('privacy.wrongPassword'), 'WRONG_PASSWORD', { fields: { password: testo('privacy.wrongPassword') } });
  }
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const outcome = await runTransaction(deps.db, async (tx) => {
    // Decision 023's order: the waitlist's lock (its offers are deleted), users, bikes, bookings, payments, the rest.
    await tx.execute(sql`select pg_advisory_xact_lock(${WAITLIST_LOCK})`);
    const { target, activeAdmins } = await lockUserAndAdmins(tx, userId);
    if (target.ruolo === 'admin' && target.attiva && activeAdmins <= 1) throw conflict(testo('privacy.lastAdmin'), 'LAST_ADMIN');
    await tx.execute(sql`select b.id from biciclette b join prenotazioni o on o.bici_id = b.id
                          where o.user_id = ${userId} and o.stato = 'offerta' order by b.id for no key update of b`);
    const bookings = await bookingsOf(tx, userId, true);
    if (bookings.some((b) => b.stato === 'attiva' && b.ritirata_at !== null)) throw conflict(testo('privacy.rideInProgress'), 'RIDE_IN_PROGRESS');
    const active = bookings.filter((b) => b.stato === 'attiva');
    // Cancelled as the owner's cancel would: refunded if paid and not started, an unpaid payment failed.
    const refunded = (await cancelBookings(deps, tx, active.map((b) => b.id), { reason: 'utente', refund: 'before-start', now })).size;
    const person: Person = { id: userId, email: target.email, nome: target.nome, cognome: target.cognome, sigla: target.siglaResidente };
    await anonymiseEverywhere(tx, userId, now);
    await redactAuditOfPerson(tx, person);
    await forgetRateLimitsOf(tx, person.email);
    // Preferences and push subscriptions go with the account (ON DELETE CASCADE).
    await deleteUserRow(tx, userId);
    const days = [...new Set(bookings.filter((b) => b.stato !== 'offerta').map((b) => b.data))];
    return {
      person,
      lingua: target.lingua,
      days,
      result: {
        annullate: active.length,
        rimborsate: refunded,
        anonimizzate: bookings.filter((b) => b.stato !== 'offerta').length,
      },
    };
  });
  deps.sessionCache?.evictUser(userId);
  deps.log.info({ userId, cancelled: outcome.result.annullate, refunded: outcome.result.rimborsate }, 'account deleted by its owner');
  // The stored nightly reports of the person's booking days, drawn again without their name.
  await redrawStoredReports(deps, outcome.days);
  // The outbox forgets the person, then receives the one email that still names them.
  await deps.mailer.forget?.(personTerms(outcome.person));
  try {
    await deps.mailer.send(accountDeletedEmail({ ...outcome.person, lingua: outcome.lingua }, deps.config.timeZone, now));
  } catch (err) {
    deps.log.error({ err, userId }, 'account deletion email not sent');
  }
  return outcome.result;
}
