import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { zonedToday } from '../../../shared/time.js';
import { accountDeleteSchema } from '../../../shared/schemas/privacy.js';
import { authenticatedUser, clearSessionCookie, requireUser, SESSION_COOKIE } from '../../http/auth.js';
import { noStore, serviceDeps } from '../../http/service-deps.js';
import { AppError } from '../../http/errors.js';
import { requestLingua } from '../../http/lingua.js';
import { tFor } from '../../../shared/i18n/all.js';
import { tooManyAttempts } from '../auth/index.js';
import { hashSessionToken } from '../auth/index.js';
import { profilePasswordFailures } from '../profile/index.js';
import { deletionPreview, eraseAccount, type PrivacyDeps } from './erase.js';
import { buildDataExport } from './export.js';

/**
 * The person's own data (issue 23, decision 029), for the logged-in user: the export, what a
 * deletion would do, and the deletion. Never cached.
 */
export const privacyRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): PrivacyDeps => serviceDeps(app);
  app.addHook('onRequest', requireUser);
  app.addHook('onSend', noStore);

  // The same counter as the password change's: wrong passwords guessed from a stolen session.
  const passwordFailures = profilePasswordFailures(app);

  app.get('/profilo/dati', async (request, reply) => {
    const user = authenticatedUser(request);
    const token = request.cookies[SESSION_COOKIE];
    const now = app.deps.clock.now();
    const data = await buildDataExport(app.deps.database.db, user.id, now, token ? hashSessionToken(token) : null);
    const day = zonedToday(now, app.deps.config.timeZone);
    reply.header('Content-Disposition', `attachment; filename="bicielis-dati-${day}.json"`);
    reply.type('application/json; charset=utf-8');
    return reply.send(JSON.stringify(data, null, 2));
  });

  app.get('/profilo/eliminazione', async (request) => deletionPreview(deps(), authenticatedUser(request).id));

  app.delete('/profilo', { schema: { body: accountDeleteSchema } }, async (request, reply) => {
    const user = authenticatedUser(request);
    const state = await passwordFailures(request, { increment: false });
    if (!state.isAllowed && state.remaining <= 0) {
      reply.header('retry-after', Math.max(1, Math.ceil(state.ttl / 1000)));
      throw new AppError(429, tooManyAttempts(state.ttl), 'RATE_LIMITED');
    }
    try {
      const result = await eraseAccount(deps(), user.id, request.body.password);
      clearSessionCookie(request, reply);
      return { ...result, message: tFor(requestLingua(request))('privacy.accountDeleted') };
    } catch (err) {
      if (err instanceof AppError && err.code === 'WRONG_PASSWORD') await passwordFailures(request);
      throw err;
    }
  });
};
