import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const waitlistOperations: ModuleOperations = {
  tag: { name: "Lista d'attesa", description: 'Attese di una fascia oraria e offerte (decisione 025)' },
  routes: {
    'GET /api/attese': op('user', "Le attese dell'utente"),
    'POST /api/attese': op('user', "Iscrizione alla lista d'attesa di una fascia oraria", {
      ok: 201,
      errors: { 409: 'waitlistApi.bikeFree' },
    }),
    'DELETE /api/attese/:id': op('owner', "Uscita dalla lista d'attesa", { ok: 204, errors: { 404: 'waitlistApi.waitNotFound' } }),
    'POST /api/attese/:id/accetta': op('owner', "Accettazione dell'offerta di una bicicletta", {
      ok: 201,
      errors: { 404: 'waitlistApi.waitNotFound', 409: 'waitlistApi.offerGone' },
    }),
    'POST /api/attese/:id/rinuncia': op('owner', "Rinuncia all'offerta", {
      errors: { 404: 'waitlistApi.waitNotFound', 409: 'waitlistApi.offerGone' },
    }),
  },
};
