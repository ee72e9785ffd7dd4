import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { forbidden, unauthorized } from './errors.js';
import { testo, type Lingua } from '../../shared/i18n/index.js';
import { setLinguaCookie } from './lingua.js';
import type { Incarico } from '../../shared/staff.js';

/**
 * The logged-in user a request carries: the columns of `users` a request may see (no password
 * or temporary-password hash). The auth module reads it from the database (sessions.ts).
 */
export interface SessionUser {
  id: number;
  nome: string;
  cognome: string;
  email: string;
  ruolo: 'admin' | 'user';
  isResidente: boolean;
  siglaResidente: string | null;
  attiva: boolean;
  createdAt: Date;
  dueFattori: boolean;
  /** The account's language (issue 36): its answers are in it. */
  lingua: Lingua;
  /** The home sede (issue 47). */
  sedeId: number;
  /** The person's roles at the sedi (issue 48, decision 054): `Portineria`, `Officina`. */
  incarichi: readonly Incarico[];
}

/** A login session's row with its user, as the guard reads it. */
export interface FoundSession {
  tokenHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
  user: SessionUser;
}

/**
 * What the guard needs of the sessions and the second factor, given by app.ts at registration
 * (the auth and two-factor modules own them): this file stays below the modules.
 */
export interface SessionGuard {
  /** What the database keeps of a token (its SHA-256). */
  hashToken(token: string): string;
  /** The login session of a token's hash with its user, or null; expiry is the guard's to judge. */
  findSession(tokenHash: string): Promise<FoundSession | null>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Slides a session's expiry forward from `now`; returns the new expiry. */
  touchSession(tokenHash: string, now: Date): Promise<Date>;
  /** A session's expiry is pushed forward at most this often. */
  touchIntervalMs: number;
  /** Names the device of a session just created, from its User-Agent (decision 029). */
  recordDevice(token: string, userAgent: string | undefined): Promise<void>;
  /** Deletes the login session of a token, if any. */
  endSession(token: string): Promise<void>;
  /** An admin who must enrol a second factor first (ADMIN_2FA_REQUIRED, decision 030). */
  needsTwoFactorEnrolment(user: Pick<SessionUser, 'ruolo' | 'dueFattori'>, config: { admin2faRequired: boolean }): boolean;
}

/** The login session: a random token whose SHA-256 is a `sessions` row of kind `session`. */
export const SESSION_COOKIE = 'bicielis_session';
/** The one-time grant to change a password after a login that required it (15 minutes). */
export const PASSWORD_CHANGE_COOKIE = 'bicielis_pwchange';
/** The grant cookie is only ever sent to the route that consumes it. */
export const PASSWORD_CHANGE_COOKIE_PATH = '/api/change-password';
/** The pending state after a right password of a user with a second factor (decision 030), 5 minutes. */
export const TWO_FACTOR_COOKIE = 'bicielis_2fa';
/**
 * Sent only to the login's routes (the code step, the passkey step of issue 49): it is no
 * session anywhere else.
 */
export const TWO_FACTOR_COOKIE_PATH = '/api/login';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sessions and the second-factor policy the guard works with (registerAuth). */
    sessionGuard: SessionGuard;
  }
  interface FastifyRequest {
    /**
     * The logged-in user, set by `requireUser`, `requireAdmin` or `loadUser`; null when
     * anonymous (or when no guard ran). Deactivated users are anonymous.
     */
    user: SessionUser | null;
  }
}

// Tokens are 32 random bytes in base64url (43 characters); anything else is not looked up.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * What a request's session resolved to: the user (null when anonymous), or the lookup still
 * running. Kept on the request itself (decorated in registerAuth, so every request has the slot
 * from the start: no WeakMap entry, no promise on the cached path).
 */
type Resolution = SessionUser | null | Promise<SessionUser | null>;
const UNRESOLVED = Symbol('unresolved');
const kResolution = Symbol('bicielis.sessionResolution');
const kTokenHash = Symbol('bicielis.tokenHash');
declare module 'fastify' {
  interface FastifyRequest {
    [kResolution]: Resolution | typeof UNRESOLVED;
  }
  interface FastifyInstance {
    [kTokenHash]: (token: string) => string;
  }
}

