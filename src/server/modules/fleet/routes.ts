import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookingIdParamsSchema, pickupProblemRequestSchema } from '../../../shared/schemas/booking.js';
import { authenticatedUser, requireUser } from '../../http/auth.js';
import { requestLingua } from '../../http/lingua.js';
import { serviceDeps } from '../../http/service-deps.js';
import type { FleetDeps } from './heal.js';
import { reportPickupProblem } from './problem.js';
import { waitForBike } from './wait.js';

/** The rider's side of the fleet that heals itself (issue 35). Every route needs a login. */
export const fleetRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): FleetDeps => ({ ...serviceDeps(app), push: app.deps.push });
  app.addHook('onRequest', requireUser);

  // `La bici ha un problema`: from the pick-up window until `Ritirata`.
  app.post('/prenotazioni/:id/problema', { schema: { params: bookingIdParamsSchema, body: pickupProblemRequestSchema } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await reportPickupProblem(deps(), authenticatedUser(request).id, request.params.id, request.body, requestLingua(request))),
  );

  // `Aspetta`: a booking whose bike is still out keeps its place, and moves to the first bike that frees up.
  app.post('/prenotazioni/:id/aspetta', { schema: { params: bookingIdParamsSchema } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await waitForBike(deps(), authenticatedUser(request).id, request.params.id)),
  );
};
