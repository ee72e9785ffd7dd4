import { sql } from 'drizzle-orm';
import type { BookingDto } from '../../../shared/schemas/booking.js';
import { WAITLIST_MAX_PER_USER, type AdminWaitlistDto, type WaitDto, type WaitRequest } from '../../../shared/schemas/waitlist.js';
import { zonedToday } from '../../../shared/time.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { namedStatement } from '../../db/prepared.js';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import { asOf, availableBikes, type BookingDeps, type BookingUser, bringLifecycleUpToDate, getUserBooking, offerRows, resolveWindow, suspensionRefusal, USER_BOOKING_LOCK } from '../bookings/index.js';

type BookingReadDeps = Parameters<typeof getUserBooking>[0];
import { paymentProviderName } from '../payments/index.js';
import { suspensionOf } from '../rules/index.js';
import { OPEN, openAsOf, WAITLIST_LOCK } from './offers.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * The waitlist (issue 21, decision 025): join a window's line when no bike is free, leave it,
 * accept or decline an offer. The line and its offers are kept by `runOfferPass` (offers.ts).
 */

/** An open wait's row, as the user's list reads it. */
interface WaitRow extends Record<string, unknown> {
  id: number;
  data_prenotazione: string;
  orario_inizio: string;
  orario_fine: string;
  destinazione: string | null;
  stato: 'in_attesa' | 'offerta';
  created_at: Date | string;
  posizione: number;
  bloccata: boolean;
  bici_id: number | null;
  bici_numero: string | null;
  bici_modello: string | null;
  scade_at: Date | string | null;
  sede_id: number;
}

const waitDto = (r: WaitRow): WaitDto => ({
  id: r.id,
  dataPrenotazione: r.data_prenotazione,
  orarioInizio: r.orario_inizio,
  orarioFine: r.orario_fine,
  destinazione: r.destinazione,
  stato: r.stato,
  posizione: r.posizione,
  createdAt: new Date(r.created_at).toISOString(),
  bloccataDaPrenotazione: r.bloccata,
  sedeId: r.sede_id,
  offerta:
    r.stato === 'offerta' && r.bici_id !== null && r.scade_at !== null
      ? { biciId: r.bici_id, biciNumero: r.bici_numero!, biciModello: r.bici_modello!, scadeAt: new Date(r.scade_at).toISOString() }
      : null,
});

/**
 * A user's waits and offers as of now (GET /api/attese, the dashboard's render): one statement
 * planned once per connection (decision 071). Planned at each request it cost PostgreSQL 1.6 ms
 * of planning for 0.1 ms of execution (issue 51).
 */
const waitsStatement = namedStatement<WaitRow>('own_waits', () => {
  const at = sql`${asOf.AS_OF_PLACEHOLDERS.at}::timestamptz`;
  const live = asOf.bookingAsOf('p', asOf.AS_OF_PLACEHOLDERS.at, asOf.AS_OF_PLACEHOLDERS.minutes);
  return sql`
    select a.id, a.data_prenotazione::text as data_prenotazione, a.orario_inizio, a.orario_fine, a.destinazione, a.stato, a.created_at, a.sede_id,
           1 + (select count(*) from attese e
                 where e.stato in ${OPEN} and ${openAsOf(sql`e`, at)} and e.sede_id = a.sede_id and e.inizio < a.fine and e.fine > a.inizio
                   and (not e.prima_in_fila, e.created_at, e.id) < (not a.prima_in_fila, a.created_at, a.id))::int as posizione,
           exists (select 1 from prenotazioni p left join pagamenti pay on pay.prenotazione_id = p.id
                    where p.user_id = a.user_id and p.stato = 'attiva' and not ${live.void}) as bloccata,
           o.bici_id, b.numero as bici_numero, b.modello as bici_modello, o.offerta_scade_at as scade_at
      from attese a
      left join prenotazioni o on o.attesa_id = a.id and o.stato = 'offerta'
      left join biciclette b on b.id = o.bici_id
     where a.user_id = ${sql.placeholder('userId')} and a.stato in ${OPEN} and ${openAsOf(sql`a`, at)}
     order by (a.stato = 'offerta') desc, a.inizio, a.id`;
});

