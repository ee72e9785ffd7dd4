import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const reportOperations: ModuleOperations = {
  tag: { name: 'Report', description: 'I report PDF giornalieri' },
  routes: {
    'GET /api/reports': op('admin', 'I report giornalieri conservati (ultimi 30)'),
    'GET /api/reports/download/:id': op('admin', 'Scaricamento del PDF di un report', { media: 'application/pdf', errors: { 404: 'reportsApi.notFound' } }),
  },
};
