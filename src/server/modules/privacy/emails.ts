import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { shortDate } from '../../../shared/i18n/format.js';
import { zonedClock, zonedToday } from '../../../shared/time.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';
import type { Person } from './audit-redact.js';

/**
 * The last email to a person who deleted their account (decision 029): the only one the outbox
 * keeps. In the language the account had.
 */
export function accountDeletedEmail(person: Pick<Person, 'email' | 'nome'> & { lingua?: Lingua }, timeZone: string, now: Date): MailMessage {
  const lingua = person.lingua ?? 'it';
  const t = tFor(lingua);
  const lines = [
    t('emailNotices.deleted.on', { data: shortDate(zonedToday(now, timeZone)), ora: zonedClock(now, timeZone) }),
    t('emailNotices.deleted.dataGone'),
    t('emailNotices.deleted.bookingsStay'),
    t('emailNotices.deleted.registerAgain'),
  ];
  const hello = t('emailNotices.hello', { nome: person.nome });
  const notYou = t('emailNotices.deleted.notYou');
  const text = [hello, '', ...lines, '', notYou, '', t('emailNotices.signature')].join('\n');
  const html = emailLayout(
    t('emailNotices.deleted.title'),
    `<p>${escapeHtml(hello)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>${notYou}</p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return { to: person.email, subject: t('emailNotices.deleted.subject'), text, html };
}
