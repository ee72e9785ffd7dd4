import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { offerSentence } from '../../../shared/waitlist-text.js';
import { notifyUser, type NotifyDeps } from '../notifications/index.js';
import { bikeAtSede, sediNames } from '../sedi/index.js';
import { offerRows } from '../bookings/index.js';
import { offerNotice } from './emails.js';

/**
 * The waitlist's offers (issue 21, decision 025). An offer is a row of `prenotazioni` in stato
 * `offerta`: it holds a freed bike for the first in line inside the bookings' own exclusion
 * constraint, so an offered bike can never also be booked or offered twice.
 *
 * One function, `runOfferPass`, keeps the lines true: it ends what is over (offers run out,
 * windows started, users gone), withdraws offers a closure or a maintenance made impossible,
 * and gives every bike free for a waited window to the first in line. It runs from the
 * freed-time dispatcher (dispatcher.ts) after every change that frees a bike's time (a
 * trigger records it, decision 035), and from the minute job.
 * Passes run one at a time across processes (`WAITLIST_LOCK`), and each takes every bike's
 * lock (id order, as closures and maintenance do) before it touches an offer: the lock order
 * of decision 023, bike → booking. A probe without locks first says whether there is anything
 * to do at all, so a pass costs one read when, as nearly always, nothing is due.
 */

/** The namespace of the advisory lock that makes offer passes run one at a time (decision 025). */
export const WAITLIST_LOCK = 4_203;

/** The open states of a wait. */
export const OPEN = sql`('in_attesa', 'offerta')`;

/**
 * A wait (alias `x`) still open as of `now` (an SQL timestamptz), as the next pass would leave
 * it: waiting with its window not started, or offered with its offer not run out. Reads use
 * it rather than run the pass (decision 035); the pass and the minute job write it down.
 */
export function openAsOf(x: SQL, now: SQL): SQL {
  return sql`((${x}.stato = 'in_attesa' and ${x}.inizio > ${now})
    or (${x}.stato = 'offerta' and exists (select 1 from prenotazioni live where live.attesa_id = ${x}.id
                                             and live.stato = 'offerta' and live.offerta_scade_at > ${now})))`;
}

/**
 * A wait `a` of unserved demand as of `now` (an SQL timestamptz): ended `scaduta` by a pass,
 * or still waiting with its window started (the next pass ends it so). Reads use it rather
 * than run the pass (decision 035).
 */
export function unservedAsOf(now: SQL): SQL {
  return sql`(a.stato = 'scaduta' or (a.stato = 'in_attesa' and a.inizio <= ${now}))`;
}

/**
 * A bike `b` free for the window [starts, ends) at `now`: bookable by state, no planned
 * maintenance, no active booking or offer overlapping (the exclusion constraint's own
 * index), no ride in ritardo on it. The same conditions as the availability read.
 */
export function bikeFreeFor(starts: SQL, ends: SQL, now: string): SQL {
  return sql`(b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))
    and not exists (select 1 from manutenzioni m where m.bici_id = b.id
                       and tstzrange(m.inizio, m.fine, '[)') && tstzrange(${starts}, ${ends}, '[)'))
    and not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato in ('attiva', 'offerta')
                       and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${starts}, ${ends}, '[)'))
    and not exists (select 1 from prenotazioni late where late.bici_id = b.id and late.stato = 'attiva'
                       and late.ritirata_at is not null and late.fine <= ${now}::timestamptz)`;
}

/**
 * An open wait `a` that can be offered a bike now: still waiting, its window not started,
 * its user active and without an active booking (freed bikes pass to the next in line until
 * it is over), its day not closed at its sede. Only a bike of its sede is ever offered (issue 47).
 */
function offerable(now: string): SQL {
  return sql`a.stato = 'in_attesa' and a.inizio > ${now}::timestamptz
    and exists (select 1 from users u where u.id = a.user_id and u.attiva)
    and not exists (select 1 from prenotazioni mine where mine.user_id = a.user_id and mine.stato = 'attiva')
    and not exists (select 1 from chiusure c where a.data_prenotazione between c.dal and c.al and (c.sede_id is null or c.sede_id = a.sede_id))`;
}

