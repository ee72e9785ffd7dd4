import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPLIED_TIME_HEADER,
  availabilityRequestSchema,
  bookingIdParamsSchema,
  bookingRequestSchema,
  extendRequestSchema,
  pickUpRequestSchema,
  returnRequestSchema,
} from '../../../shared/schemas/booking.js';
import { authenticatedUser, requireUser } from '../../http/auth.js';
import { serviceDeps } from '../../http/service-deps.js';
import { sendSharedJson } from '../../http/precompressed.js';
import { availableBikes, createBooking, listBikes, listUserBookings, type BookingDeps } from './service.js';
import { cancelBooking } from './cancel.js';
import { pickUp, returnBike, type RideDeps } from './ride.js';
import { publicRules } from '../rules/index.js';
import { bikeNumberParamsSchema } from '../../../shared/schemas/bike-page.js';
import { bikePage } from './bike-page.js';
import { sedeFilterQuerySchema } from '../../../shared/schemas/sedi.js';
import { extendOptions, extendRide } from './extend.js';

/** Bikes and the user's own bookings (behaviour.md §6). Every route needs a login. */
export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): BookingDeps => serviceDeps(app);
  const rideDeps = (): RideDeps => serviceDeps(app);
  // onRequest: the login is checked before the body is even parsed or validated.
  app.addHook('onRequest', requireUser);

  // Every bike with its sede, or one sede's (`?sedeId=`, issue 47).
  app.get('/biciclette', { schema: { querystring: sedeFilterQuerySchema } }, async (request) => listBikes(deps(), request.query.sedeId));

  // The page a bike's QR code opens (issue 34): its state now, and the caller's own current booking of it.
  app.get('/biciclette/numero/:numero', { schema: { params: bikeNumberParamsSchema } }, async (request, reply) =>
    reply.header('Cache-Control', 'no-store').send(await bikePage(deps(), authenticatedUser(request).id, request.params.numero)),
  );

  // An admin's window is not held to the fair-use limits (issue 20): the desk books for others.
  // The answer's compressed bytes are shared by every request with the same free bikes (decision 040).
  // The sede's bikes (issue 47): the one asked for (`sedeId`), else the caller's home sede.
  app.post('/biciclette/available', { schema: { body: availabilityRequestSchema } }, async (request, reply) => {
    const user = authenticatedUser(request);
    return sendSharedJson(request, reply, await availableBikes(deps(), request.body, user.ruolo !== 'admin', { home: user.sedeId }));
  });

  // The rules the booking form shows and applies, and the user's own suspension (issue 20); the
  // hours and closures of the sede asked for, else of the home sede (issue 47).
  app.get('/regole', { schema: { querystring: sedeFilterQuerySchema } }, async (request) => {
    const user = authenticatedUser(request);
    return publicRules(deps(), user.id, { asked: request.query.sedeId, home: user.sedeId });
  });

  app.get('/prenotazioni/user', async (request) => listUserBookings(deps(), authenticatedUser(request).id));

  app.post('/prenotazioni', { schema: { body: bookingRequestSchema } }, async (request, reply) => {
    const user = authenticatedUser(request);
    const booking = await createBooking(deps(), user, request.body);
    return reply.status(201).send(booking);
  });

  app.delete('/prenotazioni/:id', { schema: { params: bookingIdParamsSchema } }, async (request) =>
    cancelBooking(deps(), authenticatedUser(request).id, request.params.id),
  );

  // The ride (decision 022): the owner marks the bike taken, then brought back. Either may come
  // from the device's queue (decision 026): an optional body with `idAzione` and
  // `oraDispositivo`; the answer's X-Ora-Applicata says whose clock gave the instant applied.
  app.post(
    '/prenotazioni/:id/ritiro',
    { schema: { params: bookingIdParamsSchema, body: pickUpRequestSchema.nullish() } },
    async (request, reply) => {
      const result = await pickUp(rideDeps(), authenticatedUser(request).id, request.params.id, request.body ?? {});
      return reply
        .header(APPLIED_TIME_HEADER, result.oraApplicata)
        .header('cache-control', 'no-store')
        .send({ ...result.booking, nuovoCodice: result.nuovoCodice });
    },
  );

  app.post(
    '/prenotazioni/:id/riconsegna',
    { schema: { params: bookingIdParamsSchema, body: returnRequestSchema.nullish() } },
    async (request, reply) => {
      const result = await returnBike(rideDeps(), authenticatedUser(request).id, request.params.id, request.body ?? {});
      return reply
        .header(APPLIED_TIME_HEADER, result.oraApplicata)
        .header('cache-control', 'no-store')
        .send({ ...result.booking, nuovoCodice: result.nuovoCodice });
    },
  );

  // `Prolunga` (issue 35): the lengths a ride in progress may be extended by now, and the extension.
  app.get('/prenotazioni/:id/prolunga', { schema: { params: bookingIdParamsSchema } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await extendOptions(deps(), authenticatedUser(request).id, request.params.id)),
  );

  app.post(
    '/prenotazioni/:id/prolunga',
    { schema: { params: bookingIdParamsSchema, body: extendRequestSchema } },
    async (request) => extendRide(deps(), authenticatedUser(request).id, request.params.id, request.body.minuti),
  );
};
