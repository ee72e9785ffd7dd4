import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  passkeyAuthenticationSchema,
  passkeyIdParamsSchema,
  passkeyRegistrationSchema,
  passkeySecondFactorSchema,
} from '../../../shared/schemas/passkeys.js';
import { tFor } from '../../../shared/i18n/all.js';
import { testo } from '../../../shared/i18n/index.js';
import {
  authenticatedUser,
  beginSession,
  clearTwoFactorCookie,
  requireAdminRole,
  requireUser,
  SESSION_COOKIE,
} from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import { requestLingua } from '../../http/lingua.js';
import { AUTH_RATE_LIMITS, hashSessionToken, tooManyAttempts } from '../auth/index.js';
import { pendingSecondFactor } from '../two-factor/index.js';
import { sessionUserBody } from '../users/index.js';
import {
  authenticationOptions,
  deletePasskey,
  type IssuedChallenge,
  listPasskeys,
  type PasskeyDeps,
  registerPasskey,
  registrationOptions,
  secondFactorWithPasskey,
  setSecondFactor,
  signInWithPasskey,
} from './service.js';

/** The WebAuthn challenge's id (its hash is the row's key), sent only to the API, for five minutes. */
export const WEBAUTHN_COOKIE = 'bicielis_webauthn';
const WEBAUTHN_COOKIE_PATH = '/api';

function rateLimited(reply: FastifyReply, ttlMs: number): AppError {
  reply.header('retry-after', Math.max(1, Math.ceil(ttlMs / 1000)));
  return new AppError(429, tooManyAttempts(ttlMs), 'RATE_LIMITED');
}

const notRecognised = (status: 400 | 401) => new AppError(status, testo('passkeys.notRecognised'), 'PASSKEY_NOT_RECOGNISED');

const noStore = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'no-store');
  return payload;
};

/** The challenge's cookie: given with the options, cleared as it is read (each challenge serves one answer). */
function challengeCookie(app: FastifyInstance) {
  const cookieOptions = (maxAge?: number) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    path: WEBAUTHN_COOKIE_PATH,
    secure: app.deps.config.secureCookies,
    ...(maxAge === undefined ? {} : { maxAge }),
  });
  return {
    giveChallenge(reply: FastifyReply, challenge: IssuedChallenge) {
      const seconds = Math.max(0, Math.floor((challenge.expiresAt.getTime() - app.deps.clock.now().getTime()) / 1000));
      reply.setCookie(WEBAUTHN_COOKIE, challenge.token, cookieOptions(seconds));
    },
    takeCookie(request: FastifyRequest, reply: FastifyReply) {
      const token = request.cookies[WEBAUTHN_COOKIE];
      if (token !== undefined) reply.clearCookie(WEBAUTHN_COOKIE, cookieOptions());
      return token;
    },
  };
}

