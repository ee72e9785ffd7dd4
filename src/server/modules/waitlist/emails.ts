import { zonedClock } from '../../../shared/time.js';
import { tFor } from '../../../shared/i18n/all.js';
import { offerSentence } from '../../../shared/waitlist-text.js';
import { emailLayout, escapeHtml } from '../../integrations/mailer.js';
import type { UserNotice } from '../notifications/index.js';

/** The waitlist's notice (issue 21): plain text first, a simple HTML alternative, and the push. */

export interface OfferInfo {
  nome: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  scadeAt: Date;
}

/** A bike freed for the first in line: held until `scadeAt`, one tap to the dashboard. */
export function offerNotice(o: OfferInfo, publicUrl: string, timeZone: string): UserNotice {
  const sentence = offerSentence(o, tFor('it'));
  const url = `${publicUrl}/dashboard`;
  const until = zonedClock(o.scadeAt, timeZone);
  const lines = [
    `Ciao ${o.nome},`,
    `${sentence}: la bici n. ${o.biciNumero} è tenuta per te fino alle ${until}.`,
    'Apri la pagina delle prenotazioni e tocca "Prenota" per averla, oppure "Rinuncia" per lasciarla a chi segue in lista. Se non rispondi entro quell\'ora, passa al prossimo.',
  ];
  const text = [...lines, '', `Prenota da qui: ${url}`, '', 'Il team BiciElis'].join('\n');
  const html = emailLayout(
    sentence,
    `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(url)}">Prenota la bici</a></p>
<p>Il team BiciElis</p>`,
  );
  return {
    subject: `BiciElis: ${sentence}`,
    text,
    html,
    push: { title: sentence, body: `Bici n. ${o.biciNumero}, tenuta per te fino alle ${until}. Tocca per prenotarla.`, url },
  };
}