/**
 * GET /api/attese — the user's open waits, offers first, then by window. The place in line
 * is one more than the open waits joined earlier for a window that overlaps this one. Read as
 * of now (decision 035): a late job never shows a stale state, and the read writes nothing.
 */
export async function listWaits(deps: BookingReadDeps, userId: number): Promise<WaitDto[]> {
  // As of now (decision 035): waits and offers that are over do not show; nothing is written.
  const rows = await waitsStatement.run(deps.db, { ...(await asOf.asOfValues(deps, deps.clock.now())), userId });
  return rows.map(waitDto);
}

async function ownWait(deps: BookingReadDeps, userId: number, id: number): Promise<WaitDto> {
  const wait = (await listWaits(deps, userId)).find((w) => w.id === id);
  if (!wait) throw notFound(testo('waitlistApi.waitNotFound'), 'WAIT_NOT_FOUND');
  return wait;
}

/**
 * POST /api/attese — joins the line of a window with no bike free at a sede (the one asked
 * for, else the home sede; issue 47): the line is the sede's. The window is checked as
 * a booking's would be (hours, closures, horizon, duration, notice) and so is the user's
 * suspension; at most WAITLIST_MAX_PER_USER open waits, counted under the user's advisory
 * lock (the one a booking takes, decision 024); one per window (a unique index).
 */
export async function joinWait(
  deps: BookingDeps,
  user: BookingUser & { sedeId: number },
  input: WaitRequest & { destinazione: string | null },
): Promise<WaitDto> {
  const limits = user.ruolo !== 'admin';
  const { rules, inizio, fine, sedeId } = await resolveWindow(deps, input, limits, { home: user.sedeId });
  const now = deps.clock.now();
  if (limits && rules.sospensione) {
    const suspension = await suspensionOf(deps.db, user.id, rules, now);
    if (suspension) throw forbidden(suspensionRefusal(suspension.fino, rules.sospensione, deps.config.timeZone), 'SUSPENDED');
  }
  // Waiting makes sense only when the form offered nothing: a free bike is booked, not awaited.
  const free = JSON.parse((await availableBikes(deps, { ...input, sedeId }, limits, { home: user.sedeId })).json) as unknown[];
  if (free.length > 0) throw conflict(testo('waitlistApi.bikeFree'), 'BIKE_FREE');
  let id: number;
  try {
    id = await runTransaction(deps.db, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${USER_BOOKING_LOCK}, ${user.id})`);
      const { rows: open } = await tx.execute<{ n: number }>(
        sql`select count(*)::int as n from attese where user_id = ${user.id} and stato in ${OPEN}`,
      );
      if ((open[0]?.n ?? 0) >= WAITLIST_MAX_PER_USER) throw conflict(testo('waitlistApi.waitlistFull', { max: WAITLIST_MAX_PER_USER }), 'WAITLIST_FULL');
      // triggers: tempo_liberato, NOTIFY bicielis_tempo_liberato
      const { rows } = await tx.execute<{ id: number }>(sql`
        insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, created_at, sede_id)
        values (${user.id}, ${input.dataPrenotazione}::date, ${input.orarioInizio}, ${input.orarioFine},
                ${inizio.toISOString()}::timestamptz, ${fine.toISOString()}::timestamptz, ${input.destinazione},
                'in_attesa', ${now.toISOString()}::timestamptz, ${sedeId})
        returning id`);
      return rows[0]!.id;
    });
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'attese_one_per_window') throw conflict(testo('waitlistApi.alreadyWaiting'), 'ALREADY_WAITING');
    throw err;
  }
  return ownWait(deps, user.id, id);
}

/**
 * Ends an open wait of the user (`uscita` when leaving, `rinunciata` when declining an offer),
 * deleting its offer if any; the freed bike goes to the next in line at once. Under the
 * pass's lock, so that a pass never sees half of it.
 */
async function endWait(deps: BookingReadDeps, userId: number, id: number, how: 'uscita' | 'rinunciata'): Promise<void> {
  const now = deps.clock.now().toISOString();
  const ended = await runTransaction(deps.db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${WAITLIST_LOCK})`);
    const { rows } = await tx.execute<{ stato: string }>(
      sql`select stato from attese where id = ${id} and user_id = ${userId} and stato in ${OPEN} for update`,
    );
    if (!rows[0]) return false;
    if (rows[0].stato === 'offerta') {
      // The offer's bike, then the offer (decision 023's order), as every writer of a bike's time.
      await tx.execute(sql`select b.id from biciclette b join prenotazioni o on o.bici_id = b.id
                            where o.attesa_id = ${id} and o.stato = 'offerta' for no key update of b`);
      await offerRows.withdrawOffer(tx, id);
    }
    await tx.execute(sql`update attese set stato = ${how}, ended_at = ${now}::timestamptz where id = ${id}`);
    return true;
  });
  if (!ended) throw notFound(testo('waitlistApi.waitNotFound'), 'WAIT_NOT_FOUND');
}

