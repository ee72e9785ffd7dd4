import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';

/** Account emails in the account's language: plain text first, with a simple HTML alternative. */

export function welcomeEmail(
  user: { email: string; nome: string; isResidente: boolean; lingua?: Lingua },
  publicUrl: string,
): MailMessage {
  const lingua = user.lingua ?? 'it';
  const t = tFor(lingua);
  const account = user.isResidente ? t('emailNotices.welcome.resident') : t('emailNotices.welcome.external');
  const loginUrl = `${publicUrl}/login`;
  const subject = t('emailNotices.welcome.subject');
  const text = [
    t('emailNotices.hello', { nome: user.nome }),
    '',
    t('emailNotices.welcome.intro'),
    account,
    '',
    t('emailNotices.welcome.loginText', { email: user.email, url: loginUrl }),
    '',
    t('emailNotices.welcome.notYou'),
    '',
    t('emailNotices.signature'),
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>${escapeHtml(t('emailNotices.hello', { nome: user.nome }))}</p>
<p>${t('emailNotices.welcome.intro')}</p>
<p>${escapeHtml(account)}</p>
<p>${t('emailNotices.welcome.loginHtml', {
      email: `<strong>${escapeHtml(user.email)}</strong>`,
      link: `<a href="${escapeHtml(loginUrl)}">${escapeHtml(loginUrl)}</a>`,
    })}</p>
<p>${t('emailNotices.welcome.notYou')}</p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return { to: user.email, subject, text, html };
}

export function temporaryPasswordEmail(
  user: { email: string; nome: string; lingua?: Lingua },
  temporaryPassword: string,
  validMinutes: number,
  publicUrl: string,
): MailMessage {
  const lingua = user.lingua ?? 'it';
  const t = tFor(lingua);
  const loginUrl = `${publicUrl}/login`;
  const text = [
    t('emailNotices.hello', { nome: user.nome }),
    '',
    t('emailNotices.tempPassword.intro'),
    '',
    t('emailNotices.tempPassword.label', { password: temporaryPassword }),
    '',
    t('emailNotices.tempPassword.validText', { minuti: validMinutes, url: loginUrl }),
    '',
    t('emailNotices.tempPassword.notYou'),
    t('emailNotices.tempPassword.stillWorks'),
    '',
    t('emailNotices.signature'),
  ].join('\n');
  const html = emailLayout(
    t('emailNotices.tempPassword.title'),
    `<p>${escapeHtml(t('emailNotices.hello', { nome: user.nome }))}</p>
<p>${t('emailNotices.tempPassword.intro')}</p>
<p>${t('emailNotices.tempPassword.labelHtml')}</p>
<p style="font-family:'Courier New',monospace;font-size:20px;letter-spacing:2px;background:#f4f6f8;padding:12px;border-radius:6px;">${escapeHtml(temporaryPassword)}</p>
<p>${t('emailNotices.tempPassword.validHtml', { minuti: validMinutes, link: `<a href="${escapeHtml(loginUrl)}">${escapeHtml(loginUrl)}</a>` })}</p>
<p>${t('emailNotices.tempPassword.notYou')} ${t('emailNotices.tempPassword.stillWorks')}</p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return { to: user.email, subject: t('emailNotices.tempPassword.subject'), text, html };
}
