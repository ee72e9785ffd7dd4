import { countBooking } from '../../metrics.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { shortDate } from '../../../shared/i18n/format.js';
import { bookingEmails } from '../bookings/index.js';
import { activeAdmins, notifyUser, type UserNotice } from '../notifications/index.js';
import { bikeAtSede, sediNames } from '../sedi/index.js';
import { healFleet, type FleetDeps, type HealCancel, type HealMove, type HealOutcome, type HealRow } from './heal.js';

/*
 * What the fleet's heal tells (issue 35): each person whose booking moved, could not move, or
 * was cancelled, by email and web push, once (after the commit of the pass that decided it); and
 * the admins, one line per move or cancellation.
 */

const dashboard = (publicUrl: string) => `${publicUrl}/dashboard`;
const when = (r: HealRow, lingua: Lingua) =>
  tFor(lingua)('emailNotices.fleet.when', { data: shortDate(r.data_prenotazione), inizio: r.orario_inizio, fine: r.orario_fine });

/** Why the bike left behind cannot be used, as the person reads it. */
const whyOut = (m: { causa: HealMove['causa'] }, numero: string, lingua: Lingua) =>
  m.causa === 'ritardo'
    ? tFor(lingua)('emailNotices.fleet.whyLate', { bici: numero })
    : m.causa === 'problema'
      ? tFor(lingua)('emailNotices.fleet.whyProblem', { bici: numero })
      : tFor(lingua)('emailNotices.fleet.whyBroken', { bici: numero });

/** `La tua prenotazione è stata spostata sulla bici n. 07: la bici n. 03 non è ancora rientrata`. */
export function movedSentence(m: Pick<HealMove, 'causa'> & { from: string; to: string }, lingua: Lingua = 'it'): string {
  return tFor(lingua)('emailNotices.fleet.moved', { to: m.to, why: whyOut(m, m.from, lingua) });
}

export function movedNotice(m: HealMove, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  const sentence = movedSentence({ causa: m.causa, from: m.row.numero, to: m.to.numero }, lingua);
  return bookingEmails.notice(
    sentence,
    [t('emailNotices.hello', { nome: m.row.nome }), '', `${sentence}.`, t('emailNotices.fleet.movedSame', { when: when(m.row, lingua), to: m.to.numero })],
    dashboard(publicUrl),
    { title: t('pushNotices.moved.title', { to: m.to.numero }), body: `${sentence}.` },
    lingua,
  );
}

/** `La bici n. 03 non è ancora rientrata e al momento non ce n'è un'altra libera`. */
export const absentSentence = (numero: string, lingua: Lingua = 'it') => tFor(lingua)('emailNotices.fleet.absent', { bici: numero });

export function absentNotice(r: HealRow, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  const sentence = absentSentence(r.numero, lingua);
  return bookingEmails.notice(
    sentence,
    [
      t('emailNotices.hello', { nome: r.nome }),
      '',
      `${sentence}.`,
      t('emailNotices.fleet.absentChoose', { when: when(r, lingua) }),
      t('emailNotices.fleet.absentCancel'),
      t('emailNotices.fleet.absentWait'),
    ],
    dashboard(publicUrl),
    { title: t('pushNotices.absent.title', { bici: r.numero }), body: t('pushNotices.absent.body') },
    lingua,
  );
}

export function cancelledNotice(c: HealCancel, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  const r = c.row;
  const why =
    c.motivo === 'bici_non_rientrata'
      ? t('emailNotices.fleet.cancelledLate', { bici: r.numero })
      : t('emailNotices.fleet.cancelledBroken', { bici: r.numero });
  return bookingEmails.notice(
    t('emailNotices.fleet.cancelledSubject'),
    [
      t('emailNotices.hello', { nome: r.nome }),
      '',
      t('emailNotices.fleet.cancelledLine', { when: when(r, lingua), why }),
      t('emailNotices.fleet.notNoShow'),
      ...(c.rimborsata ? [t('emailNotices.refunded')] : []),
      t('emailNotices.fleet.bookAnother'),
    ],
    dashboard(publicUrl),
    { title: t('pushNotices.cancelled.title'), body: t('pushNotices.cancelled.body', { why: `${why.charAt(0).toUpperCase()}${why.slice(1)}` }) },
    lingua,
  );
}

