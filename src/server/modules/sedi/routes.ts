import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SedeDto } from '../../../shared/schemas/sedi.js';
import { requireUser } from '../../http/auth.js';
import { listSedi } from './service.js';

/** The sedi (issue 47): the list anyone logged in reads (the booking form, the profile, the admin's filters). */
export const sediRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/sedi', { onRequest: requireUser }, async (): Promise<SedeDto[]> => listSedi(app.deps.database.db));
};
