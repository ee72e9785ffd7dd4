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

type Words = { subject: string; title: string; lines: string[]; link: { label: string; url: string } };

/** The email to `b`'s owner, in their language (Italian when not given): `words` says it in that language. */
function message(b: NoticeBooking, words: (t: ReturnType<typeof tFor>) => Words): MailMessage {
  const lingua = b.lingua ?? 'it';
  const t = tFor(lingua);
  const { subject, title, lines, link } = words(t);
  const hello = t('emailNotices.hello', { nome: b.nome });
  const text = [hello, '', ...lines, `${link.label}: ${link.url}`, '', t('emailNotices.signature')].join('\n');
  const html = emailLayout(
    title,
    `<p>${escapeHtml(hello)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>${escapeHtml(link.label)}: <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return { to: b.email, subject, text, html };
}

/** A booking cancelled because a closure covers its day. */
export function closureCancelledEmail(b: NoticeBooking, closure: { motivo: string }, refunded: boolean, publicUrl: string): MailMessage {
  return message(b, (t) => ({
    subject: t('emailNotices.rules.closureSubject'),
    title: t('emailNotices.rules.closureTitle'),
    lines: [
      t('emailNotices.rules.closureLine', { ...when(b), bici: b.biciNumero, motivo: closure.motivo }),
      ...(refunded ? [t('emailNotices.refunded')] : []),
    ],
    link: { label: t('emailNotices.rules.bookAnotherDay'), url: `${publicUrl}/dashboard` },
  }));
}

/** A booking moved to another bike for the same window, because of its bike's maintenance. */
export function bookingMovedEmail(b: NoticeBooking, nuovaBici: string, publicUrl: string): MailMessage {
  return message(b, (t) => ({
    subject: t('emailNotices.rules.movedSubject', { bici: nuovaBici }),
    title: t('emailNotices.rules.movedTitle'),
    lines: [t('emailNotices.rules.movedLine', { bici: nuovaBici }), t('emailNotices.rules.movedWhy', { bici: b.biciNumero, ...when(b) })],
    link: { label: t('emailNotices.rules.onDashboard'), url: `${publicUrl}/dashboard` },
  }));
}

/** A booking cancelled because its bike is in maintenance and no other bike is free. */
export function maintenanceCancelledEmail(b: NoticeBooking, refunded: boolean, publicUrl: string): MailMessage {
  return message(b, (t) => ({
    subject: t('emailNotices.rules.maintenanceSubject'),
    title: t('emailNotices.rules.maintenanceTitle'),
    lines: [t('emailNotices.rules.maintenanceLine', { ...when(b), bici: b.biciNumero }), ...(refunded ? [t('emailNotices.refunded')] : [])],
    link: { label: t('emailNotices.rules.anotherSlot'), url: `${publicUrl}/dashboard` },
  }));
}

/** A booking made for the user at the desk; an external's holds the payment link. */
export function deskBookingEmail(b: NoticeBooking & { id: number }, toPay: boolean, holdMinutes: number | null, publicUrl: string): MailMessage {
  return message(b, (t) => {
    const lines = [t('emailNotices.rules.deskLine', { bici: b.biciNumero, ...when(b) })];
    if (toPay) {
      lines.push(holdMinutes === null ? t('emailNotices.rules.payBeforeStart') : t('emailNotices.rules.payWithin', { minuti: holdMinutes }));
    }
    return {
      subject: t('emailNotices.rules.deskSubject', { bici: b.biciNumero, data: shortDate(b.dataPrenotazione) }),
      title: t('emailNotices.rules.deskTitle'),
      lines,
      link: toPay
        ? { label: t('emailNotices.rules.payHere'), url: `${publicUrl}/payment/${b.id}` }
        : { label: t('emailNotices.rules.onDashboard'), url: `${publicUrl}/dashboard` },
    };
  });
}