/** DELETE /api/attese/:id — `Esci dalla lista`. */
export async function leaveWait(deps: BookingReadDeps, userId: number, id: number): Promise<void> {
  await endWait(deps, userId, id, 'uscita');
}

/** POST /api/attese/:id/rinuncia — the offer passes to the next in line; the user's wait ends. */
export async function declineOffer(deps: BookingReadDeps, userId: number, id: number): Promise<void> {
  const wait = await ownWait(deps, userId, id);
  if (!wait.offerta) throw conflict(testo('waitlistApi.offerGone'), 'OFFER_GONE');
  await endWait(deps, userId, id, 'rinunciata');
}

/**
 * POST /api/attese/:id/accetta — the offer becomes a normal booking under every rule: the
 * same row turns `attiva` (the bike's time is held without a gap), with an external's pending
 * payment and the usual hold counted from now. The locks are a booking's (decision 024): the
 * user's advisory lock when the weekly limit or the suspension is on, then the bike, then the
 * row. A user with an active booking cannot accept: the offer passes on (testo('waitlistApi.offerBlocked')).
 */
export async function acceptOffer(deps: BookingDeps, user: BookingUser, id: number): Promise<BookingDto> {
  await bringLifecycleUpToDate(deps);
  const wait = await ownWait(deps, user.id, id);
  if (!wait.offerta) throw conflict(testo('waitlistApi.offerGone'), 'OFFER_GONE');
  const limits = user.ruolo !== 'admin';
  const { rules } = await resolveWindow(deps, wait, limits, { home: wait.sedeId });
  const now = deps.clock.now();
  const provider = paymentProviderName(deps.config);
  let bookingId: number;
  try {
    bookingId = await runTransaction(deps.db, async (tx) => {
      const booked = await offerRows.bookOffer(tx, {
        user,
        attesaId: id,
        biciId: wait.offerta!.biciId,
        dataPrenotazione: wait.dataPrenotazione,
        rules,
        limits,
        now,
        timeZone: deps.config.timeZone,
        provider,
      });
      if (booked === null) throw conflict(testo('waitlistApi.offerGone'), 'OFFER_GONE');
      await tx.execute(sql`update attese set stato = 'servita', ended_at = ${now.toISOString()}::timestamptz where id = ${id}`);
      // The user's other offers cannot be accepted while this booking is active: their bikes
      // go to the next in line (after the commit), their waits keep their place.
      const back = await offerRows.withdrawOtherOffers(tx, user.id, id);
      if (back.length > 0) {
        await tx.execute(sql`update attese set stato = 'in_attesa' where id in (${sql.join(back.map((w) => sql`${w}`), sql`, `)})`);
      }
      return booked;
    });
  } catch (err) {
    if (!(err instanceof AppError) && pgErrorCode(err) === '23505' && pgConstraint(err) === 'prenotazioni_one_active_per_user') {
      // Not until the active booking is over: the bike goes to the next in line now.
      await endWait(deps, user.id, id, 'rinunciata').catch(() => undefined);
      throw conflict(testo('waitlistApi.offerBlocked'), 'ALREADY_ACTIVE');
    }
    throw err;
  }
  return getUserBooking(deps, user.id, bookingId);
}

