import type { ModuleOperations } from '../../http/operation.js';
import { MSG_BIKE_FREE, MSG_OFFER_GONE, MSG_WAIT_NOT_FOUND } from './service.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const waitlistOperations: ModuleOperations = {
  tag: { name: "Lista d'attesa", description: 'Attese di una fascia oraria e offerte (decisione 025)' },
  routes: {
    'GET /api/attese': { summary: "Le attese dell'utente", access: 'user' },
    'POST /api/attese': {
      summary: "Iscrizione alla lista d'attesa di una fascia oraria",
      access: 'user',
      ok: 201,
      errors: { 409: MSG_BIKE_FREE },
    },
    'DELETE /api/attese/:id': { summary: "Uscita dalla lista d'attesa", access: 'owner', ok: 204, errors: { 404: MSG_WAIT_NOT_FOUND } },
    'POST /api/attese/:id/accetta': {
      summary: "Accettazione dell'offerta di una bicicletta",
      access: 'owner',
      ok: 201,
      errors: { 404: MSG_WAIT_NOT_FOUND, 409: MSG_OFFER_GONE },
    },
    'POST /api/attese/:id/rinuncia': {
      summary: "Rinuncia all'offerta",
      access: 'owner',
      errors: { 404: MSG_WAIT_NOT_FOUND, 409: MSG_OFFER_GONE },
    },
  },
};
