import type { ModuleOperations } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const authOperations: ModuleOperations = {
  tag: { name: 'Account', description: 'Registrazione, accesso, sessione, password' },
  routes: {
    'POST /api/register': {
      summary: 'Registrazione di un nuovo account',
      access: 'public',
      ok: 201,
      returns: "L'utente, già autenticato",
      errors: { 400: 'Sigla non valida o non attiva nel sistema ELIS', 409: 'Email già registrata' },
      rateLimited: true,
    },
    'POST /api/login': {
      summary: 'Accesso con email e password',
      access: 'public',
      returns: "L'utente, con una nuova sessione (o la richiesta del codice di verifica)",
      errors: { 403: "Account disattivato. Contatta l'amministrazione." },
      rateLimited: true,
    },
    'POST /api/logout': { summary: 'Uscita: la sessione viene eliminata', access: 'public' },
    'GET /api/user': { summary: "L'utente della sessione", access: 'user' },
    'GET /api/current-user': { summary: "L'utente della sessione (alias di /api/user)", access: 'user' },
    'GET /api/validate-sigla/:code': { summary: 'Verifica di una sigla di residente', access: 'public', returns: '`{ valid, data? }`', rateLimited: true },
    'POST /api/reset-password': {
      summary: 'Richiesta di una password temporanea via email',
      access: 'public',
      returns: 'Sempre la stessa risposta, che l’email esista o no',
      rateLimited: true,
    },
    'POST /api/change-password': {
      summary: 'Cambio della password (anche quello obbligatorio al primo accesso)',
      access: 'password-change',
      errors: { 403: 'Non hai i permessi per questa operazione' },
    },
  },
};