/**
 * Today's lines, one row a window and sede (the admin's `Lista d'attesa`, and the /admin render):
 * a statement of fixed text, planned once per connection (issue 51: 0.3 ms of planning for
 * 0.05 ms of running). Every sede, or the one asked for.
 */
const adminWaitlistStatement = namedStatement<{ data: string; inizio: string; fine: string; sede_id: number; in_attesa: number; offerte: number }>(
  'admin_waitlist',
  () => sql`
    select a.data_prenotazione::text as data, a.orario_inizio as inizio, a.orario_fine as fine, a.sede_id,
           count(*) filter (where a.stato = 'in_attesa')::int as in_attesa,
           count(*) filter (where a.stato = 'offerta')::int as offerte
      from attese a
     where a.stato in ${OPEN} and ${openAsOf(sql`a`, sql`${asOf.AS_OF_PLACEHOLDERS.at}::timestamptz`)}
       and a.data_prenotazione = ${sql.placeholder('today')}::date and a.inizio > ${asOf.AS_OF_PLACEHOLDERS.at}::timestamptz
       and (${sql.placeholder('sede')}::int is null or a.sede_id = ${sql.placeholder('sede')}::int)
     group by a.data_prenotazione, a.orario_inizio, a.orario_fine, a.inizio, a.sede_id
     order by a.inizio, a.orario_fine, a.sede_id`,
);

/** GET /api/admin/attese — today's lines (TZ_APP): the windows not started, waiting and offered, one per window and sede (issue 47). */
export async function adminWaitlist(deps: BookingReadDeps, sedeId?: number): Promise<AdminWaitlistDto> {
  const now = deps.clock.now();
  const today = zonedToday(now, deps.config.timeZone);
  const rows = await adminWaitlistStatement.run(deps.db, { at: now.toISOString(), today, sede: sedeId ?? null });
  const finestre = rows.map((r) => ({
    dataPrenotazione: r.data,
    orarioInizio: r.inizio,
    orarioFine: r.fine,
    sedeId: r.sede_id,
    inAttesa: r.in_attesa,
    offerteAperte: r.offerte,
  }));
  return {
    data: today,
    finestre,
    inAttesa: finestre.reduce((n, f) => n + f.inAttesa, 0),
    offerteAperte: finestre.reduce((n, f) => n + f.offerteAperte, 0),
  };
}

/**
 * Puts a person first in the line of a window (issue 35): their booking was cancelled because
 * its bike had a problem at the pick-up and no other bike was free. In the caller's transaction;
 * a wait they already had for the window moves to the front. The insert records freed time
 * (drizzle/0018_freed_time.sql), so the dispatcher offers the first bike that frees up.
 */
export async function putFirstInLine(
  tx: Pick<Tx, 'execute'>,
  w: {
    userId: number;
    dataPrenotazione: string;
    orarioInizio: string;
    orarioFine: string;
    inizio: Date;
    fine: Date;
    destinazione: string | null;
    /** The cancelled booking's sede (issue 47): the line is that sede's. */
    sedeId: number;
  },
  now: Date,
): Promise<void> {
  // triggers: tempo_liberato, NOTIFY bicielis_tempo_liberato; bicielis_sede_predefinita when no sede is given
  await tx.execute(sql`
    insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, prima_in_fila, created_at, sede_id)
    values (${w.userId}, ${w.dataPrenotazione}::date, ${w.orarioInizio}, ${w.orarioFine}, ${w.inizio.toISOString()}::timestamptz,
            ${w.fine.toISOString()}::timestamptz, ${w.destinazione}, true, ${now.toISOString()}::timestamptz, ${w.sedeId ?? null}::int)
    on conflict (user_id, inizio, fine) where stato in ('in_attesa', 'offerta') do update set prima_in_fila = true`);
}
