import { type ModuleOperations, op, SHARED_REFUSALS } from '../../http/operation.js';
import { MSG_PROBLEM_PICKED_UP } from './problem.js';
import { MSG_NOTHING_TO_WAIT_FOR } from './wait.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const fleetOperations: ModuleOperations = {
  tag: { name: 'Flotta', description: 'Bici in ritardo o guaste: spostamenti, problemi al ritiro, attesa di una bici (decisione 045)' },
  routes: {
    'POST /api/prenotazioni/:id/problema': op('owner', 'La bici ha un problema al ritiro: segnalazione, e la prenotazione spostata su una bici libera o annullata', {
      returns: '{ prenotazione, esito, nuovaBiciNumero, primoInFila, messaggio }',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: MSG_PROBLEM_PICKED_UP },
    }),
    'POST /api/prenotazioni/:id/aspetta': op('owner', 'Aspetta una bici libera: la prenotazione resta e si sposta sulla prima bici che si libera', {
      returns: 'La prenotazione',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: MSG_NOTHING_TO_WAIT_FOR },
    }),
  },
};
