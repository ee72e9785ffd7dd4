import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportIdParamsSchema } from '../../../shared/schemas/reports.js';
import { requireAdmin } from '../../http/auth.js';
import { requestLingua } from '../../http/lingua.js';
import { listReports, reportFile } from './service.js';

/** The stored nightly reports (behaviour.md §9): admins only (401 anonymous, 403 others), each in the admin's language. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAdmin);

  app.get('/reports', async () => listReports(app.deps.database.db));

  app.get('/reports/download/:id', { schema: { params: reportIdParamsSchema } }, async (request, reply) => {
    const { fileName, pdf } = await reportFile(
      { db: app.deps.database.db, clock: app.deps.clock, config: app.deps.config },
      request.params.id,
      requestLingua(request),
    );
    return reply
      .type('application/pdf')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Content-Length', pdf.length)
      .header('Cache-Control', 'private, no-store')
      .send(pdf);
  });
};
