import { gt, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { auditLog, chiusure, identitaEsterne, interventi, interventiFoto, manutenzioni, passkeys, reports } from '../../src/server/schema.js';
import type { SimulatedProvider } from '../../src/server/integrations/payments/simulated-provider.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { rotateCalendarToken } from '../../src/server/modules/profile/service.js';
import { createRackLink } from '../../src/server/modules/rack/service.js';
import { capturingMailer, person, truncateAll } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, type RouteEntry, type TestContext } from '../helpers/app.js';
import { bookThroughApi } from '../helpers/booking-fixtures.js';
import { installWriteLog, tableDigests, WRITTEN_BY_REFUSALS, type WriteLog } from '../helpers/db-digest.js';
import { createResident, createUser } from '../helpers/factories.js';
import { findLeaks, noteSecret } from '../helpers/leak-scan.js';
import { multipartText } from '../helpers/multipart.js';
import { TEST_CALLBACK } from '../helpers/oidc-app.js';
import { startOidcProvider, type LocalOidcProvider } from '../helpers/oidc-provider.js';

/**
 * Every /api route the app registers × {anonymous, the resource's owner, another user, an
 * admin}, with valid requests on real fixtures (fresh for each case), so that the status
 * shows authorisation, not validation. The table below is written by hand from
 * behaviour.md (§4: 401 anonymous, 403 not allowed, 404 for another user's booking or
 * payment; §8/§9: admin routes 401/403) and must name exactly the routes the app has.
 */

type Role = 'anonymous' | 'user' | 'other' | 'admin';
const ROLES: Role[] = ['anonymous', 'user', 'other', 'admin'];

interface Fixtures {
  cookies: Record<Role, string | null>;
  adminId: number;
  ownerId: number;
  ownerEmail: string;
  ownerPassword: string;
  targetId: number;
  bikeId: number;
  freeBikeId: number;
  bookingId: number;
  damageId: number;
  /** A repair ticket the owner reported (issue 48), with a photo. */
  ticketId: number;
  ticketPhotoId: number;
  rideId: number;
  /** A resident's booking starting now, not picked up: the desk's pick-up (issue 48). */
  pickupId: number;
  targetBookingId: number;
  intentId: string;
  clientSecret: string;
  checkoutId: string;
  reportId: number;
  closureId: number;
  /** The install's first sede (issue 47). */
  firstSedeId: number;
  maintenanceId: number;
  /** An active user with no booking, for the desk's booking. */
  deskUserId: number;
  /** The owner's wait in a waitlist (issue 21), with no offer. */
  waitId: number;
  sigla: string;
  /** The owner's calendar-feed token. */
  calendarToken: string;
  /** The live link of the rack's board (issue 34). */
  rackToken: string;
  /** A second sede, open and empty (issue 47): it may be archived. */
  sedeId: number;
  /** A third, archived: it may be opened again. */
  archivedSedeId: number;
  webhookSignature: (payload: string) => Promise<string>;
  /** A passkey of the owner (issue 49); the owner has a password, so it may go. */
  passkeyId: number;
}

interface Req {
  url: string;
  payload?: string | object;
  headers?: Record<string, string>;
  /** The client's address (default: app.inject's 127.0.0.1). */
  remoteAddress?: string;
}

interface Row {
  request: (f: Fixtures) => Req;
  expect: Record<Role, number>;
  /**
   * A failed sign-in rather than a missing session (issue 49's passkey): its 401 says so in its
   * own words, and it is counted by the login's limit (rate_limits, as WRITTEN_BY_REFUSALS says).
   */
  failedSignIn?: string;
}

const PUBLIC = { anonymous: 200, user: 200, other: 200, admin: 200 };
const LOGGED_IN = { anonymous: 401, user: 200, other: 200, admin: 200 };
/** The resource (booking, payment, checkout) is the user's: anyone else gets 404 (§4). */
const OWNER_ONLY = { anonymous: 401, user: 200, other: 404, admin: 404 };
const ADMIN_ONLY = { anonymous: 401, user: 403, other: 403, admin: 200 };
/** The number of the fixtures' booked bike (its page, issue 34: any logged-in user sees its state, only the holder their booking). */
const MATRIX_BIKE_NUMBER = '07';
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
const WEBHOOK_EVENT = JSON.stringify({ id: 'evt_matrix_1', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } });

const RULES = {
  orari: Array.from({ length: 7 }, () => ({ apertura: '07:00', chiusura: '23:00' })),
  durataMassimaMinuti: 240,
  prenotazioniSettimanaliMax: 5,
  preavvisoMinimoMinuti: null,
  orizzonteGiorni: 30,
  attesaPagamentoMinuti: 30,
  mancatoRitiroMinuti: 30,
  offertaMinuti: 15,
  sospensione: { soglia: 3, finestraGiorni: 30, giorni: 7 },
};
const CLOSURE = { dal: '2026-12-24', al: '2026-12-26', motivo: 'Chiusura natalizia' };
const MAINTENANCE = { dal: '2026-12-01T08:00', al: '2026-12-01T12:00', motivo: 'Revisione' };
const DEVICE_ACTION = { idAzione: '0d6f3c2a-8b1e-4f7a-9c5d-2e4b6a8c0f13', oraDispositivo: '2026-11-21T08:59:00.000Z' };

/** A WebAuthn answer of the right shape that no challenge awaits (issue 49): the verification refuses it. */
const PASSKEY_ASSERTION = {
  risposta: { id: 'bWF0cmljZQ', rawId: 'bWF0cmljZQ', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' } },
};
const PASSKEY_ATTESTATION = {
  risposta: { id: 'bWF0cmljZQ', rawId: 'bWF0cmljZQ', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } },
};
/** Only with the login's pending second-factor cookie (decision 030), which none of these has. */
const PENDING_SECOND_FACTOR = { anonymous: 403, user: 403, other: 403, admin: 403 };

/** The tables written, but those a counted failure writes (WRITTEN_BY_REFUSALS). */
function withoutCounters(tables: string[]): string[] {
  return tables.filter((t) => !(WRITTEN_BY_REFUSALS as readonly string[]).includes(t));
}

