import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearTwoFactorCookie, TWO_FACTOR_COOKIE } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import { testo } from '../../../shared/i18n/index.js';
import { deleteSessionByHash, findSession } from '../auth/index.js';
import { sessions } from '../auth/tables.js';

/**
 * The pending state of a login at its second step (decision 030): the grant of the two_factor
 * cookie (a right first factor, at most 5 minutes ago), for the code step and the passkey step
 * alike, with the first step's sign-in method. Without a live grant of an active account: 403 TWO_FACTOR_EXPIRED, the cookie cleared.
 */
export async function pendingSecondFactor(request: FastifyRequest, reply: FastifyReply) {
  const { db } = request.server.deps.database;
  const token = request.cookies[TWO_FACTOR_COOKIE];
  const grant = token && /^[A-Za-z0-9_-]{43}$/.test(token) ? await findSession(db, token, 'two_factor') : null;
  if (!grant || grant.expiresAt <= request.server.deps.clock.now() || !grant.user.attiva) {
    if (grant) await deleteSessionByHash(db, grant.tokenHash);
    clearTwoFactorCookie(request, reply);
    throw new AppError(403, testo('twoFactor.expired'), 'TWO_FACTOR_EXPIRED');
  }
  // How the first step was made (a password, the college's account): the session records it.
  const [row] = await db.select({ metodo: sessions.metodo }).from(sessions).where(eq(sessions.tokenHash, grant.tokenHash));
  return { ...grant, metodo: row?.metodo ?? 'password' };
}
