import { type ModuleOperations, op } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const lockOperations: ModuleOperations = {
  tag: { name: 'Lucchetti', description: 'Il codice del lucchetto di una prenotazione (decisione 044)' },
  routes: {
    'GET /api/prenotazioni/:id/codice': op('owner', 'Il codice del lucchetto della prenotazione, nella finestra del ritiro', {
      returns: '{ tipo, codice, validoDa, validoFino }',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'locksApi.codeGone' },
    }),
  },
};