/** How many tokens' hashes the guard keeps (the oldest goes first): the sessions in use at once, with room. */
export const RECENT_TOKEN_HASHES = 10_000;

/**
 * The guard's `hashToken`, remembering the hashes of the tokens it saw lately (issue 33: the
 * SHA-256 was 1.3 µs of every authenticated request, the largest single cost of
 * `GET /api/current-user` after the headers). A token maps to one hash forever, so nothing
 * here can go stale: what a session may do is still decided by the session cache and the
 * database. The map holds cookies the process has already read; it grants nothing by itself.
 */
export function rememberingHashes(hashToken: (token: string) => string): (token: string) => string {
  const recent = new Map<string, string>();
  return (token) => {
    let hash = recent.get(token);
    if (hash === undefined) {
      hash = hashToken(token);
      if (recent.size >= RECENT_TOKEN_HASHES) recent.delete(recent.keys().next().value!);
      recent.set(token, hash);
    }
    return hash;
  };
}

/** Adds `request.user` and the guard's sessions. Called once on the root instance, before the routes. */
export function registerAuth(app: FastifyInstance, guard: SessionGuard) {
  app.decorate('sessionGuard', guard);
  app.decorate(kTokenHash, rememberingHashes((token) => guard.hashToken(token)));
  app.decorateRequest('user', null);
  app.decorateRequest(kResolution, UNRESOLVED);
}

/**
 * The logged-in user of this request, or null. Reads the session cookie once per request,
 * refuses expired sessions and deactivated users (their session row is deleted), and
 * slides the expiry forward at most once an hour.
 */
export async function loadUser(request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null> {
  return resolution(request, reply);
}

/**
 * The same as `loadUser`, without a promise when the answer is known at once (no cookie, a
 * malformed one, or a session in the cache that needs no write): the guards below run on
 * every authenticated request (issue 33).
 */
function resolution(request: FastifyRequest, reply: FastifyReply): Resolution {
  const known = request[kResolution];
  if (known !== UNRESOLVED) return known;
  const resolved = resolveUser(request, reply);
  request[kResolution] = resolved;
  return resolved;
}

function resolveUser(request: FastifyRequest, reply: FastifyReply): Resolution {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  if (!TOKEN_SHAPE.test(token)) {
    clearSessionCookie(request, reply);
    return null;
  }
  const guard = request.server.sessionGuard;
  const tokenHash = request.server[kTokenHash](token);
  const cache = request.server.deps.sessionCache;
  const cached = cache?.get(tokenHash);
  if (cached) {
    const now = request.server.deps.clock.now().getTime();
    // The common case: a live session in the cache, nothing to write.
    if (cached.expiresAt.getTime() > now && cached.user.attiva && now - cached.lastSeenAt.getTime() < guard.touchIntervalMs) {
      request.user = cached.user;
      return cached.user;
    }
  }
  return resolveUserSlowly(request, reply, token, tokenHash, cached ?? null);
}

async function resolveUserSlowly(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  tokenHash: string,
  cached: FoundSession | null,
): Promise<SessionUser | null> {
  const { clock } = request.server.deps;
  const guard = request.server.sessionGuard;
  const cache = request.server.deps.sessionCache;
  let found = cached;
  const version = cache?.version ?? 0;
  if (!found) {
    found = await guard.findSession(tokenHash);
    if (found) cache?.set(tokenHash, found, version);
  }
  if (!found) {
    clearSessionCookie(request, reply);
    return null;
  }
  const now = clock.now();
  if (found.expiresAt.getTime() <= now.getTime() || !found.user.attiva) {
    cache?.evictSession(tokenHash);
    await guard.deleteSession(found.tokenHash);
    clearSessionCookie(request, reply);
    return null;
  }
  if (now.getTime() - found.lastSeenAt.getTime() >= guard.touchIntervalMs) {
    const expiresAt = await guard.touchSession(found.tokenHash, now);
    cache?.set(tokenHash, { ...found, lastSeenAt: now, expiresAt }, version);
    setSessionCookie(request, reply, token, expiresAt);
  }
  request.user = found.user;
  return found.user;
}

/**
 * Runs a guard's check on the request's user, then `done`: at once when the user is known
 * (a hook with a callback costs no promise), else when the lookup ends.
 */
function guard(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, check: (user: SessionUser | null, request: FastifyRequest) => void) {
  const checked = (user: SessionUser | null) => {
    try {
      check(user, request);
    } catch (refusal) {
      return done(refusal as Error);
    }
    done();
  };
  const user = resolution(request, reply);
  if (user instanceof Promise) user.then(checked, (err: unknown) => done(err as Error));
  else checked(user);
}

function mustBeUser(user: SessionUser | null): void {
  if (!user) throw unauthorized();
}

function mustBeAdmin(user: SessionUser | null, request: FastifyRequest): void {
  if (!user) throw unauthorized();
  if (user.ruolo !== 'admin') throw forbidden();
  if (request.server.sessionGuard.needsTwoFactorEnrolment(user, request.server.deps.config)) {
    throw forbidden(testo('twoFactor.enrolmentRequired'), 'TWO_FACTOR_ENROLMENT_REQUIRED');
  }
}

function mustHaveAdminRole(user: SessionUser | null): void {
  if (!user) throw unauthorized();
  if (user.ruolo !== 'admin') throw forbidden(testo('twoFactor.adminsOnly'), 'TWO_FACTOR_ADMINS_ONLY');
}

/** Hook (onRequest or preHandler): 401 `Non autenticato` unless logged in; sets `request.user`. */
export function requireUser(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  guard(request, reply, done, mustBeUser);
}

/**
 * Hook: 401 when anonymous, 403 when logged in without the admin role, and 403
 * `TWO_FACTOR_ENROLMENT_REQUIRED` for an admin without a second factor when
 * ADMIN_2FA_REQUIRED is on (decision 030): the one guard of every admin route.
 */
export function requireAdmin(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  guard(request, reply, done, mustBeAdmin);
}

/** Hook: a logged-in admin, second factor or not (the enrolment itself). */
export function requireAdminRole(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  guard(request, reply, done, mustHaveAdminRole);
}

/** The user of a route guarded by `requireUser`/`requireAdmin` (401 if the guard was forgotten). */
export function authenticatedUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

function cookieOptions(request: FastifyRequest, path: string, expiresAt?: Date) {
  const { config, clock } = request.server.deps;
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path,
    secure: config.secureCookies,
    ...(expiresAt
      ? { maxAge: Math.max(0, Math.floor((expiresAt.getTime() - clock.now().getTime()) / 1000)) }
      : {}),
  };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, '/', expiresAt));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/'));
}

