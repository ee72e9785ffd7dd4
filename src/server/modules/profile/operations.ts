import type { ModuleOperations } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const profileOperations: ModuleOperations = {
  tag: { name: 'Profilo', description: 'Dati, password, promemoria e notifiche della persona' },
  routes: {
    'GET /api/profilo': { summary: 'Il profilo dell’utente', access: 'user' },
    'PATCH /api/profilo': { summary: 'Modifica di nome, cognome e promemoria', access: 'user' },
    'POST /api/profilo/password': {
      summary: 'Cambio della password dal profilo',
      access: 'user',
      errors: { 400: 'La password attuale non è corretta' },
    },
    'POST /api/profilo/calendario': { summary: 'Nuovo indirizzo privato del calendario', access: 'user', returns: '`{ url }`' },
    'DELETE /api/profilo/calendario': { summary: 'Disattivazione del calendario privato', access: 'user', ok: 204 },
    'POST /api/push/iscrizioni': { summary: 'Iscrizione alle notifiche push del dispositivo', access: 'user', ok: 201 },
    'DELETE /api/push/iscrizioni': { summary: 'Cancellazione dell’iscrizione alle notifiche push', access: 'user', ok: 204 },
  },
};
