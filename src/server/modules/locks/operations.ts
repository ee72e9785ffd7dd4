import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const lockOperations: ModuleOperations = {
  tag: { name: 'Lucchetti', description: 'Il codice del lucchetto di una prenotazione (decisione 044)' },
  routes: {
    'GET /api/prenotazioni/:id/codice': op('owner', 'Il codice del lucchetto della prenotazione, nella finestra del ritiro', {
      returns: '{ tipo, codice, validoDa, validoFino }',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'locksApi.codeGone' },
    }),
  },
};
