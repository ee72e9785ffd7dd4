import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookingIdParamsSchema } from '../../../shared/schemas/booking.js';
import { authenticatedUser, requireUser } from '../../http/auth.js';
import { serviceDeps } from '../../http/service-deps.js';
import { rideCode } from './code.js';

/** The rider's lock code (issue 34, decision 044). Every route needs a login. */
export const lockRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);

  // Never cached anywhere: the code is for its owner, now (decision 044).
  app.get('/prenotazioni/:id/codice', { schema: { params: bookingIdParamsSchema } }, async (request, reply) => {
    const answer = await rideCode(serviceDeps(app), authenticatedUser(request).id, request.params.id);
    return reply.header('cache-control', 'no-store').send(answer);
  });
};
