import { type ModuleOperations, op, type Operation } from '../../http/operation.js';

/** A route of the simulated provider (development and tests): a payment of the caller's own. */
const simulated = (summary: string): Operation => op('owner', `Fornitore simulato: ${summary}`, { errors: { 404: 'paymentsApi.paymentNotFound' } });

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const paymentOperations: ModuleOperations = {
  tag: { name: 'Pagamenti', description: 'Pagamento delle prenotazioni degli esterni (2,50 €)' },
  routes: {
    'POST /api/create-payment-intent': op('owner', 'Avvio del pagamento con carta di una prenotazione (2,50 €)', {
      returns: '`{ clientSecret, paymentIntentId }`',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'paymentsApi.alreadyPaid' },
    }),
    'POST /api/confirm-payment': op('owner', 'Conferma del pagamento: il server verifica l’esito presso il fornitore', {
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'paymentsApi.notSucceeded' },
    }),
    'POST /api/external-bookings/:bookingId/payment': op('owner', 'Pagina di pagamento ospitata (checkout) di una prenotazione', {
      returns: '`{ paymentUrl }`',
      errors: { 404: 'bookingsApi.bookingNotFound' },
    }),
    'POST /api/payments/webhook': op('signature', 'Eventi del fornitore di pagamento (firma verificata, ciascuno applicato una volta)', {
      errors: { 400: 'paymentsApi.invalidSignature' },
    }),
    'POST /api/payments/simulated/intents/:intentId/confirm': simulated('pagamento con carta di un intent'),
    'GET /api/payments/simulated/checkout/:sessionId': simulated('dati della pagina di checkout'),
    'POST /api/payments/simulated/checkout/:sessionId/pay': simulated('pagamento dalla pagina di checkout'),
  },
};
