import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statsQuerySchema } from '../../../shared/schemas/stats.js';
import { requireAdmin } from '../../http/auth.js';
import { exportCsv } from './csv.js';
import { computeStats, type StatsDeps } from './service.js';

/** The staff's statistics, registered under /api/admin/stats: 401 anonymous, 403 non-admin. */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): StatsDeps => ({ db: app.deps.database.db, clock: app.deps.clock, config: app.deps.config });
  app.addHook('onRequest', requireAdmin);

  app.get('/', { schema: { querystring: statsQuerySchema } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return computeStats(deps(), request.query.period);
  });

  app.get('/export.csv', { schema: { querystring: statsQuerySchema } }, async (request, reply) => {
    const { fileName, body } = await exportCsv(deps(), request.query.period);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .type('text/csv; charset=utf-8')
      .send(body);
  });
};
