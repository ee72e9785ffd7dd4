import { zonedClock, zonedToday } from '../../../shared/time.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';
import type { Person } from './audit-redact.js';

/** The last email to a person who deleted their account (decision 029): the only one the outbox keeps. */
export function accountDeletedEmail(person: Pick<Person, 'email' | 'nome'>, timeZone: string, now: Date): MailMessage {
  const [y, m, d] = zonedToday(now, timeZone).split('-');
  const when = `${d}/${m}/${y} alle ${zonedClock(now, timeZone)}`;
  const lines = [
    `Il tuo account BiciElis è stato eliminato il ${when}, come hai chiesto.`,
    'Abbiamo cancellato i tuoi dati personali: nome, email, sigla, sessioni, notifiche e calendario.',
    'Le tue prenotazioni restano solo come righe anonime per le statistiche del servizio; i pagamenti restano nella contabilità, senza il tuo nome.',
    'La tua email e la tua sigla possono essere registrate di nuovo.',
  ];
  const text = [`Ciao ${person.nome},`, '', ...lines, '', 'Se non sei stato tu, scrivi subito all’amministrazione del collegio.', '', 'Il team BiciElis'].join('\n');
  const html = emailLayout(
    'Account eliminato',
    `<p>Ciao ${escapeHtml(person.nome)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>Se non sei stato tu, scrivi subito all’amministrazione del collegio.</p>
<p>Il team BiciElis</p>`,
  );
  return { to: person.email, subject: 'Il tuo account BiciElis è stato eliminato', text, html };
}
