import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const rackOperations: ModuleOperations = {
  tag: { name: 'Schermo della rastrelliera', description: 'Il link per il tablet alla rastrelliera e lo stato delle biciclette ora (decisione 044)' },
  routes: {
    'POST /api/admin/rastrelliera': op(
      'admin',
      'Nuovo link dello schermo della rastrelliera di una sede (`sedeId` nel corpo o nella query; senza, la prima sede): il precedente della stessa sede smette di funzionare',
      {
        ok: 201,
        returns: 'L’indirizzo del link, mostrato una sola volta',
        errors: { 404: 'schemas.sedeNotFound' },
      },
    ),
    'GET /api/admin/rastrelliera': op('admin', 'Se il link dello schermo di una sede (`?sedeId=`, senza: la prima sede) è attivo, e da quando', {
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'DELETE /api/admin/rastrelliera': op('admin', 'Revoca del link dello schermo della rastrelliera di una sede (`?sedeId=`, senza: la prima sede)', {
      ok: 204,
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'GET /api/rastrelliera/:token': op('token', 'Lo stato delle biciclette della sede del link ora, per lo schermo della rastrelliera', {
      errors: { 404: 'rackApi.linkInvalid' },
    }),
    'GET /api/rastrelliera/:token/eventi': op('token', 'Lo stato delle biciclette come flusso di eventi (server-sent events)', {
      media: 'text/event-stream',
      errors: { 404: 'rackApi.linkInvalid' },
    }),
  },
};
