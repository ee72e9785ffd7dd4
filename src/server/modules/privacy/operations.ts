import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const privacyOperations: ModuleOperations = {
  tag: { name: 'Dati personali', description: 'Esportazione e cancellazione dei propri dati (decisione 029)' },
  routes: {
    'GET /api/profilo/dati': op('user', 'Esportazione di tutti i propri dati (file JSON)'),
    'GET /api/profilo/eliminazione': op('user', 'Che cosa farebbe la cancellazione dell’account'),
    'DELETE /api/profilo': op('user', 'Cancellazione dell’account e dei propri dati (chiede la password)', {
      errors: { 400: 'privacy.wrongPassword', 409: ['privacy.rideInProgress', 'privacy.lastAdmin'] },
    }),
  },
};