const MATRIX: Record<string, Row> = {
  'GET /api/health': { request: () => ({ url: '/api/health' }), expect: PUBLIC },
  // Readiness for a load balancer (decision 032): public, as health is.
  'GET /api/ready': { request: () => ({ url: '/api/ready' }), expect: PUBLIC },
  // Prometheus' scrape (decision 032), outside /api: from this machine or with METRICS_TOKEN
  // (tests/api/metrics.test.ts). From elsewhere, with no token configured here, nobody: a
  // session, even an admin's, is no credential for it.
  'GET /metrics': { request: () => ({ url: '/metrics', remoteAddress: '203.0.113.7' }), expect: { anonymous: 403, user: 403, other: 403, admin: 403 } },
  'GET /api/config': { request: () => ({ url: '/api/config' }), expect: PUBLIC },
  // Public (§5); a logged-in browser registering gets a new session like anyone else.
  'POST /api/register': {
    request: () => ({ url: '/api/register', payload: { nome: 'Nuovo', cognome: 'Iscritto', email: 'nuovo.iscritto@example.it', password: 'Nuova-Password-1' } }),
    expect: { anonymous: 201, user: 201, other: 201, admin: 201 },
  },
  'POST /api/login': {
    request: (f) => ({ url: '/api/login', payload: { email: f.ownerEmail, password: f.ownerPassword } }),
    expect: PUBLIC,
  },
  'POST /api/logout': { request: () => ({ url: '/api/logout' }), expect: PUBLIC },
  // The login's code step (decision 030): only with the pending state's cookie, which none of these has.
  'POST /api/login/codice': { request: () => ({ url: '/api/login/codice', payload: { codice: '123456' } }), expect: { anonymous: 403, user: 403, other: 403, admin: 403 } },
  // The college account (issue 49; this app has a local provider). The start and the callback are
  // pages the browser lands on: always a redirect (a state nobody began goes to /login?accesso=scaduto).
  'GET /api/auth/oidc/login': { request: () => ({ url: '/api/auth/oidc/login?ritorno=/profilo' }), expect: { anonymous: 302, user: 302, other: 302, admin: 302 } },
  'GET /api/auth/oidc/callback': {
    request: () => ({ url: '/api/auth/oidc/callback?code=matrice&state=matrice' }),
    expect: { anonymous: 302, user: 302, other: 302, admin: 302 },
  },
  // The completion needs its own cookie (a new email back from the provider), which none of these has.
  'GET /api/auth/oidc/completamento': { request: () => ({ url: '/api/auth/oidc/completamento' }), expect: { anonymous: 404, user: 404, other: 404, admin: 404 } },
  'POST /api/auth/oidc/completamento': {
    request: () => ({ url: '/api/auth/oidc/completamento', payload: { nome: 'Nuovo', cognome: 'Collegio', privacy: true } }),
    expect: { anonymous: 404, user: 404, other: 404, admin: 404 },
  },
  // One's own college account: only the owner has one linked (the fixtures), and a password.
  'GET /api/profilo/account-collegio': { request: () => ({ url: '/api/profilo/account-collegio' }), expect: LOGGED_IN },
  'DELETE /api/profilo/account-collegio': { request: () => ({ url: '/api/profilo/account-collegio' }), expect: { anonymous: 401, user: 200, other: 404, admin: 404 } },
  // Passkeys (issue 49): the person's own; the switch is an admin's; no challenge awaits these answers.
  'GET /api/passkeys': { request: () => ({ url: '/api/passkeys' }), expect: LOGGED_IN },
  'POST /api/passkeys/registrazione/opzioni': { request: () => ({ url: '/api/passkeys/registrazione/opzioni' }), expect: LOGGED_IN },
  'POST /api/passkeys/registrazione': {
    request: () => ({ url: '/api/passkeys/registrazione', payload: PASSKEY_ATTESTATION }),
    expect: { anonymous: 401, user: 400, other: 400, admin: 400 },
  },
  'DELETE /api/passkeys/:id': { request: (f) => ({ url: `/api/passkeys/${f.passkeyId}` }), expect: OWNER_ONLY },
  'PUT /api/passkeys/secondo-fattore': { request: () => ({ url: '/api/passkeys/secondo-fattore', payload: { attivo: false } }), expect: ADMIN_ONLY },
  'POST /api/auth/passkey/opzioni': { request: () => ({ url: '/api/auth/passkey/opzioni' }), expect: PUBLIC },
  'POST /api/auth/passkey': {
    request: () => ({ url: '/api/auth/passkey', payload: PASSKEY_ASSERTION }),
    expect: { anonymous: 401, user: 401, other: 401, admin: 401 },
    failedSignIn: 'Passkey non riconosciuta, riprova o accedi con la password',
  },
  'POST /api/login/passkey/opzioni': { request: () => ({ url: '/api/login/passkey/opzioni' }), expect: PENDING_SECOND_FACTOR },
  'POST /api/login/passkey': { request: () => ({ url: '/api/login/passkey', payload: PASSKEY_ASSERTION }), expect: PENDING_SECOND_FACTOR },
  // The second factor's enrolment: admins only. Not started yet: confirming is 400; not active: turning off is 409.
  'GET /api/due-fattori': { request: () => ({ url: '/api/due-fattori' }), expect: ADMIN_ONLY },
  'POST /api/due-fattori/attivazione': { request: () => ({ url: '/api/due-fattori/attivazione' }), expect: ADMIN_ONLY },
  'POST /api/due-fattori/conferma': {
    request: () => ({ url: '/api/due-fattori/conferma', payload: { codice: '123456' } }),
    expect: { ...ADMIN_ONLY, admin: 400 },
  },
  'POST /api/due-fattori/disattivazione': {
    request: () => ({ url: '/api/due-fattori/disattivazione', payload: { codice: '123456' } }),
    expect: { ...ADMIN_ONLY, admin: 409 },
  },
  'GET /api/user': { request: () => ({ url: '/api/user' }), expect: LOGGED_IN },
  'GET /api/current-user': { request: () => ({ url: '/api/current-user' }), expect: LOGGED_IN },
  'GET /api/validate-sigla/:code': { request: (f) => ({ url: `/api/validate-sigla/${f.sigla}` }), expect: PUBLIC },
  // Always 200, the same body whether the email exists or not (§5).
  'POST /api/reset-password': { request: (f) => ({ url: '/api/reset-password', payload: { email: f.ownerEmail } }), expect: PUBLIC },
  // Only the user's own session (or their grant cookie): anyone else 403, nothing changes (§5).
  'POST /api/change-password': {
    request: (f) => ({ url: '/api/change-password', payload: { userId: f.ownerId, newPassword: 'Cambiata-Ora-2026' } }),
    expect: { anonymous: 403, user: 200, other: 403, admin: 403 },
  },
  'GET /api/biciclette': { request: () => ({ url: '/api/biciclette' }), expect: LOGGED_IN },
  'GET /api/biciclette/numero/:numero': { request: () => ({ url: `/api/biciclette/numero/${MATRIX_BIKE_NUMBER}` }), expect: LOGGED_IN },
  'POST /api/biciclette/available': {
    request: () => ({ url: '/api/biciclette/available', payload: { dataPrenotazione: '2026-11-22', orarioInizio: '14:00', orarioFine: '15:00' } }),
    expect: LOGGED_IN,
  },
  'GET /api/prenotazioni/user': { request: () => ({ url: '/api/prenotazioni/user' }), expect: LOGGED_IN },
  // The owner already has an active booking (the fixture): 409 "Hai già una prenotazione attiva".
  'POST /api/prenotazioni': {
    request: (f) => ({ url: '/api/prenotazioni', payload: { dataPrenotazione: '2026-11-22', orarioInizio: '14:00', orarioFine: '15:00', biciId: f.freeBikeId } }),
    expect: { anonymous: 401, user: 409, other: 201, admin: 201 },
  },
  'DELETE /api/prenotazioni/:id': { request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}` }), expect: OWNER_ONLY },
  // The owner's booking is tomorrow (too early to pick up) and not picked up (nothing to return): 409.
  // Both as the device's queue sends them (decision 026): an id of the action and the device's time.
  'POST /api/prenotazioni/:id/ritiro': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/ritiro`, payload: DEVICE_ACTION }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  'POST /api/prenotazioni/:id/riconsegna': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/riconsegna`, payload: DEVICE_ACTION }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  // `Prolunga` (issue 35): the owner's booking is not picked up, no ride to extend (409); anyone else 404.
  'GET /api/prenotazioni/:id/prolunga': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/prolunga` }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  'POST /api/prenotazioni/:id/prolunga': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/prolunga`, payload: { minuti: 30 } }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  // The lock's code (issue 34): the owner's booking is tomorrow, before its window (409); anyone else 404.
  'GET /api/prenotazioni/:id/codice': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/codice` }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  // The fleet (issue 35): the owner's booking is tomorrow, before its pick-up window (409), and
  // its bike is not late (nothing to wait for, 409); anyone else 404.
  'POST /api/prenotazioni/:id/problema': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/problema`, payload: { categoria: 'freni', descrizione: 'Freno rotto' } }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  'POST /api/prenotazioni/:id/aspetta': {
    request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/aspetta` }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  // No login, no role: a verified signature is what authorises (§7); without one, 400.
  'POST /api/payments/webhook': {
    request: () => ({ url: '/api/payments/webhook', payload: WEBHOOK_EVENT, headers: { 'content-type': 'application/json' } }),
    expect: PUBLIC,
  },
  'POST /api/create-payment-intent': { request: (f) => ({ url: '/api/create-payment-intent', payload: { bookingId: f.bookingId } }), expect: OWNER_ONLY },
  // The owner's intent is not paid yet: 409 (§7 "otherwise 400/409"); not the owner: 404.
  'POST /api/confirm-payment': {
    request: (f) => ({ url: '/api/confirm-payment', payload: { paymentIntentId: f.intentId, bookingId: f.bookingId } }),
    expect: { anonymous: 401, user: 409, other: 404, admin: 404 },
  },
  'POST /api/external-bookings/:bookingId/payment': { request: (f) => ({ url: `/api/external-bookings/${f.bookingId}/payment` }), expect: OWNER_ONLY },
  'POST /api/payments/simulated/intents/:intentId/confirm': {
    request: (f) => ({ url: `/api/payments/simulated/intents/${f.intentId}/confirm`, payload: { ...CARD, clientSecret: f.clientSecret } }),
    expect: OWNER_ONLY,
  },
  'GET /api/payments/simulated/checkout/:sessionId': { request: (f) => ({ url: `/api/payments/simulated/checkout/${f.checkoutId}` }), expect: OWNER_ONLY },
  'POST /api/payments/simulated/checkout/:sessionId/pay': {
    request: (f) => ({ url: `/api/payments/simulated/checkout/${f.checkoutId}/pay`, payload: CARD }),
    expect: OWNER_ONLY,
  },
  'GET /api/reports': { request: () => ({ url: '/api/reports' }), expect: ADMIN_ONLY },
  'GET /api/reports/download/:id': { request: (f) => ({ url: `/api/reports/download/${f.reportId}` }), expect: ADMIN_ONLY },
  'GET /api/admin/summary': { request: () => ({ url: '/api/admin/summary' }), expect: ADMIN_ONLY },
  'GET /api/admin/prenotazioni': { request: () => ({ url: '/api/admin/prenotazioni?page=1&pageSize=10&stato=attiva&q=a&sedeId=1' }), expect: ADMIN_ONLY },
  'DELETE /api/admin/prenotazioni/:id': { request: (f) => ({ url: `/api/admin/prenotazioni/${f.targetBookingId}` }), expect: ADMIN_ONLY },
  'GET /api/admin/users': { request: () => ({ url: '/api/admin/users?page=1&pageSize=10&sedeId=1' }), expect: ADMIN_ONLY },
  'PUT /api/admin/users/:id': {
    request: (f) => ({
      url: `/api/admin/users/${f.targetId}`,
      payload: { nome: 'Cambiato', cognome: 'Nome', email: 'cambiato@example.it', ruolo: 'user', isResidente: true, attiva: true },
    }),
    expect: ADMIN_ONLY,
  },
  'DELETE /api/admin/users/:id': { request: (f) => ({ url: `/api/admin/users/${f.targetId}` }), expect: ADMIN_ONLY },
  'GET /api/admin/biciclette': { request: (f) => ({ url: `/api/admin/biciclette?sedeId=${f.sedeId}` }), expect: ADMIN_ONLY },
  'GET /api/admin/biciclette/etichette.pdf': { request: () => ({ url: '/api/admin/biciclette/etichette.pdf' }), expect: ADMIN_ONLY },
  'PUT /api/admin/biciclette/:id': { request: (f) => ({ url: `/api/admin/biciclette/${f.bikeId}`, payload: { stato: 'manutenzione' } }), expect: ADMIN_ONLY },
  'PUT /api/admin/biciclette/:id/lucchetto': {
    request: (f) => ({ url: `/api/admin/biciclette/${f.bikeId}/lucchetto`, payload: { tipo: 'combinazione', codice: '4821' } }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/biciclette': {
    request: () => ({ url: '/api/admin/biciclette', payload: { numero: 'M-1', modello: 'City Bike' } }),
    expect: { ...ADMIN_ONLY, admin: 201 },
  },
  'POST /api/admin/import-residents': { request: () => ({ url: '/api/admin/import-residents' }), expect: ADMIN_ONLY },
  'GET /api/admin/danni': { request: (f) => ({ url: `/api/admin/danni?sedeId=${f.sedeId}` }), expect: ADMIN_ONLY },
  'POST /api/admin/danni/:id/risolta': { request: (f) => ({ url: `/api/admin/danni/${f.damageId}/risolta` }), expect: ADMIN_ONLY },
  // Repair tickets (issue 48): the list is staff's, a report anyone's, a ticket its reporter's (and staff's).
  'GET /api/interventi': { request: () => ({ url: '/api/interventi?stato=tutti' }), expect: ADMIN_ONLY },
  'POST /api/interventi': {
    request: (f) => ({ url: '/api/interventi', ...multipartText({ biciId: String(f.bikeId), categoria: 'freni', descrizione: 'Il freno fischia' }) }),
    expect: { anonymous: 401, user: 201, other: 201, admin: 201 },
  },
  'GET /api/interventi/:id': { request: (f) => ({ url: `/api/interventi/${f.ticketId}` }), expect: { anonymous: 401, user: 200, other: 404, admin: 200 } },
  'PATCH /api/interventi/:id': { request: (f) => ({ url: `/api/interventi/${f.ticketId}`, payload: { stato: 'in_lavorazione' } }), expect: ADMIN_ONLY },
  'POST /api/interventi/:id/note': {
    request: (f) => ({ url: `/api/interventi/${f.ticketId}/note`, ...multipartText({ testo: 'Pastiglie cambiate', minuti: '20' }) }),
    expect: { anonymous: 401, user: 403, other: 403, admin: 201 },
  },
  'GET /api/interventi/:id/foto/:fotoId': {
    request: (f) => ({ url: `/api/interventi/${f.ticketId}/foto/${f.ticketPhotoId}` }),
    expect: { anonymous: 401, user: 200, other: 404, admin: 200 },
  },
  'GET /api/admin/ritardi': { request: (f) => ({ url: `/api/admin/ritardi?sedeId=${f.sedeId}` }), expect: ADMIN_ONLY },
  'POST /api/admin/prenotazioni/:id/rilascia': { request: (f) => ({ url: `/api/admin/prenotazioni/${f.rideId}/rilascia` }), expect: ADMIN_ONLY },
  // The desk (issue 48): a booking's detail, a pick-up and a return on the person's behalf
  // (admins and staff with the role at its sede: tests/api/staff-matrix.test.ts).
  'GET /api/admin/prenotazioni/:id': { request: (f) => ({ url: `/api/admin/prenotazioni/${f.targetBookingId}` }), expect: ADMIN_ONLY },
  'POST /api/admin/prenotazioni/:id/ritiro': { request: (f) => ({ url: `/api/admin/prenotazioni/${f.pickupId}/ritiro` }), expect: ADMIN_ONLY },
  'POST /api/admin/prenotazioni/:id/riconsegna': { request: (f) => ({ url: `/api/admin/prenotazioni/${f.rideId}/riconsegna` }), expect: ADMIN_ONLY },
  // The service's rules (issue 20).
  'GET /api/regole': { request: () => ({ url: '/api/regole' }), expect: LOGGED_IN },
  'GET /api/admin/regole': { request: () => ({ url: '/api/admin/regole' }), expect: ADMIN_ONLY },
  'PUT /api/admin/regole': { request: () => ({ url: '/api/admin/regole', payload: RULES }), expect: ADMIN_ONLY },
  // A sede's own hours (issue 47).
  'GET /api/admin/sedi/:id/orari': { request: (f) => ({ url: `/api/admin/sedi/${f.firstSedeId}/orari` }), expect: ADMIN_ONLY },
  'PUT /api/admin/sedi/:id/orari': { request: (f) => ({ url: `/api/admin/sedi/${f.firstSedeId}/orari`, payload: { orari: RULES.orari } }), expect: ADMIN_ONLY },
  'GET /api/admin/chiusure': { request: () => ({ url: '/api/admin/chiusure' }), expect: ADMIN_ONLY },
  'POST /api/admin/chiusure/anteprima': { request: () => ({ url: '/api/admin/chiusure/anteprima', payload: CLOSURE }), expect: ADMIN_ONLY },
  'POST /api/admin/chiusure': { request: () => ({ url: '/api/admin/chiusure', payload: CLOSURE }), expect: { ...ADMIN_ONLY, admin: 201 } },
  'DELETE /api/admin/chiusure/:id': { request: (f) => ({ url: `/api/admin/chiusure/${f.closureId}` }), expect: ADMIN_ONLY },
  'GET /api/admin/manutenzioni': { request: () => ({ url: '/api/admin/manutenzioni' }), expect: ADMIN_ONLY },
  'POST /api/admin/biciclette/:id/manutenzioni/anteprima': {
    request: (f) => ({ url: `/api/admin/biciclette/${f.bikeId}/manutenzioni/anteprima`, payload: MAINTENANCE }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/biciclette/:id/manutenzioni': {
    request: (f) => ({ url: `/api/admin/biciclette/${f.bikeId}/manutenzioni`, payload: MAINTENANCE }),
    expect: { ...ADMIN_ONLY, admin: 201 },
  },
  'DELETE /api/admin/manutenzioni/:id': { request: (f) => ({ url: `/api/admin/manutenzioni/${f.maintenanceId}` }), expect: ADMIN_ONLY },
  'POST /api/admin/prenotazioni': {
    request: (f) => ({
      url: '/api/admin/prenotazioni',
      payload: { userId: f.deskUserId, dataPrenotazione: '2026-11-23', orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, biciId: f.freeBikeId },
    }),
    expect: { ...ADMIN_ONLY, admin: 201 },
  },
  // The audit log (issue 23): read-only, admins only.
  'GET /api/admin/audit': {
    request: (f) => ({ url: `/api/admin/audit?page=1&pageSize=10&admin=${f.adminId}&azione=user.update&dal=2026-11-01&al=2026-11-30` }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/audit.csv': { request: () => ({ url: '/api/admin/audit.csv?azione=bike.update&dal=2026-11-01&sedeId=1' }), expect: ADMIN_ONLY },
  'GET /api/admin/audit/admins': { request: () => ({ url: '/api/admin/audit/admins' }), expect: ADMIN_ONLY },
  'POST /api/admin/users/:id/revoca-sospensione': { request: (f) => ({ url: `/api/admin/users/${f.targetId}/revoca-sospensione` }), expect: ADMIN_ONLY },
  // The waitlist (issue 21): each user's own waits; a window with bikes free is not waited for (409).
  'GET /api/attese': { request: () => ({ url: '/api/attese' }), expect: LOGGED_IN },
  'POST /api/attese': {
    request: () => ({ url: '/api/attese', payload: { dataPrenotazione: '2026-11-22', orarioInizio: '14:00', orarioFine: '15:00', destinazione: null } }),
    expect: { anonymous: 401, user: 409, other: 409, admin: 409 },
  },
  'DELETE /api/attese/:id': { request: (f) => ({ url: `/api/attese/${f.waitId}` }), expect: { anonymous: 401, user: 204, other: 404, admin: 404 } },
  // The owner's wait holds no offer: 409 "L'offerta non è più valida".
  'POST /api/attese/:id/accetta': { request: (f) => ({ url: `/api/attese/${f.waitId}/accetta` }), expect: { anonymous: 401, user: 409, other: 404, admin: 404 } },
  'POST /api/attese/:id/rinuncia': { request: (f) => ({ url: `/api/attese/${f.waitId}/rinuncia` }), expect: { anonymous: 401, user: 409, other: 404, admin: 404 } },
  'GET /api/admin/attese': { request: (f) => ({ url: `/api/admin/attese?sedeId=${f.sedeId}` }), expect: ADMIN_ONLY },
  'GET /api/admin/stats': { request: () => ({ url: '/api/admin/stats?period=7' }), expect: ADMIN_ONLY },
  'GET /api/admin/stats/export.csv': { request: () => ({ url: '/api/admin/stats/export.csv?period=30' }), expect: ADMIN_ONLY },
  // The profile page (decision 022): each user's own profile, so every logged-in user may.
  'GET /api/profilo': { request: () => ({ url: '/api/profilo' }), expect: LOGGED_IN },
  'GET /api/sedi': { request: () => ({ url: '/api/sedi' }), expect: LOGGED_IN },
  // /admin → Sedi (issue 47): admins only.
  'GET /api/admin/sedi': { request: () => ({ url: '/api/admin/sedi' }), expect: ADMIN_ONLY },
  'POST /api/admin/sedi': {
    request: () => ({ url: '/api/admin/sedi', payload: { nome: 'Residenza Nuova', indirizzo: 'Via Roma 1' } }),
    expect: { ...ADMIN_ONLY, admin: 201 },
  },
  'PUT /api/admin/sedi/:id': {
    request: (f) => ({ url: `/api/admin/sedi/${f.sedeId}`, payload: { nome: 'Residenza Matrice', notaRastrelliera: 'Cortile' } }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/sedi/:id/archivia': { request: (f) => ({ url: `/api/admin/sedi/${f.sedeId}/archivia` }), expect: ADMIN_ONLY },
  'POST /api/admin/sedi/:id/riattiva': { request: (f) => ({ url: `/api/admin/sedi/${f.archivedSedeId}/riattiva` }), expect: ADMIN_ONLY },
  'PATCH /api/profilo': { request: () => ({ url: '/api/profilo', payload: { nome: 'Rinominato', promemoria: false } }), expect: LOGGED_IN },
  // The owner's password is the current one; the others' is not: 400 "La password attuale non è corretta".
  'POST /api/profilo/password': {
    request: (f) => ({ url: '/api/profilo/password', payload: { passwordAttuale: f.ownerPassword, nuovaPassword: 'Cambiata-Profilo-2026' } }),
    expect: { anonymous: 401, user: 200, other: 400, admin: 400 },
  },
  'POST /api/profilo/calendario': { request: () => ({ url: '/api/profilo/calendario' }), expect: LOGGED_IN },
  // The person's own data (issue 23, decision 029): each user's own export and deletion. The
  // deletion asks the password again: only the owner's is right (the others' 400).
  'GET /api/profilo/dati': { request: () => ({ url: '/api/profilo/dati' }), expect: LOGGED_IN },
  'GET /api/profilo/eliminazione': { request: () => ({ url: '/api/profilo/eliminazione' }), expect: LOGGED_IN },
  'DELETE /api/profilo': {
    request: (f) => ({ url: '/api/profilo', payload: { password: f.ownerPassword } }),
    expect: { anonymous: 401, user: 200, other: 400, admin: 400 },
  },
  'DELETE /api/profilo/calendario': { request: () => ({ url: '/api/profilo/calendario' }), expect: { anonymous: 401, user: 204, other: 204, admin: 204 } },
  'POST /api/push/iscrizioni': {
    request: () => ({ url: '/api/push/iscrizioni', payload: { endpoint: 'https://push.example.net/matrice/1', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } } }),
    expect: { anonymous: 401, user: 201, other: 201, admin: 201 },
  },
  'DELETE /api/push/iscrizioni': {
    request: () => ({ url: '/api/push/iscrizioni', payload: { endpoint: 'https://push.example.net/matrice/1' } }),
    expect: { anonymous: 401, user: 204, other: 204, admin: 204 },
  },
  // No session: the token in the path is the credential (the owner's feed, whoever asks).
  'GET /api/calendario/:token': { request: (f) => ({ url: `/api/calendario/${f.calendarToken}` }), expect: PUBLIC },
  'GET /api/prenotazioni/:id/calendario.ics': { request: (f) => ({ url: `/api/prenotazioni/${f.bookingId}/calendario.ics` }), expect: OWNER_ONLY },
  // The rack's board (issue 34): the admin's link, and the board it opens without a login.
  'POST /api/admin/rastrelliera': { request: () => ({ url: '/api/admin/rastrelliera' }), expect: { ...ADMIN_ONLY, admin: 201 } },
  'GET /api/admin/rastrelliera': { request: () => ({ url: '/api/admin/rastrelliera' }), expect: ADMIN_ONLY },
  'DELETE /api/admin/rastrelliera': { request: () => ({ url: '/api/admin/rastrelliera' }), expect: { ...ADMIN_ONLY, admin: 204 } },
  'GET /api/rastrelliera/:token': { request: (f) => ({ url: `/api/rastrelliera/${f.rackToken}` }), expect: PUBLIC },
  // The stream stays open (read over a socket in rack.test.ts); here a revoked-style wrong token: 404 for everyone.
  'GET /api/rastrelliera/:token/eventi': {
    request: (f) => ({ url: `/api/rastrelliera/${f.rackToken.slice(1)}x/eventi` }),
    expect: { anonymous: 404, user: 404, other: 404, admin: 404 },
  },
  // The API's description and its reference page (issue 24, decision 031): public, no secret in them.
  'GET /api/openapi.json': { request: () => ({ url: '/api/openapi.json' }), expect: PUBLIC },
  'GET /api/docs': { request: () => ({ url: '/api/docs' }), expect: PUBLIC },
  'GET /api/docs/json': { request: () => ({ url: '/api/docs/json' }), expect: PUBLIC },
  'GET /api/docs/yaml': { request: () => ({ url: '/api/docs/yaml' }), expect: PUBLIC },
  'GET /api/docs/static/swagger-initializer.js': { request: () => ({ url: '/api/docs/static/swagger-initializer.js' }), expect: PUBLIC },
  'GET /api/docs/static/*': { request: () => ({ url: '/api/docs/static/swagger-ui-bundle.js' }), expect: PUBLIC },
  // Swagger UI's old address of the page: a redirect to it.
  'GET /api/docs/static/index.html': { request: () => ({ url: '/api/docs/static/index.html' }), expect: { anonymous: 302, user: 302, other: 302, admin: 302 } },
};

let ctx: TestContext & { routes: RouteEntry[] };
/** Every /api route, and /metrics (the one route the app serves outside /api besides the web app). */
const apiRoutes = () => ctx.routes.filter((r) => r.url.startsWith('/api/') || r.url === '/metrics');
const key = (r: RouteEntry) => `${r.method} ${r.url}`;

/** A photo's bytes (an 8 px JPEG) for the ticket's fixture. */
let MATRIX_PHOTO: Buffer;
/** The local OpenID provider of the college account's routes (issue 49). */
let oidcProvider: LocalOidcProvider;

beforeAll(async () => {
  MATRIX_PHOTO = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } }).jpeg().toBuffer();
  oidcProvider = await startOidcProvider({ clientRedirectUri: TEST_CALLBACK });
  ctx = await createTestApp({ env: { RESIDENT_INITIAL_PASSWORD: 'Iniziale-Matrice-2026', ...oidcProvider.env }, deps: { mailer: capturingMailer() } });
});
afterAll(async () => {
  await ctx?.close();
  await oidcProvider?.close();
});

async function fixtures(): Promise<Fixtures> {
  const db = ctx.database.db;
  await truncateAll(db);
  // A sede's own week (issue 47): none, so that setting one is a change every time.
  await db.execute(sql`truncate orari_sede`);
  // The install's first sede, and an empty second one, open, as every case expects (issue 47).
  await db.execute(sql`delete from sedi where id <> (select min(id) from sedi) and nome not in ('Residenza Matrice', 'Residenza Archiviata')`);
  await db.execute(sql`insert into sedi (nome) values ('Residenza Matrice'), ('Residenza Archiviata') on conflict do nothing`);
  await db.execute(sql`update sedi set indirizzo = '', nota_rastrelliera = null,
    archiviata_at = case when nome = 'Residenza Archiviata' then '2026-11-01T00:00:00Z'::timestamptz end`);
  const sedeNamed = async (nome: string) => (await db.execute<{ id: number }>(sql`select id from sedi where nome = ${nome}`)).rows[0]!.id;
  const sedeId = await sedeNamed('Residenza Matrice');
  const archivedSedeId = await sedeNamed('Residenza Archiviata');
  const owner = await createUser(db, { isResidente: false });
  const { token } = await createSession(db, owner.id, 'session', ctx.clock.now());
  await db.insert(identitaEsterne).values({ userId: owner.id, issuer: oidcProvider.issuer, sub: 'matrice', email: owner.email });
  const ownerCookie = `bicielis_session=${token}`;
  const other = await person(ctx, { residente: false });
  const admin = await person(ctx, { ruolo: 'admin' });
  const target = await person(ctx);
  const resident = await createResident(db);
  const bikeId = await insertBike(db, { numero: MATRIX_BIKE_NUMBER });
  const freeBikeId = await insertBike(db);
  const bookingId = await bookThroughApi(ctx.app, { id: owner.id, cookie: ownerCookie }, bikeId);
  const targetBookingId = await insertBooking(db, { userId: target.id, biciId: freeBikeId, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'completata' });
  const [damage] = await db
    .insert(interventi)
    .values({ prenotazioneId: targetBookingId, biciId: freeBikeId, segnalatoDa: target.id, origine: 'riconsegna', categoria: 'luci', descrizione: 'Luce posteriore rotta' })
    .returning({ id: interventi.id });
  const [ticket] = await db
    .insert(interventi)
    .values({ biciId: bikeId, segnalatoDa: owner.id, origine: 'segnalazione', categoria: 'freni', descrizione: 'Il freno fischia' })
    .returning({ id: interventi.id });
  const [photo] = await db
    .insert(interventiFoto)
    .values({ interventoId: ticket!.id, caricataDa: owner.id, mime: 'image/jpeg', dati: MATRIX_PHOTO, larghezza: 8, altezza: 8 })
    .returning({ id: interventiFoto.id });
  // A ride in progress now (picked up at its start), for the admin's release.
  const rideId = await insertBooking(db, {
    userId: target.id,
    biciId: freeBikeId,
    date: '2026-11-21',
    from: '09:30',
    to: '11:00',
    ritirataAt: new Date('2026-11-21T08:30:00Z'),
  });
  const pickupId = await insertBooking(db, { userId: (await person(ctx)).id, biciId: bikeId, date: '2026-11-21', from: '10:00', to: '11:00' });
  const asOwner = (url: string, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: { cookie: ownerCookie }, ...(payload ? { payload } : {}) });
  const intent = (await asOwner('/api/create-payment-intent', { bookingId })).json();
  const checkout = (await asOwner(`/api/external-bookings/${bookingId}/payment`)).json();
  const checkoutId = /cs_sim_[A-Za-z0-9]+/.exec(checkout.paymentUrl)![0];
  const [report] = await db
    .insert(reports)
    .values({ fileName: 'Report_BiciElis_2026-11-20.pdf', reportDate: '2026-11-20', pdf: Buffer.from('%PDF-1.4\n%%EOF\n'), fileSize: 15 })
    .returning({ id: reports.id });
  const [closure] = await db.insert(chiusure).values({ dal: '2027-01-10', al: '2027-01-11', motivo: 'Inventario' }).returning({ id: chiusure.id });
  const [maintenance] = await db
    .insert(manutenzioni)
    .values({ biciId: freeBikeId, inizio: new Date('2026-12-05T08:00:00Z'), fine: new Date('2026-12-05T10:00:00Z'), motivo: 'Freni' })
    .returning({ id: manutenzioni.id });
  const provider = ctx.app.deps.payments as SimulatedProvider;
  const secret = await provider.signingSecret();
  const calendarToken = await rotateCalendarToken({ db, clock: ctx.clock, pushPublicKey: async () => null }, owner.id);
  noteSecret(calendarToken);
  await db.execute(sql`truncate rastrelliera_link restart identity`);
  const rack = await createRackLink(db, { id: admin.id, email: admin.email }, ctx.clock.now());
  noteSecret(rack.token);
  // The VAPID pair is made before the cases, as a deployment's first profile view would.
  await ctx.app.deps.pushPublicKey();
  return {
    cookies: { anonymous: null, user: ownerCookie, other: other.cookie, admin: admin.cookie },
    adminId: admin.id,
    ownerId: owner.id,
    ownerEmail: owner.email,
    ownerPassword: owner.password,
    targetId: target.id,
    bikeId,
    freeBikeId,
    bookingId,
    targetBookingId,
    damageId: damage!.id,
    ticketId: ticket!.id,
    ticketPhotoId: photo!.id,
    rideId,
    pickupId,
    intentId: intent.paymentIntentId,
    clientSecret: intent.clientSecret,
    checkoutId,
    reportId: report!.id,
    closureId: closure!.id,
    firstSedeId: (await db.execute<{ id: number }>(sql`select min(id) as id from sedi`)).rows[0]!.id,
    maintenanceId: maintenance!.id,
    deskUserId: (await person(ctx)).id,
    waitId: (
      await db.execute<{ id: number }>(sql`
        insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, created_at)
        values (${owner.id}, '2026-11-22', '10:00', '12:00', '2026-11-22T09:00:00Z', '2026-11-22T11:00:00Z', ${ctx.clock.now().toISOString()}::timestamptz)
        returning id`)
    ).rows[0]!.id,
    sigla: resident.sigla,
    calendarToken,
    rackToken: rack.token,
    sedeId,
    archivedSedeId,
    webhookSignature: async (payload) => Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    passkeyId: (
      await db
        .insert(passkeys)
        .values({ userId: owner.id, credentialId: 'bWF0cmljZQ', chiavePubblica: Buffer.from([1]), nome: 'Chrome su Linux' })
        .returning({ id: passkeys.id })
    )[0]!.id,
  };
}

