import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const sediOperations: ModuleOperations = {
  tag: { name: 'Sedi', description: 'Le residenze (o gli ingressi) dove stanno le biciclette (issue 47, decisione 053)' },
  routes: {
    'GET /api/sedi': op('user', 'Le sedi: le aperte prima, nell’ordine in cui sono state create', {
      returns: '`[{ id, nome, indirizzo, notaRastrelliera, archiviata }]`',
    }),
    'GET /api/admin/sedi': op('admin', 'Tutte le sedi, anche archiviate, con biciclette, prenotazioni future e persone di ciascuna', {
      returns: '`[{ id, nome, indirizzo, notaRastrelliera, archiviata, bici, prenotazioniFuture, persone }]`',
    }),
    'POST /api/admin/sedi': op('admin', 'Nuova sede', { ok: 201, errors: { 409: 'sediApi.nameTaken' } }),
    'PUT /api/admin/sedi/:id': op('admin', 'Modifica di una sede (nome, indirizzo, nota sulla rastrelliera)', {
      errors: { 404: 'sediApi.notFound', 409: 'sediApi.nameTaken' },
    }),
    'POST /api/admin/sedi/:id/archivia': op('admin', 'Archiviazione di una sede senza biciclette né prenotazioni future (altrimenti 409); le persone passano alla prima sede aperta', {
      errors: { 404: 'sediApi.notFound', 409: 'sediApi.lastOpen' },
    }),
    'POST /api/admin/sedi/:id/riattiva': op('admin', 'Riattivazione di una sede archiviata', { errors: { 404: 'sediApi.notFound' } }),
  },
};
