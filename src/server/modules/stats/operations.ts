import type { ModuleOperations } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const statsOperations: ModuleOperations = {
  tag: { name: 'Statistiche', description: 'Statistiche di utilizzo ed esportazione CSV' },
  routes: {
    'GET /api/admin/stats': { summary: 'Statistiche di utilizzo del periodo (7, 30 o 365 giorni)', access: 'admin' },
    'GET /api/admin/stats/export.csv': { summary: 'Prenotazioni del periodo in CSV', access: 'admin', media: 'text/csv' },
  },
};
