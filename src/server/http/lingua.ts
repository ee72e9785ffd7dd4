import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  isLingua,
  LINGUA_COOKIE,
  LINGUA_COOKIE_MAX_AGE_S,
  linguaFromAcceptLanguage,
  type Lingua,
} from '../../shared/i18n/index.js';

/**
 * The language of a request's answer (issue 36): the account's when the request's user is known,
 * else the `lingua` cookie (the anonymous pages' switch, or the account's, written at login),
 * else the browser's first preference (Accept-Language).
 */
export function requestLingua(request: FastifyRequest): Lingua {
  const account = request.user?.lingua;
  if (account) return account;
  const cookie = request.cookies?.[LINGUA_COOKIE];
  if (isLingua(cookie)) return cookie;
  return linguaFromAcceptLanguage(request.headers['accept-language']);
}

/** Writes the `lingua` cookie: at login and at a change of the account's language, so that the anonymous pages follow it. */
export function setLinguaCookie(request: FastifyRequest, reply: FastifyReply, lingua: Lingua): void {
  reply.setCookie(LINGUA_COOKIE, lingua, {
    path: '/',
    maxAge: LINGUA_COOKIE_MAX_AGE_S,
    sameSite: 'lax',
    secure: request.server.deps.config.secureCookies,
    httpOnly: false,
  });
}
