import { requestLingua } from '../../http/lingua.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  validateSiglaParamsSchema,
  type PasswordChangeRequiredBody,
} from '../../../shared/schemas/auth.js';
import {
  authenticatedUser,
  beginSession,
  clearPasswordChangeCookie,
  clearSessionCookie,
  endCurrentSession,
  loadUser,
  PASSWORD_CHANGE_COOKIE,
  requireUser,
  setPasswordChangeCookie,
  setTwoFactorCookie,
  type SessionUser,
} from '../../http/auth.js';
import type { TwoFactorRequiredBody } from '../../../shared/schemas/two-factor.js';
import { AppError } from '../../http/errors.js';
import { tFor } from '../../../shared/i18n/all.js';
import { sessionUserBody } from '../users/index.js';
import { AUTH_RATE_LIMITS, tooManyAttempts } from './limits.js';
import { changePassword, checkSigla, login, registerUser, requestPasswordReset, type AuthDeps } from './service.js';

function rateLimited(reply: FastifyReply, ttlMs: number): AppError {
  reply.header('retry-after', Math.max(1, Math.ceil(ttlMs / 1000)));
  return new AppError(429, tooManyAttempts(ttlMs), 'RATE_LIMITED');
}

/** Accounts (behaviour.md §5): registration, login, logout, session user, sigla check, recovery. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): AuthDeps => ({
    db: app.deps.database.db,
    clock: app.deps.clock,
    mailer: app.deps.mailer,
    config: app.deps.config,
  });

  // Only failed logins count, so the counters are read before checking the password and
  // incremented after a failure (the plugin's own hooks would count every request).
  // These limits have no route of their own: each key says which limit it counts for.
  const emailOf = (limit: string) => (request: FastifyRequest) => `${limit}|email:${(request.body as { email: string }).email}`;
  const loginFailuresByEmail = app.createRateLimit({ ...AUTH_RATE_LIMITS.loginFailuresPerEmail, keyGenerator: emailOf('login') });
  const loginFailuresByIp = app.createRateLimit({
    ...AUTH_RATE_LIMITS.loginFailuresPerIp,
    keyGenerator: (request) => `login|ip:${request.ip}`,
  });
  const resetsByEmail = app.createRateLimit({ ...AUTH_RATE_LIMITS.resetPerEmail, keyGenerator: emailOf('reset') });

  app.post(
    '/register',
    { schema: { body: registerSchema }, config: { rateLimit: AUTH_RATE_LIMITS.registerPerIp } },
    async (request, reply) => {
      // The account starts in the language the page was in (issue 36).
      const { user, session } = await registerUser(deps(), request.body, requestLingua(request));
      await beginSession(request, reply, session, user.lingua);
      return reply.status(201).send(sessionUserBody(user, app.deps.config));
    },
  );

  app.post('/login', { schema: { body: loginSchema } }, async (request, reply) => {
    for (const limiter of [loginFailuresByEmail, loginFailuresByIp]) {
      const state = await limiter(request, { increment: false });
      if (!state.isAllowed && state.remaining <= 0) throw rateLimited(reply, state.ttl);
    }
    const outcome = await login(deps(), request.body);
    switch (outcome.kind) {
      case 'invalid':
        await Promise.all([loginFailuresByEmail(request), loginFailuresByIp(request)]);
        return reply.status(401).send({ message: tFor(requestLingua(request))('auth.loginFailed') });
      case 'disabled':
        return reply.status(403).send({ message: tFor(requestLingua(request))('auth.accountDisabled'), code: 'ACCOUNT_DISABLED' });
      case 'password_change': {
        const body: PasswordChangeRequiredBody = {
          message: tFor(requestLingua(request))('auth.passwordChangeRequired'),
          code: 'PASSWORD_CHANGE_REQUIRED',
          requiresPasswordChange: true,
          userId: outcome.userId,
        };
        return pendingStep(request, reply, setPasswordChangeCookie, outcome.grant, body);
      }
      case 'two_factor': {
        // No session yet: a pending state, in a cookie sent only to the code step (decision 030).
        const body: TwoFactorRequiredBody = { message: tFor(requestLingua(request))('twoFactor.codeRequired'), code: 'TWO_FACTOR_REQUIRED', requiresTwoFactor: true };
        return pendingStep(request, reply, setTwoFactorCookie, outcome.grant, body);
      }
      case 'ok':
        await beginSession(request, reply, outcome.session, outcome.user.lingua);
        return reply.send(sessionUserBody(outcome.user, app.deps.config));
    }
  });

  app.post('/logout', async (request, reply) => {
    await endCurrentSession(request, reply);
    return reply.send({ message: tFor(requestLingua(request))('auth.loggedOut') });
  });

  // The session's user as JSON, made once per user object: the session cache hands the same
  // object to every request of that session until it is evicted (a change of the user evicts
  // it), so the most frequent call of the app serialises nothing (issue 33).
  const sessionUserJson = new WeakMap<SessionUser, string>();
  const sessionUser = (request: FastifyRequest, reply: FastifyReply) => {
    const user = authenticatedUser(request);
    let json = sessionUserJson.get(user);
    if (json === undefined) {
      json = JSON.stringify(sessionUserBody(user, app.deps.config));
      sessionUserJson.set(user, json);
    }
    reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(json);
  };
  app.get('/user', { preHandler: requireUser }, sessionUser);
  app.get('/current-user', { preHandler: requireUser }, sessionUser);

  app.get(
    '/validate-sigla/:code',
    { schema: { params: validateSiglaParamsSchema }, config: { rateLimit: AUTH_RATE_LIMITS.validateSiglaPerIp } },
    async (request) => checkSigla(app.deps.database.db, request.params.code),
  );

  app.post(
    '/reset-password',
    { schema: { body: resetPasswordSchema }, config: { rateLimit: AUTH_RATE_LIMITS.resetPerIp } },
    async (request, reply) => {
      const state = await resetsByEmail(request);
      if (!state.isAllowed && state.isExceeded) throw rateLimited(reply, state.ttl);
      await requestPasswordReset(deps(), request.body.email);
      return reply.send({ message: tFor(requestLingua(request))('auth.resetRequested') });
    },
  );

  app.post('/change-password', { schema: { body: changePasswordSchema } }, async (request, reply) => {
    await changePassword(deps(), request.body, {
      grantToken: request.cookies[PASSWORD_CHANGE_COOKIE],
      sessionUser: await loadUser(request, reply),
    });
    clearPasswordChangeCookie(request, reply);
    clearSessionCookie(request, reply);
    return reply.send({ message: tFor(requestLingua(request))('auth.passwordUpdated') });
  });
};

/**
 * A login that needs one more step (a new password, the second factor): no session yet, the
 * pending grant in its own short-lived cookie, and 403 with the body that names the step.
 */
function pendingStep<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  setCookie: (request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) => void,
  grant: { token: string; expiresAt: Date },
  body: T,
) {
  setCookie(request, reply, grant.token, grant.expiresAt);
  return reply.status(403).send(body);
}
