import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { tFor } from '../../../shared/i18n/all.js';
import { testo } from '../../../shared/i18n/index.js';
import { OIDC_COMPLETION_COOKIE, oidcCompletionSchema, oidcLoginQuerySchema, safeReturnPath, type OidcRefusal } from '../../../shared/schemas/oidc.js';
import { authenticatedUser, beginSession, requireUser, setTwoFactorCookie } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';
import { requestLingua, setLinguaCookie } from '../../http/lingua.js';
import { noStore } from '../../http/service-deps.js';
import { AUTH_RATE_LIMITS, tooManyAttempts } from '../auth/index.js';
import { sessionUserBody } from '../users/index.js';
import { OidcClient } from './client.js';
import { completeAccount, completionDetails, collegeAccount, finishLogin, startLogin, unlinkCollegeAccount, type OidcDeps } from './service.js';

/** Sign-ins begun from one client per minute (each one is a row for ten minutes). */
export const OIDC_LOGIN_STARTS_PER_IP = { max: 60, timeWindow: 60_000 } as const;
/** Where the completion cookie is sent: the completion's routes only. */
const COMPLETION_COOKIE_PATH = '/api/auth/oidc';

const notConfigured = () => notFound(testo('oidc.notConfigured'), 'OIDC_NOT_CONFIGURED');

/**
 * Sign-in with the college's account (issue 49): the start, the provider's callback (always a
 * redirect, never JSON: it is a page the browser lands on), the completion form of a new email,
 * and the profile's linked account. Refused callbacks and wrong resident codes count on a per-IP
 * limiter as the login's failures do.
 */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const client = config.oidc ? new OidcClient(config.oidc) : null;
  const deps = (): OidcDeps => ({ db: app.deps.database.db, clock: app.deps.clock, config });
  const failuresByIp = app.createRateLimit({ ...AUTH_RATE_LIMITS.loginFailuresPerIp, keyGenerator: (request) => `oidc|ip:${request.ip}` });
  const limited = async (request: FastifyRequest) => {
    const state = await failuresByIp(request, { increment: false });
    return !state.isAllowed && state.remaining <= 0 ? state.ttl : null;
  };
  const completionCookie = (reply: FastifyReply, token: string, expiresAt: Date) =>
    reply.setCookie(OIDC_COMPLETION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: COMPLETION_COOKIE_PATH,
      secure: config.secureCookies,
      maxAge: Math.max(0, Math.floor((expiresAt.getTime() - app.deps.clock.now().getTime()) / 1000)),
    });
  const clearCompletionCookie = (reply: FastifyReply) =>
    reply.clearCookie(OIDC_COMPLETION_COOKIE, { httpOnly: true, sameSite: 'lax', path: COMPLETION_COOKIE_PATH, secure: config.secureCookies });
  const go = (reply: FastifyReply, location: string) => reply.header('Cache-Control', 'no-store').redirect(location, 302);
  const refuse = (reply: FastifyReply, codice: OidcRefusal) => go(reply, `/login?accesso=${codice}`);

  app.get('/auth/oidc/login', { schema: { querystring: oidcLoginQuerySchema }, config: { rateLimit: OIDC_LOGIN_STARTS_PER_IP } }, async (request, reply) => {
    if (!client) throw notConfigured();
    let url: URL;
    try {
      url = await startLogin(deps(), client, { ritorno: safeReturnPath(request.query.ritorno), lingua: requestLingua(request) });
    } catch (err) {
      // The provider is away (discovery failed): the login page says so; the next try discovers again.
      request.log.warn({ err }, 'oidc: the provider could not be reached');
      return refuse(reply, 'errore');
    }
    return go(reply, url.href);
  });

  app.get('/auth/oidc/callback', async (request, reply) => {
    if (!client) throw notConfigured();
    if ((await limited(request)) !== null) return refuse(reply, 'errore');
    const query = request.query as Record<string, unknown>;
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    let outcome: Awaited<ReturnType<typeof finishLogin>>;
    try {
      outcome = await finishLogin(deps(), client, { state: typeof query.state === 'string' ? query.state : undefined, search });
    } catch (err) {
      outcome = { kind: 'refused', codice: 'errore', lingua: null, cause: err };
    }
    switch (outcome.kind) {
      case 'refused':
        request.log.info({ codice: outcome.codice, reason: outcome.cause instanceof Error ? outcome.cause.message : undefined }, 'oidc: sign-in refused');
        await failuresByIp(request);
        if (outcome.lingua) setLinguaCookie(request, reply, outcome.lingua);
        return refuse(reply, outcome.codice);
      case 'completion':
        completionCookie(reply, outcome.token, outcome.expiresAt);
        setLinguaCookie(request, reply, outcome.lingua);
        return go(reply, '/accesso/completa');
      case 'two_factor':
        // As POST /api/login's `two_factor` (decision 030): the pending state's cookie, no session.
        setTwoFactorCookie(request, reply, outcome.grant.token, outcome.grant.expiresAt);
        setLinguaCookie(request, reply, outcome.lingua);
        return go(reply, '/verifica-accesso');
      case 'session': {
        await beginSession(request, reply, outcome.session, outcome.user.lingua);
        const staff = outcome.user.ruolo === 'admin' || outcome.user.incarichi.length > 0;
        return go(reply, outcome.ritorno ?? (staff ? '/admin' : '/dashboard'));
      }
    }
  });

  app.get('/auth/oidc/completamento', { onSend: noStore }, async (request) => {
    if (!client) throw notConfigured();
    const { lingua: _lingua, ...details } = await completionDetails(deps(), request.cookies[OIDC_COMPLETION_COOKIE]);
    return details;
  });

  app.post('/auth/oidc/completamento', { schema: { body: oidcCompletionSchema }, onSend: noStore }, async (request, reply) => {
    if (!client) throw notConfigured();
    const ttl = await limited(request);
    if (ttl !== null) {
      reply.header('retry-after', Math.max(1, Math.ceil(ttl / 1000)));
      throw new AppError(429, tooManyAttempts(ttl), 'RATE_LIMITED');
    }
    try {
      const { user, session } = await completeAccount(deps(), request.cookies[OIDC_COMPLETION_COOKIE], request.body);
      clearCompletionCookie(reply);
      await beginSession(request, reply, session, user.lingua);
      return reply.status(201).send(sessionUserBody(user, config));
    } catch (err) {
      // A wrong resident code counts as a wrong password does (guessing codes).
      if (err instanceof AppError && (err.code === 'INVALID_SIGLA' || err.code === 'SIGLA_TAKEN')) await failuresByIp(request);
      throw err;
    }
  });

  await app.register(async (plain) => {
    const profile = plain.withTypeProvider<ZodTypeProvider>();
    profile.addHook('onRequest', requireUser);
    profile.addHook('onSend', noStore);
    profile.get('/profilo/account-collegio', async (request) => collegeAccount(deps(), authenticatedUser(request).id));
    profile.delete('/profilo/account-collegio', async (request) => {
      await unlinkCollegeAccount(deps(), authenticatedUser(request));
      return { message: tFor(requestLingua(request))('oidc.unlinked') };
    });
  });
};
