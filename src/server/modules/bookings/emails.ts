import { DAMAGE_CATEGORY_LABELS, type DamageCategory } from '../../../shared/damage.js';
import { tFor } from '../../../shared/i18n/all.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';
import type { UserNotice } from '../notifications/index.js';

/** Italian notices of the ride (decision 022): plain text first, a simple HTML alternative. */

/** dd/MM/yyyy of a `YYYY-MM-DD` date. */
export const italianDate = (date: string) => date.split('-').reverse().join('/');


export interface RideInfo {
  nome: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
}

export function notice(title: string, lines: string[], url: string, push: { title: string; body: string }): UserNotice {
  const text = [...lines, '', `Le tue prenotazioni: ${url}`, '', 'Il team BiciElis'].join('\n');
  const html = emailLayout(
    title,
    `${lines
      .filter((l) => l !== '')
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('\n')}
<p><a href="${escapeHtml(url)}">Le tue prenotazioni</a></p>
<p>Il team BiciElis</p>`,
  );
  return { subject: title, text, html, push: { ...push, url } };
}

const dashboard = (publicUrl: string) => `${publicUrl}/dashboard`;

/** 30 minutes before the start, not yet picked up. */
export function startReminder(r: RideInfo, publicUrl: string): UserNotice {
  return notice(
    `Promemoria: la tua bicicletta alle ${r.orarioInizio}`,
    [
      `Ciao ${r.nome},`,
      '',
      `alle ${r.orarioInizio} inizia la tua prenotazione della bicicletta n. ${r.biciNumero} (fino alle ${r.orarioFine}).`,
      'Quando la prendi, segna "Ritirata" sulla pagina delle prenotazioni: se non la ritiri entro poco dall\'inizio, la prenotazione viene annullata.',
    ],
    dashboard(publicUrl),
    { title: `Bici n. ${r.biciNumero} alle ${r.orarioInizio}`, body: 'Ricordati di segnare "Ritirata" quando la prendi.' },
  );
}

/** 15 minutes before the end of a ride in progress. */
export function endReminder(r: RideInfo, publicUrl: string): UserNotice {
  return notice(
    `Promemoria: riconsegna la bicicletta entro le ${r.orarioFine}`,
    [
      `Ciao ${r.nome},`,
      '',
      `la tua prenotazione della bicicletta n. ${r.biciNumero} termina alle ${r.orarioFine}.`,
      'Riportala in tempo e segna "Riconsegnata": dopo di te qualcuno potrebbe averla prenotata.',
    ],
    dashboard(publicUrl),
    { title: `Riconsegna entro le ${r.orarioFine}`, body: `La bici n. ${r.biciNumero} va riportata entro le ${r.orarioFine}.` },
  );
}

/** At the end of a ride not returned. */
export function overdueUserNotice(r: RideInfo, publicUrl: string): UserNotice {
  return notice(
    `La bicicletta n. ${r.biciNumero} è in ritardo`,
    [
      `Ciao ${r.nome},`,
      '',
      `la tua prenotazione della bicicletta n. ${r.biciNumero} è terminata alle ${r.orarioFine}, ma la bici non risulta riconsegnata.`,
      'Riportala al più presto e segna "Riconsegnata": finché non torna, nessun altro può usarla.',
    ],
    dashboard(publicUrl),
    { title: `Bici n. ${r.biciNumero} in ritardo`, body: 'Riportala al più presto e segna "Riconsegnata".' },
  );
}

/** To the owner of the bike's next booking, when the ride before it is late. */
export function nextBookingWarning(next: RideInfo, publicUrl: string): UserNotice {
  return notice(
    `La bicicletta n. ${next.biciNumero} potrebbe non essere pronta`,
    [
      `Ciao ${next.nome},`,
      '',
      `la bicicletta n. ${next.biciNumero} della tua prenotazione del ${italianDate(next.dataPrenotazione)} dalle ${next.orarioInizio} alle ${next.orarioFine} non è ancora stata riconsegnata da chi l'ha usata prima di te.`,
      'Lo staff del collegio è stato avvisato. Se preferisci, puoi annullare la prenotazione e sceglierne un\'altra.',
    ],
    dashboard(publicUrl),
    { title: `Bici n. ${next.biciNumero} non ancora riconsegnata`, body: 'Potrebbe non essere pronta per la tua prenotazione.' },
  );
}

