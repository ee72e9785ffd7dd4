import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const oidcOperations: ModuleOperations = {
  tag: { name: 'Account del collegio', description: "Accesso con l'account del collegio (OpenID Connect, issue 49)" },
  routes: {
    'GET /api/auth/oidc/login': op('public', "Inizio dell'accesso con l'account del collegio: reindirizza al fornitore", {
      returns: 'Un reindirizzamento (302) al fornitore, o a /login?accesso=errore se non risponde',
      errors: { 404: 'oidc.notConfigured' },
      rateLimited: true,
    }),
    'GET /api/auth/oidc/callback': op('public', 'Ritorno dal fornitore: sessione, secondo fattore, completamento o rifiuto', {
      returns: 'Sempre un reindirizzamento (302): /dashboard, /admin o il ritorno; /verifica-accesso; /accesso/completa; /login?accesso=<codice>',
      errors: { 404: 'oidc.notConfigured' },
      rateLimited: true,
    }),
    'GET /api/auth/oidc/completamento': op('public', "I dati del fornitore per completare un nuovo account (cookie del completamento)", {
      returns: '`{ email, nome, cognome, residente }`',
      errors: { 404: 'oidc.completionExpired' },
    }),
    'POST /api/auth/oidc/completamento': op('public', "Completamento di un nuovo account dall'account del collegio, senza password", {
      ok: 201,
      returns: "L'utente, già autenticato",
      errors: { 400: 'auth.invalidResidentCode', 404: 'oidc.completionExpired', 409: 'http.residentCodeTaken' },
      rateLimited: true,
    }),
    'GET /api/profilo/account-collegio': op('user', "L'account del collegio collegato, se c'è", {
      returns: '`{ collegato, password, etichetta }`',
    }),
    'DELETE /api/profilo/account-collegio': op('user', "Scollega l'account del collegio (solo se l'account ha una password)", {
      errors: { 404: 'oidc.notLinked', 409: 'oidc.needsPassword' },
    }),
  },
};