/**
 * Passkeys (issue 49): the profile's list, registration and removal, an admin's choice of a
 * passkey as second factor, the sign-in with a discoverable passkey, and the passkey as the
 * login's second step. Failed verifications count as failed logins do (AUTH_RATE_LIMITS).
 */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): PasskeyDeps => ({ db: app.deps.database.db, clock: app.deps.clock, config: app.deps.config });
  const { giveChallenge, takeCookie } = challengeCookie(app);
  // The login's counters: the same keys as the password's per client, and the code step's.
  const pendingUser = new WeakMap<FastifyRequest, number>();
  const loginFailuresByIp = app.createRateLimit({ ...AUTH_RATE_LIMITS.loginFailuresPerIp, keyGenerator: (request) => `login|ip:${request.ip}` });
  const codeFailuresByUser = app.createRateLimit({
    ...AUTH_RATE_LIMITS.codeFailuresPerUser,
    keyGenerator: (request: FastifyRequest) => `codice|user:${pendingUser.get(request) ?? 0}`,
  });
  const codeFailuresByIp = app.createRateLimit({ ...AUTH_RATE_LIMITS.loginFailuresPerIp, keyGenerator: (request) => `codice|ip:${request.ip}` });
  type Limiter = typeof loginFailuresByIp;
  async function checkLimits(request: FastifyRequest, reply: FastifyReply, limiters: Limiter[]) {
    for (const limiter of limiters) {
      const state = await limiter(request, { increment: false });
      if (!state.isAllowed && state.remaining <= 0) throw rateLimited(reply, state.ttl);
    }
  }
  const countFailure = (request: FastifyRequest, limiters: Limiter[]) => Promise.all(limiters.map((limiter) => limiter(request)));

  // The profile's passkeys: any logged-in person.
  await app.register(async (plain) => {
    const own = plain.withTypeProvider<ZodTypeProvider>();
    own.addHook('onRequest', requireUser);
    own.addHook('onSend', noStore);

    own.get('/passkeys', async (request) => listPasskeys(app.deps.database.db, authenticatedUser(request).id));

    own.post('/passkeys/registrazione/opzioni', async (request, reply) => {
      const { options, challenge } = await registrationOptions(deps(), authenticatedUser(request));
      giveChallenge(reply, challenge);
      return options;
    });

    own.post('/passkeys/registrazione', { schema: { body: passkeyRegistrationSchema } }, async (request, reply) => {
      const user = authenticatedUser(request);
      const created = await registerPasskey(deps(), user, request.body.risposta, takeCookie(request, reply), request.headers['user-agent']);
      return reply.status(201).send(created);
    });

    own.delete('/passkeys/:id', { schema: { params: passkeyIdParamsSchema } }, async (request) => {
      const user = authenticatedUser(request);
      await deletePasskey(deps(), user, request.params.id);
      app.deps.sessionCache?.evictUser(user.id);
      return { message: tFor(requestLingua(request))('passkeys.deleted') };
    });
  });

  // The second-factor switch: admins only, second factor or not yet (it may be the one they enrol).
  await app.register(async (plain) => {
    const admin = plain.withTypeProvider<ZodTypeProvider>();
    admin.addHook('onRequest', requireAdminRole);
    admin.addHook('onSend', noStore);
    admin.put('/passkeys/secondo-fattore', { schema: { body: passkeySecondFactorSchema } }, async (request) => {
      const user = authenticatedUser(request);
      const token = request.cookies[SESSION_COOKIE];
      const list = await setSecondFactor(deps(), user, request.body.attivo, token ? hashSessionToken(token) : null);
      app.deps.sessionCache?.evictUser(user.id);
      return list;
    });
  });

  // The sign-in with a passkey (anonymous): any discoverable passkey of this site.
  app.post('/auth/passkey/opzioni', { onSend: noStore }, async (_request, reply) => {
    const { options, challenge } = await authenticationOptions(deps(), null);
    giveChallenge(reply, challenge);
    return options;
  });

  app.post('/auth/passkey', { schema: { body: passkeyAuthenticationSchema }, onSend: noStore }, async (request, reply) => {
    await checkLimits(request, reply, [loginFailuresByIp]);
    const outcome = await signInWithPasskey(deps(), request.body.risposta, takeCookie(request, reply));
    switch (outcome.kind) {
      case 'refused':
        await countFailure(request, [loginFailuresByIp]);
        throw notRecognised(401);
      case 'disabled':
        throw new AppError(403, testo('auth.accountDisabled'), 'ACCOUNT_DISABLED');
      case 'ok':
        await beginSession(request, reply, outcome.session, outcome.user.lingua);
        return sessionUserBody(outcome.user, app.deps.config);
    }
  });

  // The login's second step with a passkey: only with the pending state's cookie, as the code step.
  app.post('/login/passkey/opzioni', { onSend: noStore }, async (request, reply) => {
    const grant = await pendingSecondFactor(request, reply);
    const { options, challenge } = await authenticationOptions(deps(), grant.user.id);
    giveChallenge(reply, challenge);
    return options;
  });

  app.post('/login/passkey', { schema: { body: passkeyAuthenticationSchema }, onSend: noStore }, async (request, reply) => {
    const grant = await pendingSecondFactor(request, reply);
    pendingUser.set(request, grant.user.id);
    const limiters = [codeFailuresByUser, codeFailuresByIp];
    await checkLimits(request, reply, limiters);
    const session = await secondFactorWithPasskey(deps(), grant, request.body.risposta, takeCookie(request, reply));
    if (!session) {
      await countFailure(request, limiters);
      throw notRecognised(400);
    }
    clearTwoFactorCookie(request, reply);
    await beginSession(request, reply, session, grant.user.lingua);
    return sessionUserBody(grant.user, app.deps.config);
  });
};
