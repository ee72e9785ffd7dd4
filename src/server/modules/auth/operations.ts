import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const authOperations: ModuleOperations = {
  tag: { name: 'Account', description: 'Registrazione, accesso, sessione, password' },
  routes: {
    'POST /api/register': op('public', 'Registrazione di un nuovo account', {
      ok: 201,
      returns: "L'utente, già autenticato",
      errors: { 400: 'auth.invalidResidentCode', 404: 'schemas.sedeNotFound', 409: 'http.emailTaken' },
      rateLimited: true,
    }),
    'POST /api/login': op('public', 'Accesso con email e password', {
      returns: "L'utente, con una nuova sessione (o la richiesta del codice di verifica)",
      errors: { 403: 'auth.accountDisabled' },
      rateLimited: true,
    }),
    'POST /api/logout': op('public', 'Uscita: la sessione viene eliminata'),
    'GET /api/user': op('user', "L'utente della sessione"),
    'GET /api/current-user': op('user', "L'utente della sessione (alias di /api/user)"),
    'GET /api/validate-sigla/:code': op('public', 'Verifica di una sigla di residente', { returns: '`{ valid, data? }`', rateLimited: true }),
    'POST /api/reset-password': op('public', 'Richiesta di una password temporanea via email', {
      returns: 'Sempre la stessa risposta, che l’email esista o no',
      rateLimited: true,
    }),
    'POST /api/change-password': op('password-change', 'Cambio della password (anche quello obbligatorio al primo accesso)', {
      errors: { 403: 'http.forbidden' },
    }),
  },
};
