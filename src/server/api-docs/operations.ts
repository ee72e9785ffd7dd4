/**
 * What the OpenAPI document says of each /api route beyond its zod schemas (decision 031):
 * a summary, the module (tag), who may call it, the success answer and the refusals that are
 * particular to it. Parameters, query strings and bodies are NOT here: they come from the
 * zod schemas the route validates with (fastify-type-provider-zod's jsonSchemaTransform).
 *
 * Keyed like the authorisation matrix: `METHOD /api/path/:param`. tests/api/openapi.test.ts
 * fails when a registered route has no entry here, or an entry names no route.
 */

import { MSG_NOT_ACTIVE_RIDE, MSG_NOT_PICKED_UP } from '../modules/bookings/ride.js';
import { MSG_DB_UNAVAILABLE, MSG_MIGRATIONS_PENDING, MSG_SHUTTING_DOWN } from '../modules/system/readiness.js';
import { MSG_LAST_ADMIN } from '../modules/admin/users.js';
import { MSG_ALREADY_PAID, MSG_PAYMENT_NOT_SUCCEEDED } from '../modules/payments/service.js';
import { MSG_MAINTENANCE_OVERLAP } from '../modules/rules/admin.js';
import { MSG_BIKE_FREE, MSG_OFFER_GONE, MSG_WAIT_NOT_FOUND } from '../modules/waitlist/service.js';
import { LAST_ADMIN_DELETE_MESSAGE, RIDE_IN_PROGRESS_MESSAGE } from '../../shared/schemas/privacy.js';
import { NOT_ACTIVE_MESSAGE, WRONG_CODE_MESSAGE } from '../../shared/schemas/two-factor.js';

/** Who may call the route, which decides its `security` and its 401/403/404 answers. */
export type Access =
  /** Anyone, no session. */
  | 'public'
  /** A logged-in user (session cookie); 401 without it. */
  | 'user'
  /** A logged-in user, on a resource of their own: someone else's is 404 (behaviour.md §4). */
  | 'owner'
  /** An admin (session cookie): 401 anonymous, 403 for a user. */
  | 'admin'
  /** The session of that user or the short-lived password-change cookie; otherwise 403. */
  | 'password-change'
  /** The pending second-factor cookie of the login (decision 030); otherwise 403. */
  | 'second-factor'
  /** No session: the token in the path is the credential (the private calendar feed). */
  | 'token'
  /** No session: the payment provider's signature (`Stripe-Signature`) is the credential. */
  | 'signature';

export interface Operation {
  summary: string;
  access: Access;
  /** The success status; 200 unless said. */
  ok?: 200 | 201 | 204;
  /** What a success answers, in a few words (the response's description). */
  returns?: string;
  /** The success answer's media type when it is not JSON (a file). */
  media?: 'text/csv' | 'application/pdf' | 'text/calendar';
  /** Refusals particular to the route, with their Italian message (as errors.ts and the services say them). */
  errors?: Partial<Record<400 | 403 | 404 | 409 | 503, string>>;
  /** Rate limited (behaviour.md §5): 429 with Retry-After. */
  rateLimited?: boolean;
}

/** The modules, in the order the reference page shows them. */
export const TAGS = {
  sistema: { name: 'Sistema', description: 'Stato del servizio e configurazione pubblica della pagina' },
  account: { name: 'Account', description: 'Registrazione, accesso, sessione, password' },
  dueFattori: { name: 'Verifica in due passaggi', description: 'Il secondo fattore degli amministratori (decisione 030)' },
  prenotazioni: { name: 'Biciclette e prenotazioni', description: 'Disponibilità, prenotazioni, ritiro e riconsegna' },
  attese: { name: "Lista d'attesa", description: 'Attese di una fascia oraria e offerte (decisione 025)' },
  pagamenti: { name: 'Pagamenti', description: 'Pagamento delle prenotazioni degli esterni (2,50 €)' },
  profilo: { name: 'Profilo', description: 'Dati, password, promemoria e notifiche della persona' },
  privacy: { name: 'Dati personali', description: 'Esportazione e cancellazione dei propri dati (decisione 029)' },
  calendario: { name: 'Calendario', description: 'Feed iCalendar privato e .ics di una prenotazione' },
  report: { name: 'Report', description: 'I report PDF giornalieri' },
  amministrazione: { name: 'Amministrazione', description: 'Utenti, prenotazioni, biciclette, regole, registro attività' },
  statistiche: { name: 'Statistiche', description: 'Statistiche di utilizzo ed esportazione CSV' },
} as const;