/** Whether anything is due: something to end or withdraw, or a free bike for a wait. No locks. */
function probe(now: string): SQL {
  return sql`select
    exists (select 1 from prenotazioni o where o.stato = 'offerta' and o.offerta_scade_at <= ${now}::timestamptz)
    or exists (select 1 from attese a where a.stato = 'in_attesa' and a.inizio <= ${now}::timestamptz)
    or exists (select 1 from attese a where a.stato in ${OPEN}
                 and not exists (select 1 from users u where u.id = a.user_id and u.attiva))
    or exists (select 1 from prenotazioni o join biciclette b on b.id = o.bici_id
                where o.stato = 'offerta' and ${offerWithdrawn()})
    or exists (select 1 from (select distinct a.inizio, a.fine, a.sede_id from attese a where ${offerable(now)}) w
                where exists (select 1 from biciclette b where b.sede_id = w.sede_id and ${bikeFreeFor(sql`w.inizio`, sql`w.fine`, now)}))
    as due`;
}

/** An offer `o` on bike `b` that a closure (of every sede or the bike's) or a maintenance (planned, or the admin's state) made impossible. */
function offerWithdrawn(): SQL {
  return sql`(not (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))
    or exists (select 1 from manutenzioni m where m.bici_id = o.bici_id
                  and tstzrange(m.inizio, m.fine, '[)') && tstzrange(o.inizio, o.fine, '[)'))
    or exists (select 1 from chiusure c where o.data_prenotazione between c.dal and c.al and (c.sede_id is null or c.sede_id = b.sede_id)))`;
}

export interface OfferMade {
  offerId: number;
  attesaId: number;
  userId: number;
  biciId: number;
  scadeAt: Date;
}

export interface PassResult {
  /** Offers made by this pass, in line order. */
  offers: OfferMade[];
  /** Offers that ran out unanswered (their waits end `persa`). */
  expired: number;
  /** Waits whose window started without a bike (`scaduta`: unserved demand). */
  unserved: number;
  /** Offers withdrawn by a closure or a maintenance (their waits wait again). */
  withdrawn: number;
}

const NOTHING: PassResult = { offers: [], expired: 0, unserved: 0, withdrawn: 0 };

/**
 * The pass at `now`, with offers holding their bike `offerMinutes` (at the latest until the
 * window's start). See the module's comment; `force` skips the probe (tests).
 */
