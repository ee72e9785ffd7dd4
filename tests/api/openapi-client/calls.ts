/**
 * A call of every non-admin route through openapi-fetch, typed by what openapi-typescript makes
 * of /api/openapi.json (decision 031). tests/api/openapi.test.ts generates `./api.ts` beside a
 * copy of this file and runs tsc on both: if a route's zod schema changes what a client must
 * send, or a route leaves the document, this stops compiling. The same test checks that this
 * file calls every non-admin operation of the document, so a new route must be added here.
 *
 * Not compiled by the project's own `tsc` (tsconfig.json excludes this folder): `./api.ts`
 * exists only in the test's temporary folder.
 */
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });

const WINDOW = { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00' };
const DEVICE_ACTION = { idAzione: '0d6f3c2a-8b1e-4f7a-9c5d-2e4b6a8c0f13', oraDispositivo: '2026-11-21T08:59:00.000Z' };
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
const id = (value: string) => ({ params: { path: { id: value } } });

export async function callEveryRoute(): Promise<string[]> {
  const messages: string[] = [];
  // Every refusal has the shared error shape: an Italian message, per-field messages on a 400.
  const note = (error: { message: string; code?: string; fields?: Record<string, string> } | undefined) => {
    if (error) messages.push(error.message, ...Object.values(error.fields ?? {}));
  };

  // Sistema
  note((await api.GET('/api/health')).error);
  note((await api.GET('/api/ready')).error);
  note((await api.GET('/api/config')).error);

  // Account
  note((await api.POST('/api/register', { body: { nome: 'Anna', cognome: 'Rossi', email: 'anna@example.it', password: 'Password-1', siglaResidente: null } })).error);
  note((await api.POST('/api/login', { body: { email: 'anna@example.it', password: 'Password-1' } })).error);
  note((await api.POST('/api/logout')).error);
  note((await api.GET('/api/user')).error);
  note((await api.GET('/api/current-user')).error);
  note((await api.GET('/api/validate-sigla/{code}', { params: { path: { code: 'ABC123' } } })).error);
  note((await api.POST('/api/reset-password', { body: { email: 'anna@example.it' } })).error);
  note((await api.POST('/api/change-password', { body: { userId: 1, newPassword: 'Nuova-Password-1' } })).error);

  // Verifica in due passaggi (only the login step is not an admin's)
  note((await api.POST('/api/login/codice', { body: { codice: '123456' } })).error);

  // Passkey (issue 49): the answers are SimpleWebAuthn's JSON of navigator.credentials.
  const assertion = {
    id: 'bWF0cmljZQ',
    rawId: 'bWF0cmljZQ',
    type: 'public-key' as const,
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA', userHandle: 'MQ' },
  };
  const attestation = {
    id: 'bWF0cmljZQ',
    rawId: 'bWF0cmljZQ',
    type: 'public-key' as const,
    authenticatorAttachment: 'platform' as const,
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', attestationObject: 'AAAA', transports: ['internal' as const, 'hybrid' as const] },
  };
  note((await api.GET('/api/passkeys')).error);
  note((await api.POST('/api/passkeys/registrazione/opzioni')).error);
  note((await api.POST('/api/passkeys/registrazione', { body: { risposta: attestation } })).error);
  note((await api.DELETE('/api/passkeys/{id}', id('1'))).error);
  note((await api.PUT('/api/passkeys/secondo-fattore', { body: { attivo: true } })).error);
  note((await api.POST('/api/auth/passkey/opzioni')).error);
  note((await api.POST('/api/auth/passkey', { body: { risposta: assertion } })).error);
  note((await api.POST('/api/login/passkey/opzioni')).error);
  note((await api.POST('/api/login/passkey', { body: { risposta: assertion } })).error);

  // Biciclette e prenotazioni
  note((await api.GET('/api/biciclette')).error);
  note((await api.GET('/api/biciclette/numero/{numero}', { params: { path: { numero: '07' } } })).error);
  note((await api.POST('/api/biciclette/available', { body: WINDOW })).error);
  // One sede's bikes, hours and closures (issue 47).
  note((await api.GET('/api/biciclette', { params: { query: { sedeId: '2' } } })).error);
  note((await api.POST('/api/biciclette/available', { body: { ...WINDOW, sedeId: 2 } })).error);
  note((await api.GET('/api/regole')).error);
  note((await api.GET('/api/regole', { params: { query: { sedeId: '2' } } })).error);
  note((await api.GET('/api/prenotazioni/user')).error);
  note((await api.POST('/api/prenotazioni', { body: { ...WINDOW, destinazione: 'Centro', biciId: 2 } })).error);
  note((await api.DELETE('/api/prenotazioni/{id}', id('1'))).error);
  note((await api.POST('/api/prenotazioni/{id}/ritiro', { ...id('1'), body: DEVICE_ACTION })).error);
  note(
    (await api.POST('/api/prenotazioni/{id}/riconsegna', { ...id('1'), body: { ...DEVICE_ACTION, danno: { categoria: 'freni', descrizione: 'Freno morbido' } } }))
      .error,
  );
  note((await api.GET('/api/prenotazioni/{id}/codice', id('1'))).error);
  // The fleet that heals itself (issue 35).
  note((await api.POST('/api/prenotazioni/{id}/problema', { ...id('1'), body: { categoria: 'catena', descrizione: 'Catena saltata' } })).error);
  note((await api.POST('/api/prenotazioni/{id}/aspetta', id('1'))).error);

  // Interventi (issue 48): the reports and notes are multipart/form-data (fields and up to 3 files `foto`), sent as FormData.
  const report = new FormData();
  report.append('biciId', '7');
  report.append('categoria', 'freni');
  report.append('descrizione', 'Il freno fischia');
  const form = { body: report as never, bodySerializer: (b: unknown) => b as FormData };
  note((await api.GET('/api/interventi', { params: { query: { stato: 'aperti', sedeId: '1' } } })).error);
  note((await api.POST('/api/interventi', form)).error);
  note((await api.GET('/api/interventi/{id}', id('1'))).error);
  note((await api.PATCH('/api/interventi/{id}', { ...id('1'), body: { stato: 'in_lavorazione', assegnatarioId: 3, nonUtilizzabile: true } })).error);
  note((await api.POST('/api/interventi/{id}/note', { ...id('1'), ...form })).error);
  note((await api.GET('/api/interventi/{id}/foto/{fotoId}', { params: { path: { id: '1', fotoId: '2' } } })).error);
  note((await api.GET('/api/prenotazioni/{id}/prolunga', id('1'))).error);
  note((await api.POST('/api/prenotazioni/{id}/prolunga', { ...id('1'), body: { minuti: 30 } })).error);

  // Lista d'attesa
  note((await api.GET('/api/attese')).error);
  note((await api.POST('/api/attese', { body: { ...WINDOW, destinazione: null } })).error);
  note((await api.POST('/api/attese', { body: { ...WINDOW, destinazione: null, sedeId: 2 } })).error);
  note((await api.DELETE('/api/attese/{id}', id('3'))).error);
  note((await api.POST('/api/attese/{id}/accetta', id('3'))).error);
  note((await api.POST('/api/attese/{id}/rinuncia', id('3'))).error);

  // Pagamenti
  note((await api.POST('/api/create-payment-intent', { body: { bookingId: 1 } })).error);
  note((await api.POST('/api/confirm-payment', { body: { paymentIntentId: 'pi_sim_abc', bookingId: 1 } })).error);
  note((await api.POST('/api/external-bookings/{bookingId}/payment', { params: { path: { bookingId: '1' } } })).error);
  note((await api.POST('/api/payments/webhook', { headers: { 'stripe-signature': 't=1,v1=firma' } })).error);
  note(
    (await api.POST('/api/payments/simulated/intents/{intentId}/confirm', { params: { path: { intentId: 'pi_sim_abc' } }, body: { ...CARD, clientSecret: 'segreto' } }))
      .error,
  );
  note((await api.GET('/api/payments/simulated/checkout/{sessionId}', { params: { path: { sessionId: 'cs_sim_abc' } } })).error);
  note((await api.POST('/api/payments/simulated/checkout/{sessionId}/pay', { params: { path: { sessionId: 'cs_sim_abc' } }, body: CARD })).error);

  // Profilo
  note((await api.GET('/api/profilo')).error);
  note((await api.GET('/api/sedi')).error);
  note((await api.PATCH('/api/profilo', { body: { nome: 'Anna', promemoria: false } })).error);
  note((await api.POST('/api/profilo/password', { body: { passwordAttuale: 'Password-1', nuovaPassword: 'Nuova-Password-1' } })).error);
  note((await api.POST('/api/profilo/calendario')).error);
  note((await api.DELETE('/api/profilo/calendario')).error);
  note((await api.POST('/api/push/iscrizioni', { body: { endpoint: 'https://push.example.net/1', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } } })).error);
  note((await api.DELETE('/api/push/iscrizioni', { body: { endpoint: 'https://push.example.net/1' } })).error);

  // Dati personali
  note((await api.GET('/api/profilo/dati')).error);
  note((await api.GET('/api/profilo/eliminazione')).error);
  note((await api.DELETE('/api/profilo', { body: { password: 'Password-1' } })).error);

  // Calendario
  note((await api.GET('/api/calendario/{token}', { params: { path: { token: 'token-del-feed' } }, parseAs: 'text' })).error);
  note((await api.GET('/api/prenotazioni/{id}/calendario.ics', { ...id('1'), parseAs: 'text' })).error);

  // Schermo della rastrelliera
  note((await api.GET('/api/rastrelliera/{token}', { params: { path: { token: 'token-dello-schermo' } } })).error);
  note((await api.GET('/api/rastrelliera/{token}/eventi', { params: { path: { token: 'token-dello-schermo' } }, parseAs: 'text' })).error);

  return messages;
}