describe('the authorisation matrix', () => {
  it('has a row for every /api route (and /metrics) the app registers, and no row for a route it does not', () => {
    const registered = new Set(apiRoutes().filter((r) => r.method !== 'HEAD').map(key));
    expect(registered.size).toBeGreaterThan(30);
    expect([...registered].filter((k) => !(k in MATRIX)), 'routes without a row').toEqual([]);
    expect(Object.keys(MATRIX).filter((k) => !registered.has(k)), 'rows without a route').toEqual([]);
    // HEAD routes are Fastify's mirrors of GET routes: each must have its GET row.
    const heads = apiRoutes().filter((r) => r.method === 'HEAD');
    expect(heads.filter((r) => !(`GET ${r.url}` in MATRIX))).toEqual([]);
  });

  it('fails when a registered route has no row (the check is not blind)', () => {
    const withExtra = [...apiRoutes(), { method: 'PATCH', url: '/api/prenotazioni/:id' }];
    expect(withExtra.filter((r) => r.method !== 'HEAD').map(key).filter((k) => !(k in MATRIX))).toEqual(['PATCH /api/prenotazioni/:id']);
  });

  const cases = () =>
    apiRoutes().flatMap((route) => {
      const row = MATRIX[key(route)] ?? MATRIX[`GET ${route.url}`];
      return row ? ROLES.map((role) => ({ route, role, row })) : [];
    });

  it('answers each route and role with the expected status; a refusal writes nothing and says why in Italian', async () => {
    const failures: string[] = [];
    let checked = 0;
    // Fixtures are made again only when a case changed the database (most cases are
    // refusals or reads): the same state for every case, at a fraction of the cost.
    // Every row written is noted (tests/helpers/db-digest.ts): one indexed read per case
    // instead of a digest of every table before and after it.
    const writes: WriteLog = await installWriteLog(ctx.database.db);
    let current: { f: Fixtures; mark: number } | undefined;
    for (const { route, role, row } of cases()) {
      if (!current || (await writes.writtenSince(current.mark)).length > 0) {
        const f = await fixtures();
        await ctx.app.freedTime.settled();
        current = { f, mark: await writes.mark() };
      }
      const f = current.f;
      const req = row.request(f);
      const headers: Record<string, string> = { ...req.headers };
      const cookie = f.cookies[role];
      if (cookie) headers.cookie = cookie;
      if (route.url === '/api/payments/webhook') headers['stripe-signature'] = await f.webhookSignature(req.payload as string);
      const res = await ctx.app.inject({
        method: route.method as 'GET',
        url: req.url,
        headers,
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
        ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
      });
      // What a change leads to in the background (the waitlist's offers, the locks' PINs) is done before the digests.
      await ctx.app.freedTime.settled();
      await ctx.app.pins.settled();
      checked += 1;
      const label = `${route.method} ${req.url} as ${role}`;
      const expected = row.expect[role];
      if (res.statusCode !== expected) {
        failures.push(`${label}: ${res.statusCode} (expected ${expected}) ${res.body.slice(0, 200)}`);
        continue;
      }
      const leaks = findLeaks(res.body);
      if (leaks.length) failures.push(`${label}: leaks ${JSON.stringify(leaks)}`);
      if (res.statusCode >= 400 && route.method !== 'HEAD') {
        const message = (res.json() as { message?: unknown }).message;
        if (typeof message !== 'string' || message.length === 0) failures.push(`${label}: no message`);
        if ([401, 403, 404].includes(res.statusCode)) {
          const written = await writes.writtenSince(current.mark);
          const unexpected = row.failedSignIn ? withoutCounters(written) : written;
          if (unexpected.length > 0) failures.push(`${label}: a refused request wrote to the database (${unexpected.join(', ')})`);
        }
        if (res.statusCode === 401 && message !== (row.failedSignIn ?? 'Non autenticato')) failures.push(`${label}: 401 says ${String(message)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBe(apiRoutes().length * ROLES.length);
  }, 600_000);

  it('the webhook without a valid signature: 400 for everyone, nothing changes', async () => {
    for (const role of ROLES) {
      const f = await fixtures();
      const before = await tableDigests(ctx.database.db);
      for (const signature of [undefined, 't=1,v1=deadbeef']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/payments/webhook',
          payload: WEBHOOK_EVENT,
          headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}), ...(f.cookies[role] ? { cookie: f.cookies[role] } : {}) },
        });
        expect(res.statusCode, role).toBe(400);
        expect(res.json().message).toBe('Firma non valida');
      }
      expect(await tableDigests(ctx.database.db)).toEqual(before);
    }
  }, 180_000);
});

/** One admin route called by an admin: whether it changed anything besides the log, and the log rows it added. */
interface AuditOutcome {
  route: string;
  changed: boolean;
  audit: { actorId: number | null; action: string }[];
}

/** Behaviour.md §8: every admin change has its audit row, by the admin who made it; no row without a change. */
function auditProblems(outcomes: AuditOutcome[], adminId: number): string[] {
  return outcomes.flatMap(({ route, changed, audit }) => {
    if (changed && !audit.some((a) => a.actorId === adminId)) return [`${route}: changed the database without an audit row by the admin`];
    if (!changed && audit.length > 0) return [`${route}: an audit row for a change that did not happen`];
    return [];
  });
}

describe('the audit log of admin changes (behaviour.md §8, issue 23)', () => {
  it('every admin route that changes the database writes an audit row by the admin; one that changes nothing writes none', async () => {
    const db = ctx.database.db;
    const mutations = apiRoutes().filter((r) => r.url.startsWith('/api/admin/') && r.method !== 'GET' && r.method !== 'HEAD');
    expect(mutations.length).toBeGreaterThanOrEqual(17);
    const outcomes: AuditOutcome[] = [];
    let adminId = 0;
    for (const route of mutations) {
      const row = MATRIX[key(route)];
      expect(row, key(route)).toBeDefined();
      const f = await fixtures();
      adminId = f.adminId;
      const req = row!.request(f);
      const lastEntry = (await db.execute<{ id: string | null }>(sql`select max(id)::text as id from audit_log`)).rows[0]!.id ?? '0';
      const before = JSON.stringify(await tableDigests(db, ['audit_log', ...WRITTEN_BY_REFUSALS]));
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url: req.url,
        headers: { ...req.headers, cookie: f.cookies.admin! },
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
      });
      expect(res.statusCode, `${key(route)}: ${res.body.slice(0, 200)}`).toBeLessThan(300);
      const after = JSON.stringify(await tableDigests(db, ['audit_log', ...WRITTEN_BY_REFUSALS]));
      const audit = await db
        .select({ actorId: auditLog.actorId, action: auditLog.action })
        .from(auditLog)
        .where(gt(auditLog.id, Number(lastEntry)));
      outcomes.push({ route: key(route), changed: after !== before, audit });
    }
    expect(auditProblems(outcomes, adminId)).toEqual([]);
    // Only the previews change nothing: the check above saw real changes.
    expect(outcomes.filter((o) => !o.changed).map((o) => o.route)).toEqual([
      'POST /api/admin/chiusure/anteprima',
      'POST /api/admin/biciclette/:id/manutenzioni/anteprima',
    ]);
  }, 300_000);

  it('the check is not blind: a change without its row, or a row without a change, is named', () => {
    expect(
      auditProblems(
        [
          { route: 'PUT /api/admin/x', changed: true, audit: [] },
          { route: 'PUT /api/admin/y', changed: true, audit: [{ actorId: 2, action: 'user.update' }] },
          { route: 'POST /api/admin/z/anteprima', changed: false, audit: [{ actorId: 1, action: 'rules.update' }] },
          { route: 'PUT /api/admin/ok', changed: true, audit: [{ actorId: 1, action: 'user.update' }] },
          { route: 'POST /api/admin/ok/anteprima', changed: false, audit: [] },
        ],
        1,
      ),
    ).toEqual([
      'PUT /api/admin/x: changed the database without an audit row by the admin',
      'PUT /api/admin/y: changed the database without an audit row by the admin',
      'POST /api/admin/z/anteprima: an audit row for a change that did not happen',
    ]);
  });
});