export async function runOfferPass(db: Db, now: Date, offerMinutes: number, force = false): Promise<PassResult> {
  const at = now.toISOString();
  if (!force) {
    const { rows } = await db.execute<{ due: boolean }>(probe(at));
    if (!rows[0]?.due) return NOTHING;
  }
  return runTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${WAITLIST_LOCK})`);
    // What this pass frees (an offer run out or withdrawn) it offers itself: no freed-time
    // event for the dispatcher (the triggers of drizzle/0017 read this setting).
    await tx.execute(sql`select set_config('bicielis.offer_pass', 'on', true)`);
    // Every bike, in id order, before any offer row: decision 023's order (bike → booking).
    await tx.execute(sql`select id from biciclette order by id for no key update`);
    const ended = await endWhatIsOver(tx, at);
    const offers = await offerFreeBikes(tx, at, offerMinutes);
    return { ...ended, offers };
  });
}

async function endWhatIsOver(tx: Tx, at: string): Promise<Omit<PassResult, 'offers'>> {
  const waitsTo = async (ids: number[], set: SQL) => {
    if (ids.length === 0) return 0;
    const { rows } = await tx.execute(sql`update attese a set ${set}
      where a.id in (select unnest(${`{${ids.join(',')}}`}::int[])) and a.stato = 'offerta' returning a.id`);
    return rows.length;
  };
  // Offers that ran out unanswered: the bike is free again, the wait ends (`persa`).
  const expired = await waitsTo(await offerRows.deleteRunOutOffers(tx, at), sql`stato = 'persa', ended_at = ${at}::timestamptz`);
  // A deactivated or deleted user's waits end, their offers with them.
  await offerRows.deleteOffersOfUsersGone(tx);
  await tx.execute(sql`
    update attese a set stato = 'uscita', ended_at = ${at}::timestamptz
     where a.stato in ${OPEN} and not exists (select 1 from users u where u.id = a.user_id and u.attiva)`);
  // Offers a closure or a maintenance made impossible: withdrawn, the wait keeps its place.
  const withdrawn = await waitsTo(await offerRows.deleteWithdrawnOffers(tx, offerWithdrawn()), sql`stato = 'in_attesa'`);
  // Windows started with no bike ever offered: unserved demand.
  const { rows: unservedRows } = await tx.execute(sql`
    update attese a set stato = 'scaduta', ended_at = ${at}::timestamptz
     where a.stato = 'in_attesa' and a.inizio <= ${at}::timestamptz
    returning a.id`);
  return { expired, unserved: unservedRows.length, withdrawn };
}

/**
 * One offer at a time, each to the first wait in line (joined earliest) that can be offered
 * a bike now, with the lowest-numbered bike free for its whole window; again until no wait
 * can. Each round reads afresh (READ COMMITTED): a bike freed by a cancel that commits while
 * the pass runs goes to the first eligible wait at that moment, never to a later one while an
 * earlier one could have it (a pass that walked the line once would skip a wait it passed
 * before the bike was freed). Under the pass's locks no booking or other pass can take a bike
 * meanwhile; the exclusion constraint is the arbiter all the same (`ON CONFLICT DO NOTHING`).
 * The offer row itself is the bookings module's to write (bookings/offer-rows.ts).
 */
async function offerFreeBikes(tx: Tx, at: string, offerMinutes: number): Promise<OfferMade[]> {
  const offers: OfferMade[] = [];
  for (;;) {
    const { rows: first } = await tx.execute<{ id: number; bici_id: number }>(sql`
      select a.id, b.id as bici_id from attese a
       cross join lateral (
         select b.id from biciclette b where b.sede_id = a.sede_id and ${bikeFreeFor(sql`a.inizio`, sql`a.fine`, at)}
          order by lpad(b.numero, 20, '0'), b.numero
          limit 1) b
       where ${offerable(at)}
       order by a.prima_in_fila desc, a.created_at, a.id
       limit 1`);
    const f = first[0];
    if (!f) return offers;
    const o = await offerRows.insertOffer(tx, f.id, f.bici_id, at, offerMinutes);
    if (!o) return offers;
    await tx.execute(sql`update attese set stato = 'offerta' where id = ${o.attesa_id}`);
    offers.push({ offerId: o.id, attesaId: o.attesa_id, userId: o.user_id, biciId: o.bici_id, scadeAt: new Date(o.offerta_scade_at) });
  }
}

// ---------------------------------------------------------------------------------------------
// Telling the first in line

export interface OfferNotifyDeps extends NotifyDeps {
  publicUrl: string;
  timeZone: string;
}

/**
 * Sends every offer not announced yet, each claimed once by an UPDATE (any process, any
 * retry): by email and, where the user subscribed, by web push. After the pass's commit, by
 * the freed-time dispatcher (dispatcher.ts) and the minute job, with the app's mailer and push.
 */
export async function announceOffers(deps: OfferNotifyDeps, now: Date): Promise<number> {
  const rows = await offerRows.claimUnannouncedOffers(deps.db, now);
  // The bike's sede is named only with several sedi (issue 47).
  const sedi = rows.length > 0 ? await sediNames(deps.db) : null;
  for (const r of rows) {
    const window = { dataPrenotazione: r.data_prenotazione, orarioInizio: r.orario_inizio, orarioFine: r.orario_fine };
    await notifyUser(
      deps,
      r.user_id,
      (lingua) => offerNotice({ nome: r.nome, biciNumero: sedi ? bikeAtSede(sedi, r.numero, r.sede_id) : r.numero, ...window, scadeAt: new Date(r.offerta_scade_at) }, deps.publicUrl, deps.timeZone, lingua),
    );
  }
  return rows.length;
}

/** The sentence of an offer, for logs and tests. */
export { offerSentence };
