import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statsQuerySchema } from '../../../shared/schemas/stats.js';
import { listScope, requireCapability } from '../../http/scope.js';
import { exportCsv } from './csv.js';
import { computeStats, type StatsDeps } from './service.js';

/**
 * The staff's statistics, registered under /api/admin/stats: 401 anonymous, 403 without the
 * capability `statistiche` (issue 48: a Portineria's are their sedi's; `?sedeId=` out of scope 404).
 */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): StatsDeps => ({ db: app.deps.database.db, clock: app.deps.clock, config: app.deps.config });
  app.addHook('onRequest', requireCapability('statistiche'));

  app.get('/', { schema: { querystring: statsQuerySchema } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return computeStats(deps(), request.query.period, listScope(request, 'statistiche', request.query.sedeId));
  });

  app.get('/export.csv', { schema: { querystring: statsQuerySchema } }, async (request, reply) => {
    const { fileName, body } = await exportCsv(deps(), request.query.period, listScope(request, 'statistiche', request.query.sedeId));
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .type('text/csv; charset=utf-8')
      .send(body);
  });
};
