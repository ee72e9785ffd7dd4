import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const fleetOperations: ModuleOperations = {
  tag: { name: 'Flotta', description: 'Bici in ritardo o guaste: spostamenti, problemi al ritiro, attesa di una bici (decisione 045)' },
  routes: {
    'POST /api/prenotazioni/:id/problema': op('owner', 'La bici ha un problema al ritiro: segnalazione, e la prenotazione spostata su una bici libera o annullata', {
      returns: '{ prenotazione, esito, nuovaBiciNumero, primoInFila, messaggio }',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'fleetApi.problemPickedUp' },
    }),
    'POST /api/prenotazioni/:id/aspetta': op('owner', 'Aspetta una bici libera: la prenotazione resta e si sposta sulla prima bici che si libera', {
      returns: 'La prenotazione',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'fleetApi.nothingToWaitFor' },
    }),
  },
};