/** One line per move and cancellation, for the admins' email, in the admin's language. */
export function fleetAdminLines(o: HealOutcome, lingua: Lingua = 'it'): string[] {
  const t = tFor(lingua);
  const person = (r: HealRow) => `${`${r.nome} ${r.cognome}`.trim()} (${r.email})`;
  return [
    ...o.moved.map((m) =>
      t('emailNotices.fleet.adminMoved', { persona: person(m.row), when: when(m.row, lingua), from: m.row.numero, to: m.to.numero, why: whyOut(m, m.row.numero, lingua) }),
    ),
    ...o.cancelled.map((c) => {
      const values = {
        persona: person(c.row),
        when: when(c.row, lingua),
        bici: c.row.numero,
        reason: c.motivo === 'bici_non_rientrata' ? t('emailNotices.fleet.reasonLate') : t('emailNotices.fleet.reasonBroken'),
      };
      return c.rimborsata ? t('emailNotices.fleet.adminCancelledRefunded', values) : t('emailNotices.fleet.adminCancelled', values);
    }),
  ];
}

/**
 * Tells everyone a pass decided about (after its commit): the people by email and push; the
 * admins by one email, unless the caller puts the lines in its own (the minute job's late email).
 */
export async function tellHealOutcome(
  deps: Pick<FleetDeps, 'db' | 'mailer' | 'push' | 'config' | 'log' | 'metrics'>,
  o: HealOutcome,
  admins: 'email' | 'caller' = 'email',
): Promise<void> {
  const url = deps.config.publicUrl;
  // Counted once committed, in the metrics of the app owning `db` (decision 032).
  countBooking(deps.metrics, 'moved', o.moved.length);
  countBooking(deps.metrics, 'fleet_cancelled', o.cancelled.length);
  if (o.moved.length + o.told.length + o.cancelled.length === 0) return;
  o = await namingSede(deps, o);
  for (const m of o.moved) if (m.causa !== 'problema') await notifyUser(deps, m.row.user_id, (lingua) => movedNotice(m, url, lingua));
  for (const r of o.told) await notifyUser(deps, r.user_id, (lingua) => absentNotice(r, url, lingua));
  for (const c of o.cancelled) await notifyUser(deps, c.row.user_id, (lingua) => cancelledNotice(c, url, lingua));
  if (admins === 'caller' || fleetAdminLines(o).length === 0) return;
  for (const admin of await activeAdmins(deps.db)) {
    try {
      await deps.mailer.send(bookingEmails.overdueAdminsEmail(admin.email, [], url, fleetAdminLines(o, admin.lingua), admin.lingua));
    } catch (err) {
      deps.log.error({ err }, 'fleet email to the admins not sent');
    }
  }
}

/**
 * The outcome with each bike named with its sede when the install has several (`07 · Residenza
 * Nord`, issue 47): a move stays in its sede, so the bike it goes to says where.
 */
async function namingSede(deps: Pick<FleetDeps, 'db'>, o: HealOutcome): Promise<HealOutcome> {
  const sedi = await sediNames(deps.db);
  if (!sedi.several) return o;
  const at = (r: HealRow, numero: string) => bikeAtSede(sedi, numero, r.sede_id);
  return {
    ...o,
    moved: o.moved.map((m) => ({ ...m, to: { ...m.to, numero: at(m.row, m.to.numero) } })),
    told: o.told.map((r) => ({ ...r, numero: at(r, r.numero) })),
    cancelled: o.cancelled.map((c) => ({ ...c, row: { ...c.row, numero: at(c.row, c.row.numero) } })),
  };
}

/**
 * The fleet's pass (issue 35): heal at `now`, then tell what it decided. buildApp hands it to
 * the freed-time dispatcher (run before each offer pass); the minute job runs it too. A failure
 * is logged and thrown: no waitlist offer goes out ahead of a booking it would move.
 */
export async function fleetPass(deps: FleetDeps, now = deps.clock.now(), admins: 'email' | 'caller' = 'email'): Promise<HealOutcome> {
  try {
    const healed = await healFleet(deps, now);
    await tellHealOutcome(deps, healed, admins);
    return healed;
  } catch (err) {
    deps.log.error({ err }, 'fleet heal failed');
    throw err;
  }
}
