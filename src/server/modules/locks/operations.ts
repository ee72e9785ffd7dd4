import { type ModuleOperations, op, SHARED_REFUSALS } from '../../http/operation.js';
import { MSG_CODE_GONE } from '../../../shared/schemas/locks.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const lockOperations: ModuleOperations = {
  tag: { name: 'Lucchetti', description: 'Il codice del lucchetto di una prenotazione (decisione 044)' },
  routes: {
    'GET /api/prenotazioni/:id/codice': op('owner', 'Il codice del lucchetto della prenotazione, nella finestra del ritiro', {
      returns: '{ tipo, codice, validoDa, validoFino }',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: MSG_CODE_GONE },
    }),
  },
};