export function setPasswordChangeCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(PASSWORD_CHANGE_COOKIE, token, cookieOptions(request, PASSWORD_CHANGE_COOKIE_PATH, expiresAt));
}

export function setTwoFactorCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(TWO_FACTOR_COOKIE, token, cookieOptions(request, TWO_FACTOR_COOKIE_PATH, expiresAt));
}

export function clearTwoFactorCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(TWO_FACTOR_COOKIE, cookieOptions(request, TWO_FACTOR_COOKIE_PATH));
}

export function clearPasswordChangeCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(PASSWORD_CHANGE_COOKIE, cookieOptions(request, PASSWORD_CHANGE_COOKIE_PATH));
}

/**
 * Gives the browser a freshly created session: the session this browser had before (if
 * any) is deleted, so a token is never carried across a login (session fixation).
 */
export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  session: { token: string; expiresAt: Date },
  lingua: Lingua,
): Promise<void> {
  await endCurrentSession(request, reply, { clearCookie: false });
  // The device in a few words, for the person's data export (decision 029).
  await request.server.sessionGuard.recordDevice(session.token, request.headers['user-agent']);
  setSessionCookie(request, reply, session.token, session.expiresAt);
  // At login the account's language wins: this browser's pages follow it (issue 36). After the
  // session's cookie, which stays the answer's first.
  setLinguaCookie(request, reply, lingua);
}

/** Deletes the session row of this browser's cookie, if any, and clears the cookie. */
export async function endCurrentSession(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { clearCookie?: boolean } = {},
): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token && TOKEN_SHAPE.test(token)) {
    const guard = request.server.sessionGuard;
    request.server.deps.sessionCache?.evictSession(guard.hashToken(token));
    await guard.endSession(token);
  }
  if (options.clearCookie ?? true) clearSessionCookie(request, reply);
}
