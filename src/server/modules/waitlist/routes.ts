import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { waitIdParamsSchema, waitRequestSchema } from '../../../shared/schemas/waitlist.js';
import { authenticatedUser, requireUser } from '../../http/auth.js';
import { serviceDeps } from '../../http/service-deps.js';
import type { BookingDeps } from '../bookings/index.js';
import { acceptOffer, declineOffer, joinWait, leaveWait, listWaits } from './service.js';

/** The user's waitlist (issue 21). Every route needs a login; a wait is its owner's only (else 404). */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): BookingDeps => serviceDeps(app);
  app.addHook('onRequest', requireUser);

  app.get('/attese', async (request) => listWaits(deps(), authenticatedUser(request).id));

  app.post('/attese', { schema: { body: waitRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await joinWait(deps(), authenticatedUser(request), request.body)),
  );

  app.delete('/attese/:id', { schema: { params: waitIdParamsSchema } }, async (request, reply) => {
    await leaveWait(deps(), authenticatedUser(request).id, request.params.id);
    return reply.status(204).send();
  });

  app.post('/attese/:id/accetta', { schema: { params: waitIdParamsSchema } }, async (request, reply) =>
    reply.status(201).send(await acceptOffer(deps(), authenticatedUser(request), request.params.id)),
  );

  app.post('/attese/:id/rinuncia', { schema: { params: waitIdParamsSchema } }, async (request, reply) => {
    await declineOffer(deps(), authenticatedUser(request).id, request.params.id);
    return reply.status(204).send();
  });
};