export interface OverdueLine {
  utente: string;
  email: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioFine: string;
}

/**
 * One email to the admins: the rides that have just become late, and what the fleet's heal did
 * about their bookings and those of broken bikes (issue 35: moved, cancelled), one line each.
 */
export function overdueAdminsEmail(to: string, rides: OverdueLine[], publicUrl: string, fleetLines: string[] = []): MailMessage {
  const line = (r: OverdueLine) =>
    `bici n. ${r.biciNumero}: ${r.utente} (${r.email}), doveva tornare il ${italianDate(r.dataPrenotazione)} alle ${r.orarioFine}`;
  const subject =
    rides.length === 0
      ? 'BiciElis: prenotazioni spostate o annullate'
      : rides.length === 1
        ? `BiciElis: 1 bicicletta in ritardo`
        : `BiciElis: ${rides.length} biciclette in ritardo`;
  const adminUrl = `${publicUrl}/admin`;
  const lateIntro = 'Queste biciclette non sono state riconsegnate alla fine della prenotazione:';
  const fleetIntro = 'Prenotazioni spostate o annullate dal sistema (bici in ritardo o fuori uso):';
  const text = [
    ...(rides.length > 0 ? [lateIntro, '', ...rides.map((r) => `- ${line(r)}`), ''] : []),
    ...(fleetLines.length > 0 ? [fleetIntro, '', ...fleetLines.map((l) => `- ${l}`), ''] : []),
    `Le vedi su ${adminUrl}, dove puoi anche registrarne la riconsegna.`,
  ].join('\n');
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
  const html = emailLayout(
    subject,
    `${rides.length > 0 ? `<p>${lateIntro}</p>\n${list(rides.map(line))}` : ''}
${fleetLines.length > 0 ? `<p>${escapeHtml(fleetIntro)}</p>\n${list(fleetLines)}` : ''}
<p>Le vedi su <a href="${escapeHtml(adminUrl)}">${escapeHtml(adminUrl)}</a>, dove puoi anche registrarne la riconsegna.</p>`,
  );
  return { to, subject, text, html };
}

export interface DamageInfo {
  utente: string;
  email: string;
  biciNumero: string;
  biciModello: string;
  categoria: DamageCategory;
  descrizione: string;
}

/** To every active admin, after a return with a damage report. */
export function damageAdminEmail(to: string, d: DamageInfo, publicUrl: string, momento: 'riconsegna' | 'ritiro' = 'riconsegna'): MailMessage {
  const subject = `BiciElis: danno segnalato sulla bici n. ${d.biciNumero}`;
  const adminUrl = `${publicUrl}/admin`;
  const category = tFor('it')(DAMAGE_CATEGORY_LABELS[d.categoria]);
  const done = momento === 'ritiro' ? 'al ritiro ha trovato un problema sulla' : 'ha riconsegnato la';
  const what = momento === 'ritiro' ? 'e lo ha segnalato' : 'segnalando un danno';
  const text = [
    `${d.utente} (${d.email}) ${done} bicicletta n. ${d.biciNumero} (${d.biciModello}) ${what}.`,
    '',
    `Tipo: ${category}`,
    `Descrizione: ${d.descrizione}`,
    '',
    `La bici è stata messa in manutenzione. La segnalazione è su ${adminUrl}.`,
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>${escapeHtml(d.utente)} (${escapeHtml(d.email)}) ${done} bicicletta <strong>n. ${escapeHtml(d.biciNumero)}</strong>
(${escapeHtml(d.biciModello)}) ${what}.</p>
<p><strong>Tipo:</strong> ${escapeHtml(category)}</p>
<p><strong>Descrizione:</strong> ${escapeHtml(d.descrizione)}</p>
<p>La bici è stata messa in manutenzione. La segnalazione è su <a href="${escapeHtml(adminUrl)}">${escapeHtml(adminUrl)}</a>.</p>`,
  );
  return { to, subject, text, html };
}
