import type { ModuleOperations } from '../../http/operation.js';
import { MSG_ALREADY_PAID, MSG_BOOKING_NOT_FOUND, MSG_PAYMENT_NOT_SUCCEEDED } from './service.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const paymentOperations: ModuleOperations = {
  tag: { name: 'Pagamenti', description: 'Pagamento delle prenotazioni degli esterni (2,50 €)' },
  routes: {
    'POST /api/create-payment-intent': {
      summary: 'Avvio del pagamento con carta di una prenotazione (2,50 €)',
      access: 'owner',
      returns: '`{ clientSecret, paymentIntentId }`',
      errors: { 404: MSG_BOOKING_NOT_FOUND, 409: MSG_ALREADY_PAID },
    },
    'POST /api/confirm-payment': {
      summary: 'Conferma del pagamento: il server verifica l’esito presso il fornitore',
      access: 'owner',
      errors: { 404: MSG_BOOKING_NOT_FOUND, 409: MSG_PAYMENT_NOT_SUCCEEDED },
    },
    'POST /api/external-bookings/:bookingId/payment': {
      summary: 'Pagina di pagamento ospitata (checkout) di una prenotazione',
      access: 'owner',
      returns: '`{ paymentUrl }`',
      errors: { 404: MSG_BOOKING_NOT_FOUND },
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
};
