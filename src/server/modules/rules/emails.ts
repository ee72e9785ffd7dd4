import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { shortDate } from '../../../shared/i18n/format.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';

/** Emails of the service's rules (issue 20), in the reader's language: plain text first, a simple HTML alternative. */

export interface NoticeBooking {
  email: string;
  nome: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  /** The owner's language (issue 36); Italian when not given. */
  lingua?: Lingua;
}

const when = (b: NoticeBooking) => ({ data: shortDate(b.dataPrenotazione), inizio: b.orarioInizio, fine: b.orarioFine });

function message(
  to: string,
  subject: string,
  title: string,
  name: string,
  lines: string[],
  link: { label: string; url: string },
  lingua: Lingua,
): MailMessage {
  const t = tFor(lingua);
  const hello = t('emailNotices.hello', { nome: name });
  const text = [hello, '', ...lines, `${link.label}: ${link.url}`, '', t('emailNotices.signature')].join('\n');
  const html = emailLayout(
    title,
    `<p>${escapeHtml(hello)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>${escapeHtml(link.label)}: <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return { to, subject, text, html };
}

/** A booking cancelled because a closure covers its day. */
export function closureCancelledEmail(b: NoticeBooking, closure: { motivo: string }, refunded: boolean, publicUrl: string): MailMessage {
  const lingua = b.lingua ?? 'it';
  const t = tFor(lingua);
  return message(
    b.email,
    t('emailNotices.rules.closureSubject'),
    t('emailNotices.rules.closureTitle'),
    b.nome,
    [
      t('emailNotices.rules.closureLine', { ...when(b), bici: b.biciNumero, motivo: closure.motivo }),
      ...(refunded ? [t('emailNotices.refunded')] : []),
    ],
    { label: t('emailNotices.rules.bookAnotherDay'), url: `${publicUrl}/dashboard` },
    lingua,
  );
}

/** A booking moved to another bike for the same window, because of its bike's maintenance. */
export function bookingMovedEmail(b: NoticeBooking, nuovaBici: string, publicUrl: string): MailMessage {
  const lingua = b.lingua ?? 'it';
  const t = tFor(lingua);
  return message(
    b.email,
    t('emailNotices.rules.movedSubject', { bici: nuovaBici }),
    t('emailNotices.rules.movedTitle'),
    b.nome,
    [t('emailNotices.rules.movedLine', { bici: nuovaBici }), t('emailNotices.rules.movedWhy', { bici: b.biciNumero, ...when(b) })],
    { label: t('emailNotices.rules.onDashboard'), url: `${publicUrl}/dashboard` },
    lingua,
  );
}

/** A booking cancelled because its bike is in maintenance and no other bike is free. */
export function maintenanceCancelledEmail(b: NoticeBooking, refunded: boolean, publicUrl: string): MailMessage {
  const lingua = b.lingua ?? 'it';
  const t = tFor(lingua);
  return message(
    b.email,
    t('emailNotices.rules.maintenanceSubject'),
    t('emailNotices.rules.maintenanceTitle'),
    b.nome,
    [
      t('emailNotices.rules.maintenanceLine', { ...when(b), bici: b.biciNumero }),
      ...(refunded ? [t('emailNotices.refunded')] : []),
    ],
    { label: t('emailNotices.rules.anotherSlot'), url: `${publicUrl}/dashboard` },
    lingua,
  );
}

/** A booking made for the user at the desk; an external's holds the payment link. */
export function deskBookingEmail(b: NoticeBooking & { id: number }, toPay: boolean, holdMinutes: number | null, publicUrl: string): MailMessage {
  const lingua = b.lingua ?? 'it';
  const t = tFor(lingua);
  const lines = [t('emailNotices.rules.deskLine', { bici: b.biciNumero, ...when(b) })];
  if (toPay) {
    lines.push(holdMinutes === null ? t('emailNotices.rules.payBeforeStart') : t('emailNotices.rules.payWithin', { minuti: holdMinutes }));
  }
  return message(
    b.email,
    t('emailNotices.rules.deskSubject', { bici: b.biciNumero, data: shortDate(b.dataPrenotazione) }),
    t('emailNotices.rules.deskTitle'),
    b.nome,
    lines,
    toPay
      ? { label: t('emailNotices.rules.payHere'), url: `${publicUrl}/payment/${b.id}` }
      : { label: t('emailNotices.rules.onDashboard'), url: `${publicUrl}/dashboard` },
    lingua,
  );
}
