import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AdminSedeDto, type SedeDto, sedeIdParamsSchema, sedeWriteSchema } from '../../../shared/schemas/sedi.js';
import { authenticatedUser, requireAdmin, requireUser } from '../../http/auth.js';
import type { Actor } from '../audit/index.js';
import { adminSedi, archiveSede, createSede, reactivateSede, updateSede, type SediAdminDeps } from './admin.js';
import { listSedi } from './service.js';

/** The sedi (issue 47): the list anyone logged in reads (the booking form, the profile, the admin's filters). */
export const sediRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/sedi', { onRequest: requireUser }, async (): Promise<SedeDto[]> => listSedi(app.deps.database.db));
  await app.register(sediAdminRoutes, { prefix: '/admin' });
};

/** /admin → Sedi (issue 47): create, edit, archive, reactivate; 401 anonymous, 403 non-admin. */
const sediAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): SediAdminDeps => ({ db: app.deps.database.db, clock: app.deps.clock });
  const actor = (request: FastifyRequest): Actor => {
    const user = authenticatedUser(request);
    return { id: user.id, email: user.email };
  };
  // onRequest: the role is checked before the body is even parsed or validated.
  app.addHook('onRequest', requireAdmin);

  app.get('/sedi', async (_request, reply): Promise<AdminSedeDto[]> => reply.header('Cache-Control', 'no-store').send(await adminSedi(deps())));

  app.post('/sedi', { schema: { body: sedeWriteSchema } }, async (request, reply) =>
    reply.status(201).send(await createSede(deps(), actor(request), request.body)),
  );

  app.put('/sedi/:id', { schema: { params: sedeIdParamsSchema, body: sedeWriteSchema } }, async (request) =>
    updateSede(deps(), actor(request), request.params.id, request.body),
  );

  app.post('/sedi/:id/archivia', { schema: { params: sedeIdParamsSchema } }, async (request) => archiveSede(deps(), actor(request), request.params.id));

  app.post('/sedi/:id/riattiva', { schema: { params: sedeIdParamsSchema } }, async (request) =>
    reactivateSede(deps(), actor(request), request.params.id),
  );
};
