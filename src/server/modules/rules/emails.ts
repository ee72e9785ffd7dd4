import { italianDate } from '../../../shared/rules-text.js';
import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';

/** Italian emails of the service's rules (issue 20): plain text first, a simple HTML alternative. */

export interface NoticeBooking {
  email: string;
  nome: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
}

const when = (b: NoticeBooking) => `${italianDate(b.dataPrenotazione)} dalle ${b.orarioInizio} alle ${b.orarioFine}`;

function message(to: string, subject: string, title: string, name: string, lines: string[], link: { label: string; url: string }): MailMessage {
  const text = [`Ciao ${name},`, '', ...lines, `${link.label}: ${link.url}`, '', 'Il team BiciElis'].join('\n');
  const html = emailLayout(
    title,
    `<p>Ciao ${escapeHtml(name)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>${escapeHtml(link.label)}: <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>
<p>Il team BiciElis</p>`,
  );
  return { to, subject, text, html };
}

/** A booking cancelled because a closure covers its day. */
export function closureCancelledEmail(b: NoticeBooking, closure: { motivo: string }, refunded: boolean, publicUrl: string): MailMessage {
  return message(
    b.email,
    'BiciElis: prenotazione annullata per chiusura del servizio',
    'Prenotazione annullata per chiusura',
    b.nome,
    [
      `la tua prenotazione del ${when(b)} (bici n. ${b.biciNumero}) è stata annullata perché il servizio sarà chiuso: ${closure.motivo}.`,
      ...(refunded ? ['Il pagamento di 2,50 € ti è stato rimborsato.'] : []),
    ],
    { label: 'Puoi prenotare un altro giorno da qui', url: `${publicUrl}/dashboard` },
  );
}

/** A booking moved to another bike for the same window, because of its bike's maintenance. */
export function bookingMovedEmail(b: NoticeBooking, nuovaBici: string, publicUrl: string): MailMessage {
  return message(
    b.email,
    `BiciElis: la tua prenotazione è stata spostata sulla bici n. ${nuovaBici}`,
    'Prenotazione spostata su un’altra bici',
    b.nome,
    [
      `La tua prenotazione è stata spostata sulla bici n. ${nuovaBici}.`,
      `La bici n. ${b.biciNumero} sarà in manutenzione il ${when(b)}: data e orari della prenotazione restano gli stessi.`,
    ],
    { label: 'La trovi nella tua dashboard', url: `${publicUrl}/dashboard` },
  );
}

/** A booking cancelled because its bike is in maintenance and no other bike is free. */
export function maintenanceCancelledEmail(b: NoticeBooking, refunded: boolean, publicUrl: string): MailMessage {
  return message(
    b.email,
    'BiciElis: prenotazione annullata per manutenzione della bici',
    'Prenotazione annullata per manutenzione',
    b.nome,
    [
      `la tua prenotazione del ${when(b)} è stata annullata: la bici n. ${b.biciNumero} sarà in manutenzione e nessun’altra bici è libera in quella fascia oraria.`,
      ...(refunded ? ['Il pagamento di 2,50 € ti è stato rimborsato.'] : []),
    ],
    { label: 'Puoi scegliere un’altra fascia oraria da qui', url: `${publicUrl}/dashboard` },
  );
}

/** A booking made for the user at the desk; an external's holds the payment link. */
export function deskBookingEmail(b: NoticeBooking & { id: number }, toPay: boolean, holdMinutes: number | null, publicUrl: string): MailMessage {
  const lines = [`la reception ha prenotato per te la bici n. ${b.biciNumero} per il ${when(b)}.`];
  if (toPay) {
    lines.push(
      holdMinutes === null
        ? 'Per confermarla, paga 2,50 € prima dell’inizio: altrimenti la prenotazione viene annullata.'
        : `Per confermarla, paga 2,50 € entro ${holdMinutes} minuti: altrimenti la prenotazione viene annullata.`,
    );
  }
  return message(
    b.email,
    `BiciElis: prenotazione della bici n. ${b.biciNumero} per il ${italianDate(b.dataPrenotazione)}`,
    'Nuova prenotazione',
    b.nome,
    lines,
    toPay ? { label: 'Paga qui', url: `${publicUrl}/payment/${b.id}` } : { label: 'La trovi nella tua dashboard', url: `${publicUrl}/dashboard` },
  );
}
