import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import type { Mailer } from '../../integrations/mailer.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import { activeAdmins, notifyUser, type PushSender } from '../notifications/index.js';
import { bikeAtSede, NO_SEDI, sediNames, type SediNames } from '../sedi/index.js';
import {
  endReminder,
  nextBookingWarning,
  overdueAdminsEmail,
  overdueUserNotice,
  startReminder,
  type OverdueLine,
  type RideInfo,
} from './emails.js';

/** Minutes before the start, and before the end, at which the reminders go out. */
export const START_REMINDER_MINUTES = 30;
export const END_REMINDER_MINUTES = 15;

export interface NoticeDeps {
  db: Db;
  mailer: Mailer;
  push?: PushSender | undefined;
  config: { publicUrl: string };
  log: { error(obj: object, msg: string): void };
}

export interface NoticeResult {
  startReminders: number;
  endReminders: number;
  overdue: number;
  nextWarned: number;
}

interface ClaimedRow extends Record<string, unknown> {
  id: number;
  user_id: number;
  nome: string;
  cognome: string;
  email: string;
  numero: string;
  sede_id: number;
  data_prenotazione: string;
  orario_inizio: string;
  orario_fine: string;
}

const rideInfo = (r: ClaimedRow, sedi: SediNames): RideInfo => ({
  nome: r.nome,
  biciNumero: bikeAtSede(sedi, r.numero, r.sede_id),
  dataPrenotazione: r.data_prenotazione,
  orarioInizio: r.orario_inizio,
  orarioFine: r.orario_fine,
});

/**
 * A claim (an UPDATE of active booking rows) in the lock order of decision 023: the bikes of
 * the bookings `due` selects first, in id order, then the bookings. An active booking whose
 * row is rewritten is checked again by the exclusion constraint, which could otherwise wait
 * on a booking being inserted under its bike's lock while that insert waits for this row.
 */
async function claimUnderBikeLocks<T>(db: Db, due: SQL, claim: (tx: Tx) => Promise<T>): Promise<T> {
  return runTransaction(db, async (tx) => {
    await tx.execute(sql`
      select b.id from biciclette b
       where b.id in (select p.bici_id from prenotazioni p where ${due})
       order by b.id
         for no key update of b`);
    return claim(tx);
  });
}

/** Reminders are on unless the user turned them off (no row: on). */
const remindersOn = sql`coalesce((select pu.promemoria from preferenze_utente pu where pu.user_id = p.user_id), true)`;

/**
 * The ride's notices due at `now` (decision 022), run by the life-cycle job after the life
 * cycle itself. Each notice is claimed by one UPDATE … WHERE x_at IS NULL … RETURNING before
 * it is sent: two processes (or two runs) racing claim each booking once, since the second
 * UPDATE waits for the first's row lock and then sees the column set. A claimed notice whose
 * email then fails is not retried (logged): a reminder late by a minute is worth less than
 * a reminder sent twice.
 */
