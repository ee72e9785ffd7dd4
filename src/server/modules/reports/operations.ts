import { type ModuleOperations, op } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const reportOperations: ModuleOperations = {
  tag: { name: 'Report', description: 'I report PDF giornalieri' },
  routes: {
    'GET /api/reports': op('admin', 'I report giornalieri conservati (ultimi 30)'),
    'GET /api/reports/download/:id': op('admin', 'Scaricamento del PDF di un report', { media: 'application/pdf', errors: { 404: 'reportsApi.notFound' } }),
  },
};
