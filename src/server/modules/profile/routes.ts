import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  profilePasswordSchema,
  profileUpdateSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  type CalendarLinkDto,
} from '../../../shared/schemas/profile.js';
import { authenticatedUser, requireUser, SESSION_COOKIE } from '../../http/auth.js';
import { noStore } from '../../http/service-deps.js';
import { setLinguaCookie } from '../../http/lingua.js';
import { AppError, badRequest, unauthorized } from '../../http/errors.js';
import { requestLingua } from '../../http/lingua.js';
import { tFor } from '../../../shared/i18n/all.js';
import { tooManyAttempts } from '../auth/index.js';
import { hashSessionToken } from '../auth/index.js';
import { calendarFeedUrl } from './calendar-token.js';
import {
  changeOwnPassword,
  getProfile,
  revokeCalendarToken,
  rotateCalendarToken,
  subscribePush,
  unsubscribePush,
  updateProfile,
  type ProfileDeps,
} from './service.js';
import { testo } from '../../../shared/i18n/index.js';

/** Wrong current passwords allowed per account in 15 minutes (guessing from a stolen session). */
const PROFILE_PASSWORD_FAILURES = { max: 10, timeWindow: 15 * 60_000 } as const;

/**
 * The counter of a logged-in person's wrong current passwords, per account: the password change
 * here and the account deletion (privacy) count in the same one.
 */
export const profilePasswordFailures = (app: FastifyInstance) =>
  app.createRateLimit({
    ...PROFILE_PASSWORD_FAILURES,
    keyGenerator: (request: FastifyRequest) => `profile-password|user:${request.user?.id ?? 0}`,
  });

/**
 * The profile page's API (decision 022), for the logged-in user: name and reminders,
 * password, calendar-feed link, web-push subscriptions. Every route needs a login.
 */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): ProfileDeps => ({
    db: app.deps.database.db,
    clock: app.deps.clock,
    pushPublicKey: app.deps.pushPublicKey,
  });
  // onRequest: the login is checked before the body is even parsed or validated.
  app.addHook('onRequest', requireUser);
  app.addHook('onSend', noStore);

  // Only wrong current passwords count (read before, incremented after a failure), per account.
  const passwordFailures = profilePasswordFailures(app);

  app.get('/profilo', async (request) => getProfile(deps(), authenticatedUser(request).id));

  app.patch('/profilo', { schema: { body: profileUpdateSchema } }, async (request, reply) => {
    const userId = authenticatedUser(request).id;
    const profile = await updateProfile(deps(), userId, request.body);
    // The anonymous pages of this browser follow the account's language (after a logout too).
    if (request.body.lingua !== undefined) setLinguaCookie(request, reply, request.body.lingua);
    // The sessions cached with the old name: the users trigger's notification evicts them in
    // every process just after the commit, but this process's next request must not wait
    // for it (the same as a password change, and as an admin's edit).
    app.deps.sessionCache?.evictUser(userId);
    return profile;
  });

  app.post('/profilo/password', { schema: { body: profilePasswordSchema } }, async (request, reply) => {
    const user = authenticatedUser(request);
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw unauthorized();
    const state = await passwordFailures(request, { increment: false });
    if (!state.isAllowed && state.remaining <= 0) {
      reply.header('retry-after', Math.max(1, Math.ceil(state.ttl / 1000)));
      throw new AppError(429, tooManyAttempts(state.ttl), 'RATE_LIMITED');
    }
    const changed = await changeOwnPassword(deps(), user.id, request.body, hashSessionToken(token));
    if (!changed) {
      await passwordFailures(request);
      throw badRequest(testo('profile.wrongCurrentPassword'), 'WRONG_PASSWORD', { fields: { passwordAttuale: testo('profile.wrongCurrentPassword') } });
    }
    // The other sessions' rows are gone; their notifications evict them from every process's
    // cache just after the commit. This process does not wait for its own: the user's cached
    // sessions go now (this request's is simply read again from the database next time).
    app.deps.sessionCache?.evictUser(user.id);
    return { message: tFor(requestLingua(request))('auth.passwordUpdated') };
  });

  app.post('/profilo/calendario', async (request): Promise<CalendarLinkDto> => {
    const token = await rotateCalendarToken(deps(), authenticatedUser(request).id);
    return { url: calendarFeedUrl(app.deps.config.publicUrl, token) };
  });

  app.delete('/profilo/calendario', async (request, reply) => {
    await revokeCalendarToken(deps(), authenticatedUser(request).id);
    return reply.status(204).send();
  });

  app.post('/push/iscrizioni', { schema: { body: pushSubscriptionSchema } }, async (request, reply) => {
    await subscribePush(deps(), authenticatedUser(request).id, request.body);
    return reply.status(201).send({ message: tFor(requestLingua(request))('profile.notificationsOn') });
  });

  app.delete('/push/iscrizioni', { schema: { body: pushUnsubscribeSchema } }, async (request, reply) => {
    await unsubscribePush(deps(), authenticatedUser(request).id, request.body.endpoint);
    return reply.status(204).send();
  });
};
