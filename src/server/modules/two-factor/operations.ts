import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const twoFactorOperations: ModuleOperations = {
  tag: { name: 'Verifica in due passaggi', description: 'Il secondo fattore degli amministratori (decisione 030)' },
  routes: {
    'POST /api/login/codice': op('second-factor', 'Secondo passo dell’accesso: codice di verifica o di recupero', {
      errors: { 400: 'twoFactor.wrongCode' },
      rateLimited: true,
    }),
    'GET /api/due-fattori': op('admin', 'Stato della verifica in due passaggi dell’amministratore'),
    'POST /api/due-fattori/attivazione': op('admin', 'Avvio dell’attivazione: segreto e codice QR'),
    'POST /api/due-fattori/conferma': op('admin', 'Conferma dell’attivazione con un codice; restituisce i codici di recupero'),
    'POST /api/due-fattori/disattivazione': op('admin', 'Disattivazione della verifica in due passaggi', {
      errors: { 409: 'twoFactor.notActive' },
    }),
  },
};
