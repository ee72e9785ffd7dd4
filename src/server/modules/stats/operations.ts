import { type ModuleOperations, op } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const statsOperations: ModuleOperations = {
  tag: { name: 'Statistiche', description: 'Statistiche di utilizzo ed esportazione CSV' },
  routes: {
    'GET /api/admin/stats': op('admin', 'Statistiche di utilizzo del periodo (7, 30 o 365 giorni)'),
    'GET /api/admin/stats/export.csv': op('admin', 'Prenotazioni del periodo in CSV', { media: 'text/csv' }),
  },
};
