import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookingIdParamsSchema } from '../../../shared/schemas/booking.js';
import { CALENDAR_TOKEN_PATTERN, calendarFeedParamsSchema } from '../../../shared/schemas/profile.js';
import { authenticatedUser, requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { bookingCalendar, calendarFeed, userOfCalendarToken } from './service.js';
import { testo } from '../../../shared/i18n/index.js';

const ICS_TYPE = 'text/calendar; charset=utf-8';

function sendCalendar(reply: FastifyReply, body: string, disposition: string) {
  return reply
    .header('Cache-Control', 'private, no-store')
    .header('Content-Disposition', disposition)
    .header('X-Robots-Tag', 'noindex')
    .type(ICS_TYPE)
    .send(body);
}

/**
 * The calendar (decision 022): the private feed `GET /api/calendario/:token` (no session: the
 * token is the credential, and the request log masks it: logger.ts) and one booking as an
 * .ics file for its owner.
 */
export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/calendario/:token', { schema: { params: calendarFeedParamsSchema } }, async (request, reply) => {
    const { token } = request.params;
    const userId = CALENDAR_TOKEN_PATTERN.test(token) ? await userOfCalendarToken(app.deps.database.db, token) : null;
    if (userId === null) throw notFound(testo('calendarApi.notFound'), 'CALENDAR_NOT_FOUND');
    const body = await calendarFeed(app.deps.database.db, app.deps.config, userId, app.deps.clock.now());
    return sendCalendar(reply, body, 'inline; filename="bicielis.ics"');
  });

  app.get(
    '/prenotazioni/:id/calendario.ics',
    { schema: { params: bookingIdParamsSchema }, onRequest: requireUser },
    async (request, reply) => {
      const user = authenticatedUser(request);
      const { id } = request.params;
      const body = await bookingCalendar(app.deps.database.db, app.deps.config, user.id, id, app.deps.clock.now(), user.lingua);
      if (body === null) throw notFound(testo('bookingsApi.bookingNotFound'));
      return sendCalendar(reply, body, `attachment; filename="prenotazione-${id}.ics"`);
    },
  );
};
