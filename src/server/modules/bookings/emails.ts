import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { shortDate } from '../../../shared/i18n/format.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';
import type { UserNotice } from '../notifications/index.js';

/** Notices of the ride (decision 022), in the reader's language: plain text first, a simple HTML alternative. */

/** dd/MM/yyyy of a `YYYY-MM-DD` date. */
export const italianDate = (date: string) => date.split('-').reverse().join('/');

export interface RideInfo {
  nome: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
}

export function notice(title: string, lines: string[], url: string, push: { title: string; body: string }, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  const text = [...lines, '', t('emailNotices.ride.yourBookingsText', { url }), '', t('emailNotices.signature')].join('\n');
  const html = emailLayout(
    title,
    `${lines
      .filter((l) => l !== '')
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('\n')}
<p><a href="${escapeHtml(url)}">${t('emailNotices.ride.yourBookings')}</a></p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return { subject: title, text, html, push: { ...push, url } };
}

const dashboard = (publicUrl: string) => `${publicUrl}/dashboard`;

/** 30 minutes before the start, not yet picked up. */
export function startReminder(r: RideInfo, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  const v = { bici: r.biciNumero, inizio: r.orarioInizio, fine: r.orarioFine };
  return notice(
    t('emailNotices.start.subject', { inizio: r.orarioInizio }),
    [t('emailNotices.hello', { nome: r.nome }), '', t('emailNotices.start.line', v), t('emailNotices.start.markPickedUp')],
    dashboard(publicUrl),
    { title: t('pushNotices.start.title', { bici: r.biciNumero, inizio: r.orarioInizio }), body: t('pushNotices.start.body') },
    lingua,
  );
}

/** 15 minutes before the end of a ride in progress. */
export function endReminder(r: RideInfo, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  return notice(
    t('emailNotices.end.subject', { fine: r.orarioFine }),
    [t('emailNotices.hello', { nome: r.nome }), '', t('emailNotices.end.line', { bici: r.biciNumero, fine: r.orarioFine }), t('emailNotices.end.markReturned')],
    dashboard(publicUrl),
    { title: t('pushNotices.end.title', { fine: r.orarioFine }), body: t('pushNotices.end.body', { bici: r.biciNumero, fine: r.orarioFine }) },
    lingua,
  );
}

/** At the end of a ride not returned. */
export function overdueUserNotice(r: RideInfo, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  return notice(
    t('emailNotices.overdue.subject', { bici: r.biciNumero }),
    [t('emailNotices.hello', { nome: r.nome }), '', t('emailNotices.overdue.line', { bici: r.biciNumero, fine: r.orarioFine }), t('emailNotices.overdue.bringBack')],
    dashboard(publicUrl),
    { title: t('pushNotices.overdue.title', { bici: r.biciNumero }), body: t('pushNotices.overdue.body') },
    lingua,
  );
}

/** To the owner of the bike's next booking, when the ride before it is late. */
export function nextBookingWarning(next: RideInfo, publicUrl: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  return notice(
    t('emailNotices.next.subject', { bici: next.biciNumero }),
    [
      t('emailNotices.hello', { nome: next.nome }),
      '',
      t('emailNotices.next.line', { bici: next.biciNumero, data: shortDate(next.dataPrenotazione), inizio: next.orarioInizio, fine: next.orarioFine }),
      t('emailNotices.next.staffTold'),
    ],
    dashboard(publicUrl),
    { title: t('pushNotices.next.title', { bici: next.biciNumero }), body: t('pushNotices.next.body') },
    lingua,
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
 * about their bookings and those of broken bikes (issue 35: moved, cancelled), one line each,
 * in the admin's language.
 */
export function overdueAdminsEmail(to: string, rides: OverdueLine[], publicUrl: string, fleetLines: string[] = [], lingua: Lingua = 'it'): MailMessage {
  const t = tFor(lingua);
  const line = (r: OverdueLine) =>
    t('emailNotices.overdueAdmins.line', { bici: r.biciNumero, utente: r.utente, email: r.email, data: shortDate(r.dataPrenotazione), fine: r.orarioFine });
  const subject = rides.length === 0 ? t('emailNotices.overdueAdmins.subjectFleet') : t('emailNotices.overdueAdmins.subjectLate', { count: rides.length });
  const adminUrl = `${publicUrl}/admin`;
  const lateIntro = t('emailNotices.overdueAdmins.lateIntro');
  const fleetIntro = t('emailNotices.overdueAdmins.fleetIntro');
  const text = [
    ...(rides.length > 0 ? [lateIntro, '', ...rides.map((r) => `- ${line(r)}`), ''] : []),
    ...(fleetLines.length > 0 ? [fleetIntro, '', ...fleetLines.map((l) => `- ${l}`), ''] : []),
    t('emailNotices.overdueAdmins.seeThem', { url: adminUrl }),
  ].join('\n');
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
  const html = emailLayout(
    subject,
    `${rides.length > 0 ? `<p>${lateIntro}</p>\n${list(rides.map(line))}` : ''}
${fleetLines.length > 0 ? `<p>${escapeHtml(fleetIntro)}</p>\n${list(fleetLines)}` : ''}
<p>${t('emailNotices.overdueAdmins.seeThem', { url: `<a href="${escapeHtml(adminUrl)}">${escapeHtml(adminUrl)}</a>` })}</p>`,
    lingua,
  );
  return { to, subject, text, html };
}

