import type { SessionUser as ApiSessionUser } from '../../../shared/api-types.js';
import type { SessionUser } from '../auth/index.js';
import { toPublicUser } from '../users/index.js';

/** An admin who must enrol a second factor before any admin page or route works (ADMIN_2FA_REQUIRED, decision 030). */
export function needsTwoFactorEnrolment(user: Pick<SessionUser, 'ruolo' | 'dueFattori'>, config: { admin2faRequired: boolean }): boolean {
  return config.admin2faRequired && user.ruolo === 'admin' && !user.dueFattori;
}

/**
 * The logged-in user as the session's own answers give it: the public user (behaviour.md §5,
 * exactly those fields), plus `dueFattoriDaAttivare: true` only for an admin who must enrol first.
 */
export function sessionUserBody(user: SessionUser, config: { admin2faRequired: boolean }): ApiSessionUser {
  const body = toPublicUser(user);
  return needsTwoFactorEnrolment(user, config) ? { ...body, dueFattoriDaAttivare: true } : body;
}
