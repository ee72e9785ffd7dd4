import type { ModuleOperations } from '../../http/operation.js';
import { NOT_ACTIVE_MESSAGE, WRONG_CODE_MESSAGE } from '../../../shared/schemas/two-factor.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const twoFactorOperations: ModuleOperations = {
  tag: { name: 'Verifica in due passaggi', description: 'Il secondo fattore degli amministratori (decisione 030)' },
  routes: {
    'POST /api/login/codice': {
      summary: 'Secondo passo dell’accesso: codice di verifica o di recupero',
      access: 'second-factor',
      errors: { 400: WRONG_CODE_MESSAGE },
      rateLimited: true,
    },
    'GET /api/due-fattori': { summary: 'Stato della verifica in due passaggi dell’amministratore', access: 'admin' },
    'POST /api/due-fattori/attivazione': { summary: 'Avvio dell’attivazione: segreto e codice QR', access: 'admin' },
    'POST /api/due-fattori/conferma': { summary: 'Conferma dell’attivazione con un codice; restituisce i codici di recupero', access: 'admin' },
    'POST /api/due-fattori/disattivazione': {
      summary: 'Disattivazione della verifica in due passaggi',
      access: 'admin',
      errors: { 409: NOT_ACTIVE_MESSAGE },
    },
  },
};
