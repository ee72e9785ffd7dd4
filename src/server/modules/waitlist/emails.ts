import { zonedClock } from '../../../shared/time.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { dayMonth } from '../../../shared/waitlist-text.js';
import { emailLayout, escapeHtml } from '../../integrations/mailer.js';
import type { UserNotice } from '../notifications/index.js';

/** The waitlist's notice (issue 21), in the reader's language: plain text first, a simple HTML alternative, and the push. */

export interface OfferInfo {
  nome: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  scadeAt: Date;
}

/** A bike freed for the first in line: held until `scadeAt`, one tap to the dashboard; in the reader's language. */
export function offerNotice(o: OfferInfo, publicUrl: string, timeZone: string, lingua: Lingua = 'it'): UserNotice {
  const t = tFor(lingua);
  const sentence = t('emailNotices.offer.sentence', { giorno: dayMonth(o.dataPrenotazione), inizio: o.orarioInizio, fine: o.orarioFine });
  const url = `${publicUrl}/dashboard`;
  const until = zonedClock(o.scadeAt, timeZone);
  const lines = [
    t('emailNotices.hello', { nome: o.nome }),
    t('emailNotices.offer.held', { sentence, bici: o.biciNumero, until }),
    t('emailNotices.offer.howTo'),
  ];
  const text = [...lines, '', t('emailNotices.offer.bookHere', { url }), '', t('emailNotices.signature')].join('\n');
  const html = emailLayout(
    sentence,
    `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(url)}">${t('emailNotices.offer.bookLink')}</a></p>
<p>${t('emailNotices.signature')}</p>`,
    lingua,
  );
  return {
    subject: `BiciElis: ${sentence}`,
    text,
    html,
    push: { title: sentence, body: t('pushNotices.offer.body', { bici: o.biciNumero, until }), url },
  };
}
