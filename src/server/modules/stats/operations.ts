import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const statsOperations: ModuleOperations = {
  tag: { name: 'Statistiche', description: 'Statistiche di utilizzo ed esportazione CSV' },
  routes: {
    'GET /api/admin/stats': op('admin', 'Statistiche di utilizzo del periodo (7, 30 o 365 giorni), con i totali di ogni sede (`sedi`); `?sedeId=` una sede (la Portineria: le sue)'),
    'GET /api/admin/stats/export.csv': op('admin', 'Prenotazioni del periodo in CSV (con più sedi, una colonna `Sede` in fondo); `?sedeId=` una sede (la Portineria: le sue)', { media: 'text/csv' }),
  },
};
