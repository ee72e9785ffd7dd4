import { type ModuleOperations, op } from '../../http/operation.js';
import { MSG_BIKE_FREE, MSG_OFFER_GONE, MSG_WAIT_NOT_FOUND } from './service.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const waitlistOperations: ModuleOperations = {
  tag: { name: "Lista d'attesa", description: 'Attese di una fascia oraria e offerte (decisione 025)' },
  routes: {
    'GET /api/attese': op('user', "Le attese dell'utente"),
    'POST /api/attese': op('user', "Iscrizione alla lista d'attesa di una fascia oraria", {
      ok: 201,
      errors: { 409: MSG_BIKE_FREE },
    }),
    'DELETE /api/attese/:id': op('owner', "Uscita dalla lista d'attesa", { ok: 204, errors: { 404: MSG_WAIT_NOT_FOUND } }),
    'POST /api/attese/:id/accetta': op('owner', "Accettazione dell'offerta di una bicicletta", {
      ok: 201,
      errors: { 404: MSG_WAIT_NOT_FOUND, 409: MSG_OFFER_GONE },
    }),
    'POST /api/attese/:id/rinuncia': op('owner', "Rinuncia all'offerta", {
      errors: { 404: MSG_WAIT_NOT_FOUND, 409: MSG_OFFER_GONE },
    }),
  },
};