export async function sendRideNotices(
  deps: NoticeDeps,
  now: Date,
  fleetLines: (lingua: Lingua) => string[] = () => [],
): Promise<NoticeResult> {
  const at = now.toISOString();
  const claimedColumns = sql`p.id, p.user_id, u.nome, u.cognome, u.email, b.numero, b.sede_id,
    p.data_prenotazione::text as data_prenotazione, p.orario_inizio, p.orario_fine`;
  // A reminder claimed: its column set to now on the due bookings, under their bikes' locks.
  const claimReminders = (sentAt: 'promemoria_inizio_at' | 'promemoria_fine_at', due: SQL) =>
    claimUnderBikeLocks(deps.db, due, (tx) =>
      // triggers: disponibilita_modifiche
      tx.execute<ClaimedRow>(sql`
        update prenotazioni p set ${sql.identifier(sentAt)} = ${at}::timestamptz
          from users u, biciclette b
         where u.id = p.user_id and b.id = p.bici_id and ${due}
        returning ${claimedColumns}`),
    );

  // 30 minutes before the start, not picked up; not for bookings made inside that half hour.
  const startDue = sql`p.promemoria_inizio_at is null and p.stato = 'attiva' and p.ritirata_at is null
       and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${at}::timestamptz, ${at}::timestamptz + make_interval(mins => ${START_REMINDER_MINUTES}), '(]')
       and p.inizio > ${at}::timestamptz
       and p.created_at <= p.inizio - make_interval(mins => ${START_REMINDER_MINUTES})
       and ${remindersOn}`;
  const starts = await claimReminders('promemoria_inizio_at', startDue);

  // 15 minutes before the end of a ride in progress.
  const endDue = sql`p.promemoria_fine_at is null and p.stato = 'attiva' and p.ritirata_at is not null
       and p.fine > ${at}::timestamptz
       and p.fine <= ${at}::timestamptz + make_interval(mins => ${END_REMINDER_MINUTES})
       and ${remindersOn}`;
  const ends = await claimReminders('promemoria_fine_at', endDue);

  // At the end of a ride not returned: in ritardo. Whatever the reminder preference (this is
  // not a reminder). With each, the owner of the bike's next active booking still on it, if any
  // (the minute job heals first, issue 35: a booking moved to a free bike is told that instead).
  const lateDue = sql`p.ritardo_avvisato_at is null and p.stato = 'attiva' and p.ritirata_at is not null
         and p.fine <= ${at}::timestamptz`;
  // triggers: disponibilita_modifiche
  const late = await claimUnderBikeLocks(deps.db, lateDue, (tx) =>
    tx.execute<
      ClaimedRow & { next_user_id: number | null; next_nome: string | null; next_data: string | null; next_inizio: string | null; next_fine: string | null }
    >(sql`
    with claimed as (
      update prenotazioni p set ritardo_avvisato_at = ${at}::timestamptz
       where ${lateDue}
      returning p.id, p.user_id, p.bici_id, p.fine, p.data_prenotazione, p.orario_inizio, p.orario_fine
    )
    select c.id, c.user_id, u.nome, u.cognome, u.email, b.numero, b.sede_id, c.data_prenotazione::text as data_prenotazione,
           c.orario_inizio, c.orario_fine,
           n.user_id as next_user_id, nu.nome as next_nome, n.data_prenotazione::text as next_data,
           n.orario_inizio as next_inizio, n.orario_fine as next_fine
      from claimed c
      join users u on u.id = c.user_id
      join biciclette b on b.id = c.bici_id
      left join lateral (
        select x.user_id, x.data_prenotazione, x.orario_inizio, x.orario_fine from prenotazioni x
         where x.bici_id = c.bici_id and x.stato = 'attiva' and x.id <> c.id and x.inizio >= c.fine
         order by x.inizio limit 1) n on true
      left join users nu on nu.id = n.user_id
     order by c.fine, c.id`),
  );

  const url = deps.config.publicUrl;
  // The bike's sede is named only with several sedi (issue 47); read once, when there is something to tell.
  const sedi: SediNames =
    starts.rows.length + ends.rows.length + late.rows.length > 0 ? await sediNames(deps.db) : NO_SEDI;
  for (const r of starts.rows) await notifyUser(deps, r.user_id, (lingua) => startReminder(rideInfo(r, sedi), url, lingua));
  for (const r of ends.rows) await notifyUser(deps, r.user_id, (lingua) => endReminder(rideInfo(r, sedi), url, lingua));
  let nextWarned = 0;
  for (const r of late.rows) {
    await notifyUser(deps, r.user_id, (lingua) => overdueUserNotice(rideInfo(r, sedi), url, lingua));
    if (r.next_user_id !== null) {
      nextWarned += 1;
      await notifyUser(
        deps,
        r.next_user_id,
        (lingua) =>
          nextBookingWarning(
            { nome: r.next_nome!, biciNumero: bikeAtSede(sedi, r.numero, r.sede_id), dataPrenotazione: r.next_data!, orarioInizio: r.next_inizio!, orarioFine: r.next_fine! },
            url,
            lingua,
          ),
      );
    }
  }
  const fleetItalian = fleetLines('it');
  if (late.rows.length > 0 || fleetItalian.length > 0) {
    const lines: OverdueLine[] = late.rows.map((r) => ({
      utente: `${r.nome} ${r.cognome}`.trim(),
      email: r.email,
      biciNumero: bikeAtSede(sedi, r.numero, r.sede_id),
      dataPrenotazione: r.data_prenotazione,
      orarioFine: r.orario_fine,
    }));
    for (const admin of await activeAdmins(deps.db)) {
      try {
        await deps.mailer.send(overdueAdminsEmail(admin.email, lines, url, fleetLines(admin.lingua), admin.lingua));
      } catch (err) {
        deps.log.error({ err }, 'overdue list email not sent');
      }
    }
  }
  return { startReminders: starts.rows.length, endReminders: ends.rows.length, overdue: late.rows.length, nextWarned };
}
