import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const profileOperations: ModuleOperations = {
  tag: { name: 'Profilo', description: 'Dati, password, promemoria e notifiche della persona' },
  routes: {
    'GET /api/profilo': op('user', 'Il profilo dell’utente'),
    'PATCH /api/profilo': op('user', 'Modifica di nome, cognome, promemoria e sede di casa', {
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'POST /api/profilo/password': op('user', 'Cambio della password dal profilo', {
      errors: { 400: 'profile.wrongCurrentPassword' },
    }),
    'POST /api/profilo/calendario': op('user', 'Nuovo indirizzo privato del calendario', { returns: '`{ url }`' }),
    'DELETE /api/profilo/calendario': op('user', 'Disattivazione del calendario privato', { ok: 204 }),
    'POST /api/push/iscrizioni': op('user', 'Iscrizione alle notifiche push del dispositivo', { ok: 201 }),
    'DELETE /api/push/iscrizioni': op('user', 'Cancellazione dell’iscrizione alle notifiche push', { ok: 204 }),
  },
};
