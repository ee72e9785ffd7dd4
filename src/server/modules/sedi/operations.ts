import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const sediOperations: ModuleOperations = {
  tag: { name: 'Sedi', description: 'Le residenze (o gli ingressi) dove stanno le biciclette (issue 47, decisione 053)' },
  routes: {
    'GET /api/sedi': op('user', 'Le sedi: le aperte prima, nell’ordine in cui sono state create', {
      returns: '`[{ id, nome, indirizzo, notaRastrelliera, archiviata }]`',
    }),
  },
};
