import { emailLayout, escapeHtml, type MailMessage } from '../../integrations/mailer.js';

/** Italian account emails: plain text first, with a simple HTML alternative. */

export function welcomeEmail(
  user: { email: string; nome: string; isResidente: boolean },
  publicUrl: string,
): MailMessage {
  const account = user.isResidente
    ? 'Sei registrato come residente: le tue prenotazioni sono gratuite.'
    : 'Sei registrato come utente esterno: ogni prenotazione costa 2,50 €, da pagare online con carta.';
  const loginUrl = `${publicUrl}/login`;
  const text = [
    `Ciao ${user.nome},`,
    '',
    'benvenuto in BiciElis, il servizio di prenotazione biciclette del collegio.',
    account,
    '',
    `Accedi con la tua email (${user.email}) da qui: ${loginUrl}`,
    '',
    'Se non ti sei registrato tu, ignora questo messaggio.',
    '',
    'Il team BiciElis',
  ].join('\n');
  const html = emailLayout(
    'Benvenuto in BiciElis',
    `<p>Ciao ${escapeHtml(user.nome)},</p>
<p>benvenuto in BiciElis, il servizio di prenotazione biciclette del collegio.</p>
<p>${escapeHtml(account)}</p>
<p>Accedi con la tua email (<strong>${escapeHtml(user.email)}</strong>):
<a href="${escapeHtml(loginUrl)}">${escapeHtml(loginUrl)}</a></p>
<p>Se non ti sei registrato tu, ignora questo messaggio.</p>
<p>Il team BiciElis</p>`,
  );
  return { to: user.email, subject: 'Benvenuto in BiciElis', text, html };
}

export function temporaryPasswordEmail(
  user: { email: string; nome: string },
  temporaryPassword: string,
  validMinutes: number,
  publicUrl: string,
): MailMessage {
  const loginUrl = `${publicUrl}/login`;
  const text = [
    `Ciao ${user.nome},`,
    '',
    'abbiamo ricevuto una richiesta di recupero della password del tuo account BiciElis.',
    '',
    `Password temporanea: ${temporaryPassword}`,
    '',
    `È valida per ${validMinutes} minuti. Usala per accedere da ${loginUrl}:`,
    'al primo accesso ti verrà chiesto di scegliere una nuova password.',
    '',
    'Se non hai richiesto tu il recupero, ignora questo messaggio:',
    'la tua password attuale continua a funzionare.',
    '',
    'Il team BiciElis',
  ].join('\n');
  const html = emailLayout(
    'La tua password temporanea',
    `<p>Ciao ${escapeHtml(user.nome)},</p>
<p>abbiamo ricevuto una richiesta di recupero della password del tuo account BiciElis.</p>
<p>Password temporanea:</p>
<p style="font-family:'Courier New',monospace;font-size:20px;letter-spacing:2px;background:#f4f6f8;padding:12px;border-radius:6px;">${escapeHtml(temporaryPassword)}</p>
<p>È valida per ${validMinutes} minuti. Usala per accedere da
<a href="${escapeHtml(loginUrl)}">${escapeHtml(loginUrl)}</a>:
al primo accesso ti verrà chiesto di scegliere una nuova password.</p>
<p>Se non hai richiesto tu il recupero, ignora questo messaggio: la tua password attuale continua a funzionare.</p>
<p>Il team BiciElis</p>`,
  );
  return { to: user.email, subject: 'BiciElis: la tua password temporanea', text, html };
}