export type TagKey = keyof typeof TAGS;

const BIKE_BUSY = 'La bicicletta non è disponibile nella fascia oraria scelta';
const BOOKING_NOT_FOUND = 'Prenotazione non trovata';

/** Every documented route, by module. */
export const OPERATIONS: Record<TagKey, Record<string, Operation>> = {
  sistema: {
    'GET /api/health': { summary: 'Stato del servizio e del database', access: 'public', returns: '`{ status, db }`; 503 se il database non risponde' },
    'GET /api/ready': {
      summary: 'Prontezza a ricevere traffico (per il bilanciatore di carico)',
      access: 'public',
      returns: '`{ status, db, migrations }`; 503 con `code` SHUTTING_DOWN, MIGRATIONS_PENDING o DB_UNAVAILABLE',
      errors: { 503: `${MSG_SHUTTING_DOWN} · ${MSG_MIGRATIONS_PENDING} · ${MSG_DB_UNAVAILABLE}` },
    },
    'GET /api/config': { summary: 'Configurazione pubblica della pagina (fornitore di pagamento, regole)', access: 'public' },
  },
  account: {
    'POST /api/register': {
      summary: 'Registrazione di un nuovo account',
      access: 'public',
      ok: 201,
      returns: "L'utente, già autenticato",
      errors: { 400: 'Sigla non valida o non attiva nel sistema ELIS', 409: 'Email già registrata' },
      rateLimited: true,
    },
    'POST /api/login': {
      summary: 'Accesso con email e password',
      access: 'public',
      returns: "L'utente, con una nuova sessione (o la richiesta del codice di verifica)",
      errors: { 403: "Account disattivato. Contatta l'amministrazione." },
      rateLimited: true,
    },
    'POST /api/logout': { summary: 'Uscita: la sessione viene eliminata', access: 'public' },
    'GET /api/user': { summary: "L'utente della sessione", access: 'user' },
    'GET /api/current-user': { summary: "L'utente della sessione (alias di /api/user)", access: 'user' },
    'GET /api/validate-sigla/:code': { summary: 'Verifica di una sigla di residente', access: 'public', returns: '`{ valid, data? }`', rateLimited: true },
    'POST /api/reset-password': {
      summary: 'Richiesta di una password temporanea via email',
      access: 'public',
      returns: 'Sempre la stessa risposta, che l’email esista o no',
      rateLimited: true,
    },
    'POST /api/change-password': {
      summary: 'Cambio della password (anche quello obbligatorio al primo accesso)',
      access: 'password-change',
      errors: { 403: 'Non hai i permessi per questa operazione' },
    },
  },
  dueFattori: {
    'POST /api/login/codice': {
      summary: 'Secondo passo dell’accesso: codice di verifica o di recupero',
      access: 'second-factor',
      errors: { 400: WRONG_CODE_MESSAGE },
      rateLimited: true,
    },
    'GET /api/due-fattori': { summary: 'Stato della verifica in due passaggi dell’amministratore', access: 'admin' },
    'POST /api/due-fattori/attivazione': { summary: 'Avvio dell’attivazione: segreto e codice QR', access: 'admin' },
    'POST /api/due-fattori/conferma': { summary: 'Conferma dell’attivazione con un codice; restituisce i codici di recupero', access: 'admin' },
    'POST /api/due-fattori/disattivazione': {
      summary: 'Disattivazione della verifica in due passaggi',
      access: 'admin',
      errors: { 409: NOT_ACTIVE_MESSAGE },
    },
  },
  prenotazioni: {
    'GET /api/biciclette': { summary: 'Tutte le biciclette', access: 'user' },
    'POST /api/biciclette/available': { summary: 'Biciclette disponibili in una fascia oraria', access: 'user' },
    'GET /api/regole': { summary: 'Le regole del servizio e l’eventuale sospensione dell’utente', access: 'user' },
    'GET /api/prenotazioni/user': { summary: 'Le prenotazioni dell’utente, dalla più recente', access: 'user' },
    'POST /api/prenotazioni': {
      summary: 'Prenotazione di una bicicletta',
      access: 'user',
      ok: 201,
      returns: 'La prenotazione creata',
      errors: { 404: 'Bicicletta non trovata', 409: `${BIKE_BUSY} · Hai già una prenotazione attiva` },
    },
    'DELETE /api/prenotazioni/:id': {
      summary: 'Annullamento di una propria prenotazione attiva (rimborso se pagata)',
      access: 'owner',
      errors: { 404: BOOKING_NOT_FOUND, 409: 'Solo le prenotazioni attive possono essere eliminate' },
    },
    'POST /api/prenotazioni/:id/ritiro': {
      summary: 'Ritiro della bicicletta (anche dalla coda offline del dispositivo)',
      access: 'owner',
      errors: { 404: BOOKING_NOT_FOUND, 409: MSG_NOT_ACTIVE_RIDE },
    },
    'POST /api/prenotazioni/:id/riconsegna': {
      summary: 'Riconsegna della bicicletta, con eventuale segnalazione di un danno',
      access: 'owner',
      errors: { 404: BOOKING_NOT_FOUND, 409: MSG_NOT_PICKED_UP },
    },
  },
  attese: {
    'GET /api/attese': { summary: "Le attese dell'utente", access: 'user' },
    'POST /api/attese': {
      summary: "Iscrizione alla lista d'attesa di una fascia oraria",
      access: 'user',
      ok: 201,
      errors: { 409: MSG_BIKE_FREE },
    },
    'DELETE /api/attese/:id': { summary: "Uscita dalla lista d'attesa", access: 'owner', ok: 204, errors: { 404: MSG_WAIT_NOT_FOUND } },
    'POST /api/attese/:id/accetta': {
      summary: "Accettazione dell'offerta di una bicicletta",
      access: 'owner',
      ok: 201,
      errors: { 404: MSG_WAIT_NOT_FOUND, 409: MSG_OFFER_GONE },
    },
    'POST /api/attese/:id/rinuncia': {
      summary: "Rinuncia all'offerta",
      access: 'owner',
      errors: { 404: MSG_WAIT_NOT_FOUND, 409: MSG_OFFER_GONE },
    },
  },
  pagamenti: {
    'POST /api/create-payment-intent': {
      summary: 'Avvio del pagamento con carta di una prenotazione (2,50 €)',
      access: 'owner',
      returns: '`{ clientSecret, paymentIntentId }`',
      errors: { 404: BOOKING_NOT_FOUND, 409: MSG_ALREADY_PAID },
    },
    'POST /api/confirm-payment': {
      summary: 'Conferma del pagamento: il server verifica l’esito presso il fornitore',
      access: 'owner',
      errors: { 404: BOOKING_NOT_FOUND, 409: MSG_PAYMENT_NOT_SUCCEEDED },
    },
    'POST /api/external-bookings/:bookingId/payment': {
      summary: 'Pagina di pagamento ospitata (checkout) di una prenotazione',
      access: 'owner',
      returns: '`{ paymentUrl }`',
      errors: { 404: BOOKING_NOT_FOUND },
    },
    'POST /api/payments/webhook': {
      summary: 'Eventi del fornitore di pagamento (firma verificata, ciascuno applicato una volta)',
      access: 'signature',
      errors: { 400: 'Firma non valida' },
    },
    'POST /api/payments/simulated/intents/:intentId/confirm': {
      summary: 'Fornitore simulato: pagamento con carta di un intent',
      access: 'owner',
      errors: { 404: 'Pagamento non trovato' },
    },
    'GET /api/payments/simulated/checkout/:sessionId': {
      summary: 'Fornitore simulato: dati della pagina di checkout',
      access: 'owner',
      errors: { 404: 'Pagamento non trovato' },
    },
    'POST /api/payments/simulated/checkout/:sessionId/pay': {
      summary: 'Fornitore simulato: pagamento dalla pagina di checkout',
      access: 'owner',
      errors: { 404: 'Pagamento non trovato' },
    },
  },
  profilo: {
    'GET /api/profilo': { summary: 'Il profilo dell’utente', access: 'user' },
    'PATCH /api/profilo': { summary: 'Modifica di nome, cognome e promemoria', access: 'user' },
    'POST /api/profilo/password': {
      summary: 'Cambio della password dal profilo',
      access: 'user',
      errors: { 400: 'La password attuale non è corretta' },
    },
    'POST /api/profilo/calendario': { summary: 'Nuovo indirizzo privato del calendario', access: 'user', returns: '`{ url }`' },
    'DELETE /api/profilo/calendario': { summary: 'Disattivazione del calendario privato', access: 'user', ok: 204 },
    'POST /api/push/iscrizioni': { summary: 'Iscrizione alle notifiche push del dispositivo', access: 'user', ok: 201 },
    'DELETE /api/push/iscrizioni': { summary: 'Cancellazione dell’iscrizione alle notifiche push', access: 'user', ok: 204 },
  },
  privacy: {
    'GET /api/profilo/dati': { summary: 'Esportazione di tutti i propri dati (file JSON)', access: 'user' },
    'GET /api/profilo/eliminazione': { summary: 'Che cosa farebbe la cancellazione dell’account', access: 'user' },
    'DELETE /api/profilo': {
      summary: 'Cancellazione dell’account e dei propri dati (chiede la password)',
      access: 'user',
      errors: { 400: 'La password non è corretta', 409: `${RIDE_IN_PROGRESS_MESSAGE} · ${LAST_ADMIN_DELETE_MESSAGE}` },
    },
  },
  calendario: {
    'GET /api/calendario/:token': {
      summary: 'Feed iCalendar privato delle proprie prenotazioni',
      access: 'token',
      media: 'text/calendar',
      errors: { 404: 'Calendario non trovato' },
    },
    'GET /api/prenotazioni/:id/calendario.ics': {
      summary: 'Una prenotazione come evento .ics',
      access: 'owner',
      media: 'text/calendar',
      errors: { 404: BOOKING_NOT_FOUND },
    },
  },
  report: {
    'GET /api/reports': { summary: 'I report giornalieri conservati (ultimi 30)', access: 'admin' },
    'GET /api/reports/download/:id': { summary: 'Scaricamento del PDF di un report', access: 'admin', media: 'application/pdf', errors: { 404: 'Report non trovato' } },
  },
  amministrazione: {
    'GET /api/admin/summary': { summary: 'Riepilogo del pannello (contatori di oggi)', access: 'admin' },
    'GET /api/admin/prenotazioni': { summary: 'Prenotazioni, a pagine (X-Total-Count), con ricerca e filtro', access: 'admin' },
    'POST /api/admin/prenotazioni': {
      summary: 'Prenotazione dallo sportello per un utente',
      access: 'admin',
      ok: 201,
      errors: { 404: 'Utente non trovato o non attivo', 409: BIKE_BUSY },
    },
    'DELETE /api/admin/prenotazioni/:id': { summary: 'Eliminazione definitiva di una prenotazione', access: 'admin', errors: { 404: BOOKING_NOT_FOUND } },
    'POST /api/admin/prenotazioni/:id/rilascia': {
      summary: 'Rilascio di una bicicletta ritirata e non riconsegnata',
      access: 'admin',
      errors: { 404: BOOKING_NOT_FOUND, 409: 'Solo una bicicletta ritirata e non ancora riconsegnata può essere rilasciata' },
    },
    'GET /api/admin/users': { summary: 'Utenti, a pagine (X-Total-Count)', access: 'admin' },
    'PUT /api/admin/users/:id': {
      summary: 'Modifica di un utente (nome, email, ruolo, attivo)',
      access: 'admin',
      errors: { 404: 'Utente non trovato', 409: MSG_LAST_ADMIN },
    },
    'DELETE /api/admin/users/:id': {
      summary: 'Eliminazione di un utente e delle sue prenotazioni',
      access: 'admin',
      errors: { 404: 'Utente non trovato', 409: MSG_LAST_ADMIN },
    },
    'POST /api/admin/users/:id/revoca-sospensione': { summary: 'Revoca della sospensione di un utente', access: 'admin', errors: { 404: 'Utente non trovato' } },
    'GET /api/admin/biciclette': { summary: 'Biciclette con il loro stato', access: 'admin' },
    'POST /api/admin/biciclette': {
      summary: 'Aggiunta di una bicicletta',
      access: 'admin',
      ok: 201,
      errors: { 409: 'Esiste già una bicicletta con questo numero' },
    },
    'PUT /api/admin/biciclette/:id': { summary: 'Cambio di stato di una bicicletta', access: 'admin', errors: { 404: 'Bicicletta non trovata' } },
    'POST /api/admin/import-residents': { summary: 'Creazione degli account dei residenti', access: 'admin', returns: '`{ imported, skipped }`' },
    'GET /api/admin/danni': { summary: 'Segnalazioni di danni', access: 'admin' },
    'POST /api/admin/danni/:id/risolta': {
      summary: 'Segnalazione di danno risolta',
      access: 'admin',
      errors: { 404: 'Segnalazione non trovata', 409: 'La segnalazione è già stata risolta' },
    },
    'GET /api/admin/ritardi': { summary: 'Biciclette non riconsegnate in tempo', access: 'admin' },
    'GET /api/admin/attese': { summary: "Le liste d'attesa di oggi", access: 'admin' },
    'GET /api/admin/regole': { summary: 'Le regole del servizio', access: 'admin' },
    'PUT /api/admin/regole': { summary: 'Modifica delle regole del servizio', access: 'admin' },
    'GET /api/admin/chiusure': { summary: 'Chiusure del servizio', access: 'admin' },
    'POST /api/admin/chiusure/anteprima': { summary: 'Anteprima di una chiusura: prenotazioni coinvolte', access: 'admin' },
    'POST /api/admin/chiusure': { summary: 'Nuova chiusura (le prenotazioni coinvolte vengono annullate)', access: 'admin', ok: 201 },
    'DELETE /api/admin/chiusure/:id': { summary: 'Eliminazione di una chiusura', access: 'admin', errors: { 404: 'Chiusura non trovata' } },
    'GET /api/admin/manutenzioni': { summary: 'Manutenzioni programmate', access: 'admin' },
    'POST /api/admin/biciclette/:id/manutenzioni/anteprima': {
      summary: 'Anteprima di una manutenzione programmata',
      access: 'admin',
      errors: { 404: 'Bicicletta non trovata' },
    },
    'POST /api/admin/biciclette/:id/manutenzioni': {
      summary: 'Nuova manutenzione programmata di una bicicletta',
      access: 'admin',
      ok: 201,
      errors: { 404: 'Bicicletta non trovata', 409: MSG_MAINTENANCE_OVERLAP },
    },
    'DELETE /api/admin/manutenzioni/:id': { summary: 'Eliminazione di una manutenzione', access: 'admin', errors: { 404: 'Manutenzione non trovata' } },
    'GET /api/admin/audit': { summary: 'Registro attività, a pagine (X-Total-Count), dal più recente', access: 'admin' },
    'GET /api/admin/audit.csv': { summary: 'Registro attività in CSV', access: 'admin', media: 'text/csv' },
    'GET /api/admin/audit/admins': { summary: 'Gli amministratori presenti nel registro attività', access: 'admin' },
  },
  statistiche: {
    'GET /api/admin/stats': { summary: 'Statistiche di utilizzo del periodo (7, 30 o 365 giorni)', access: 'admin' },
    'GET /api/admin/stats/export.csv': { summary: 'Prenotazioni del periodo in CSV', access: 'admin', media: 'text/csv' },
  },
};

/** The operations by key, each with its module. */
export function operationIndex(): Map<string, Operation & { tag: string }> {
  const index = new Map<string, Operation & { tag: string }>();
  for (const [tag, ops] of Object.entries(OPERATIONS) as [TagKey, Record<string, Operation>][]) {
    for (const [key, op] of Object.entries(ops)) index.set(key, { ...op, tag: TAGS[tag].name });
  }
  return index;
}
