import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';

/** Italian emails of the admin module: plain text first, with a simple HTML alternative. */

const STATE_WORDS = {
  manutenzione: 'in manutenzione',
  fuori_servizio: 'fuori servizio',
} as const;

/** dd/MM/yyyy of a `YYYY-MM-DD` date. */
const italianDate = (date: string) => date.split('-').reverse().join('/');

/**
 * To a user whose future booking is on a bike just put in maintenance or out of service:
 * the booking stays until the staff decide, and they may be contacted.
 */
export function bikeUnavailableEmail(
  user: { email: string; nome: string },
  booking: { biciNumero: string; dataPrenotazione: string; orarioInizio: string; orarioFine: string },
  stato: keyof typeof STATE_WORDS,
  publicUrl: string,
): MailMessage {
  const when = `${italianDate(booking.dataPrenotazione)} dalle ${booking.orarioInizio} alle ${booking.orarioFine}`;
  const state = STATE_WORDS[stato];
  const dashboardUrl = `${publicUrl}/dashboard`;
  const text = [
    `Ciao ${user.nome},`,
    '',
    `la bicicletta n. ${booking.biciNumero} della tua prenotazione del ${when} è stata messa ${state}.`,
    'La prenotazione per ora resta attiva: lo staff del collegio ti contatterà se sarà necessario cambiarla.',
    `Se preferisci, puoi annullarla e sceglierne un'altra da qui: ${dashboardUrl}`,
    '',
    'Il team BiciElis',
  ].join('\n');
  const html = emailLayout(
    'La bici della tua prenotazione non è disponibile',
    `<p>Ciao ${escapeHtml(user.nome)},</p>
<p>la bicicletta <strong>n. ${escapeHtml(booking.biciNumero)}</strong> della tua prenotazione del
<strong>${escapeHtml(when)}</strong> è stata messa ${escapeHtml(state)}.</p>
<p>La prenotazione per ora resta attiva: lo staff del collegio ti contatterà se sarà necessario cambiarla.</p>
<p>Se preferisci, puoi annullarla e sceglierne un'altra da
<a href="${escapeHtml(dashboardUrl)}">${escapeHtml(dashboardUrl)}</a>.</p>
<p>Il team BiciElis</p>`,
  );
  return { to: user.email, subject: `BiciElis: la bici n. ${booking.biciNumero} non è disponibile`, text, html };
}
