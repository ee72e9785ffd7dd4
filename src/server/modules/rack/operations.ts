import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const rackOperations: ModuleOperations = {
  tag: { name: 'Schermo della rastrelliera', description: 'Il link per il tablet alla rastrelliera e lo stato delle biciclette ora (decisione 044)' },
  routes: {
    'POST /api/admin/rastrelliera': op('admin', 'Nuovo link dello schermo della rastrelliera (il precedente smette di funzionare)', {
      ok: 201,
      returns: 'L’indirizzo del link, mostrato una sola volta',
    }),
    'GET /api/admin/rastrelliera': op('admin', 'Se un link dello schermo è attivo, e da quando'),
    'DELETE /api/admin/rastrelliera': op('admin', 'Revoca del link dello schermo della rastrelliera', { ok: 204 }),
    'GET /api/rastrelliera/:token': op('token', 'Lo stato delle biciclette ora, per lo schermo della rastrelliera', {
      errors: { 404: 'rackApi.linkInvalid' },
    }),
    'GET /api/rastrelliera/:token/eventi': op('token', 'Lo stato delle biciclette come flusso di eventi (server-sent events)', {
      media: 'text/event-stream',
      errors: { 404: 'rackApi.linkInvalid' },
    }),
  },
};
