import type { ModuleOperations } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const reportOperations: ModuleOperations = {
  tag: { name: 'Report', description: 'I report PDF giornalieri' },
  routes: {
    'GET /api/reports': { summary: 'I report giornalieri conservati (ultimi 30)', access: 'admin' },
    'GET /api/reports/download/:id': { summary: 'Scaricamento del PDF di un report', access: 'admin', media: 'application/pdf', errors: { 404: 'Report non trovato' } },
  },
};
