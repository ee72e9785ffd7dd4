import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  totpCodeSchema,
  twoFactorCodeSchema,
} from '../../../shared/schemas/two-factor.js';
import { runTransaction } from '../../db/transaction.js';
import {
  authenticatedUser,
  beginSession,
  clearTwoFactorCookie,
  requireAdminRole,
  SESSION_COOKIE,
} from '../../http/auth.js';
import { AppError, badRequest } from '../../http/errors.js';
import { requestLingua } from '../../http/lingua.js';
import { tFor } from '../../../shared/i18n/all.js';
import { AUTH_RATE_LIMITS, tooManyAttempts } from '../auth/index.js';
import { createSession, deleteSessionByHash, hashSessionToken } from '../auth/index.js';
import { sessionUserBody } from '../users/index.js';
import { beginEnrolment, confirmEnrolment, disableSecondFactor, twoFactorStatus, verifySecondFactor, type TwoFactorDeps } from './service.js';
import { testo } from '../../../shared/i18n/index.js';
import { pendingSecondFactor } from './pending.js';

function rateLimited(reply: FastifyReply, ttlMs: number): AppError {
  reply.header('retry-after', Math.max(1, Math.ceil(ttlMs / 1000)));
  return new AppError(429, tooManyAttempts(ttlMs), 'RATE_LIMITED');
}

const wrongCode = () => badRequest(testo('twoFactor.wrongCode'), 'WRONG_CODE', { fields: { codice: testo('twoFactor.wrongCode') } });

/**
 * The second factor (issue 23, decision 030): the login's code step, and the enrolment from
 * the profile (admins only). Wrong codes are counted like wrong passwords: per account and
 * per client, only failures, read before and incremented after.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  /** At the login's code step nobody is logged in yet: the counters are the pending state's user's. */
  const pendingUser = new WeakMap<FastifyRequest, number>();
  const deps = (): TwoFactorDeps => ({ db: app.deps.database.db, clock: app.deps.clock, config: app.deps.config });
  const failuresByUser = app.createRateLimit({
    ...AUTH_RATE_LIMITS.codeFailuresPerUser,
    keyGenerator: (request: FastifyRequest) => `codice|user:${pendingUser.get(request) ?? request.user?.id ?? 0}`,
  });
  const failuresByIp = app.createRateLimit({
    ...AUTH_RATE_LIMITS.loginFailuresPerIp,
    keyGenerator: (request: FastifyRequest) => `codice|ip:${request.ip}`,
  });
  const limiters = [failuresByUser, failuresByIp];
  async function checkLimits(request: FastifyRequest, reply: FastifyReply) {
    for (const limiter of limiters) {
      const state = await limiter(request, { increment: false });
      if (!state.isAllowed && state.remaining <= 0) throw rateLimited(reply, state.ttl);
    }
  }
  const countFailure = (request: FastifyRequest) => Promise.all(limiters.map((limiter) => limiter(request)));
  const noStore = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  };

  // The code step of the login: only with the pending state's cookie (a right password, at
  // most 5 minutes ago); without it 403, as the password change without its grant. A right code ends the pending state and begins the session.
  app.post('/login/codice', { schema: { body: twoFactorCodeSchema }, onSend: noStore }, async (request, reply) => {
    const grant = await pendingSecondFactor(request, reply);
    const now = app.deps.clock.now();
    // The counters are the account's (as the password's per email), whoever asks.
    pendingUser.set(request, grant.user.id);
    await checkLimits(request, reply);
    if (!(await verifySecondFactor(deps(), grant.user.id, request.body.codice))) {
      await countFailure(request);
      throw wrongCode();
    }
    const session = await runTransaction(app.deps.database.db, async (tx) => {
      await deleteSessionByHash(tx, grant.tokenHash);
      return createSession(tx, grant.user.id, 'session', now, grant.metodo);
    });
    clearTwoFactorCookie(request, reply);
    await beginSession(request, reply, session, grant.user.lingua);
    return sessionUserBody(grant.user, app.deps.config);
  });

  // The enrolment, from the profile: admins only, second factor or not yet.
  await app.register(async (plain) => {
    const admin = plain.withTypeProvider<ZodTypeProvider>();
    admin.addHook('onRequest', requireAdminRole);
    admin.addHook('onSend', noStore);

    admin.get('/due-fattori', async (request) => twoFactorStatus(deps(), authenticatedUser(request).id));

    admin.post('/due-fattori/attivazione', async (request) => beginEnrolment(deps(), authenticatedUser(request).id));

    admin.post('/due-fattori/conferma', { schema: { body: totpCodeSchema } }, async (request, reply) => {
      const user = authenticatedUser(request);
      await checkLimits(request, reply);
      const token = request.cookies[SESSION_COOKIE];
      const confirmed = await confirmEnrolment(deps(), user.id, request.body.codice, token ? hashSessionToken(token) : null);
      if (!confirmed) {
        await countFailure(request);
        throw wrongCode();
      }
      // This process's cached sessions of the user go now; the others' on the notification.
      app.deps.sessionCache?.evictUser(user.id);
      return confirmed;
    });

    admin.post('/due-fattori/disattivazione', { schema: { body: twoFactorCodeSchema } }, async (request, reply) => {
      const user = authenticatedUser(request);
      await checkLimits(request, reply);
      if (!(await disableSecondFactor(deps(), user.id, request.body.codice))) {
        await countFailure(request);
        throw wrongCode();
      }
      app.deps.sessionCache?.evictUser(user.id);
      return { message: tFor(requestLingua(request))('twoFactor.disabled') };
    });
  });
};
