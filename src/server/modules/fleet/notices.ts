import { countBooking } from '../../metrics.js';
import { italianDate, notice, overdueAdminsEmail } from '../bookings/index.js';
import { activeAdminEmails, notifyUser, type UserNotice } from '../notifications/index.js';
import type { FleetDeps, HealCancel, HealMove, HealOutcome, HealRow } from './heal.js';

/*
 * What the fleet's heal tells (issue 35): each person whose booking moved, could not move, or
 * was cancelled, by email and web push, once (after the commit of the pass that decided it); and
 * the admins, one line per move or cancellation.
 */

const dashboard = (publicUrl: string) => `${publicUrl}/dashboard`;
const when = (r: HealRow) => `del ${italianDate(r.data_prenotazione)} dalle ${r.orario_inizio} alle ${r.orario_fine}`;

/** Why the bike left behind cannot be used, as the person reads it. */
const whyOut = (m: { causa: HealMove['causa'] }, numero: string) =>
  m.causa === 'ritardo'
    ? `la bici n. ${numero} non è ancora rientrata`
    : m.causa === 'problema'
      ? `sulla bici n. ${numero} hai segnalato un problema`
      : `la bici n. ${numero} è fuori uso`;

/** `La tua prenotazione è stata spostata sulla bici n. 07: la bici n. 03 non è ancora rientrata`. */
export function movedSentence(m: Pick<HealMove, 'causa'> & { from: string; to: string }): string {
  return `La tua prenotazione è stata spostata sulla bici n. ${m.to}: ${whyOut(m, m.from)}`;
}

export function movedNotice(m: HealMove, publicUrl: string): UserNotice {
  const sentence = movedSentence({ causa: m.causa, from: m.row.numero, to: m.to.numero });
  return notice(
    sentence,
    [`Ciao ${m.row.nome},`, '', `${sentence}.`, `Data e orari della prenotazione ${when(m.row)} restano gli stessi: ritira la bici n. ${m.to.numero}.`],
    dashboard(publicUrl),
    { title: `Ora la tua bici è la n. ${m.to.numero}`, body: `${sentence}.` },
  );
}

/** `La bici n. 03 non è ancora rientrata e al momento non ce n'è un'altra libera`. */
export const absentSentence = (numero: string) => `La bici n. ${numero} non è ancora rientrata e al momento non ce n'è un'altra libera`;

export function absentNotice(r: HealRow, publicUrl: string): UserNotice {
  const sentence = absentSentence(r.numero);
  return notice(
    sentence,
    [
      `Ciao ${r.nome},`,
      '',
      `${sentence}.`,
      `Per la tua prenotazione ${when(r)} puoi scegliere dalla pagina delle prenotazioni:`,
      '- Annulla: la prenotazione viene annullata senza penalità e, se l’avevi pagata, rimborsata;',
      '- Aspetta: la teniamo e la spostiamo sulla prima bici che si libera per tutta la tua fascia oraria.',
    ],
    dashboard(publicUrl),
    { title: `Bici n. ${r.numero} non ancora rientrata`, body: 'Al momento non ce n’è un’altra libera: annulla o aspetta.' },
  );
}

export function cancelledNotice(c: HealCancel, publicUrl: string): UserNotice {
  const r = c.row;
  const why =
    c.motivo === 'bici_non_rientrata'
      ? `la bici n. ${r.numero} non è rientrata in tempo e non se n’è liberata un’altra`
      : `la bici n. ${r.numero} è fuori uso e nessun’altra bici è libera in quella fascia oraria`;
  return notice(
    'La tua prenotazione è stata annullata',
    [
      `Ciao ${r.nome},`,
      '',
      `la tua prenotazione ${when(r)} è stata annullata: ${why}.`,
      'Non conta come mancato ritiro.',
      ...(c.rimborsata ? ['Il pagamento di 2,50 € ti è stato rimborsato.'] : []),
      'Prenota un’altra fascia oraria, oppure mettiti in lista d’attesa: ti avvisiamo appena si libera una bici.',
    ],
    dashboard(publicUrl),
    { title: 'Prenotazione annullata', body: `${why.charAt(0).toUpperCase()}${why.slice(1)}. Prenota un’altra fascia.` },
  );
}

/** One line per move and cancellation, for the admins' email. */
export function fleetAdminLines(o: HealOutcome): string[] {
  const person = (r: HealRow) => `${`${r.nome} ${r.cognome}`.trim()} (${r.email})`;
  return [
    ...o.moved.map(
      (m) => `${person(m.row)}, ${when(m.row)}: spostata dalla bici n. ${m.row.numero} alla n. ${m.to.numero} (${whyOut(m, m.row.numero)})`,
    ),
    ...o.cancelled.map(
      (c) =>
        `${person(c.row)}, ${when(c.row)}: annullata sulla bici n. ${c.row.numero} (${
          c.motivo === 'bici_non_rientrata' ? 'non rientrata in tempo' : 'fuori uso'
        }, nessun’altra bici libera${c.rimborsata ? ', rimborsata' : ''})`,
    ),
  ];
}

/**
 * Tells everyone a pass decided about (after its commit): the people by email and push; the
 * admins by one email, unless the caller puts the lines in its own (the minute job's late email).
 */
export async function tellHealOutcome(
  deps: Pick<FleetDeps, 'db' | 'mailer' | 'push' | 'config' | 'log'>,
  o: HealOutcome,
  admins: 'email' | 'caller' = 'email',
): Promise<void> {
  const url = deps.config.publicUrl;
  // Counted once committed, in the metrics of the app owning `db` (decision 032).
  countBooking(deps.db, 'moved', o.moved.length);
  countBooking(deps.db, 'fleet_cancelled', o.cancelled.length);
  for (const m of o.moved) if (m.causa !== 'problema') await notifyUser(deps, m.row.user_id, movedNotice(m, url));
  for (const r of o.told) await notifyUser(deps, r.user_id, absentNotice(r, url));
  for (const c of o.cancelled) await notifyUser(deps, c.row.user_id, cancelledNotice(c, url));
  const lines = fleetAdminLines(o);
  if (admins === 'caller' || lines.length === 0) return;
  for (const to of await activeAdminEmails(deps.db)) {
    try {
      await deps.mailer.send(overdueAdminsEmail(to, [], url, lines));
    } catch (err) {
      deps.log.error({ err }, 'fleet email to the admins not sent');
    }
  }
}
