import type { SessionUser as ApiSessionUser } from '../../../shared/api-types.js';
import { sql } from 'drizzle-orm';
import type { SessionUser } from '../../http/auth.js';
import { toPublicUser } from './public-user.js';
import { incarichi, users } from './tables.js';
import type { Incarico } from '../../../shared/staff.js';

/** An admin who must enrol a second factor before any admin page or route works (ADMIN_2FA_REQUIRED, decision 030). */
export function needsTwoFactorEnrolment(user: Pick<SessionUser, 'ruolo' | 'dueFattori'>, config: { admin2faRequired: boolean }): boolean {
  return config.admin2faRequired && user.ruolo === 'admin' && !user.dueFattori;
}

/**
 * The logged-in user as the session's own answers give it: the public user (behaviour.md §5,
 * exactly those fields), plus `dueFattoriDaAttivare: true` only for an admin who must enrol first.
 */
export function sessionUserBody(user: SessionUser, config: { admin2faRequired: boolean }): ApiSessionUser {
  const body = { ...toPublicUser(user), lingua: user.lingua };
  return needsTwoFactorEnrolment(user, config) ? { ...body, dueFattoriDaAttivare: true } : body;
}

/** The columns of a user that a request may see (no password or temporary-password hash). */
export const sessionUserColumns = {
  id: users.id,
  nome: users.nome,
  cognome: users.cognome,
  email: users.email,
  ruolo: users.ruolo,
  isResidente: users.isResidente,
  siglaResidente: users.siglaResidente,
  attiva: users.attiva,
  createdAt: users.createdAt,
  lingua: users.lingua,
  sedeId: users.sedeId,
  /** A second factor confirmed (decision 030): what ADMIN_2FA_REQUIRED asks of an admin. */
  // A second factor: TOTP, or a passkey chosen as one (issue 49).
  dueFattori: sql<boolean>`(${users.totpAttivoAt} is not null or ${users.passkeySecondoFattore})`.as('due_fattori'),
  /** The person's roles at the sedi (issue 48), in a stable order; `[]` for most. */
  incarichi: sql<Incarico[]>`coalesce((select jsonb_agg(jsonb_build_object('sedeId', ${incarichi.sedeId}, 'ruolo', ${incarichi.ruolo}) order by ${incarichi.sedeId}, ${incarichi.ruolo}) from ${incarichi} where ${incarichi.userId} = ${users.id}), '[]'::jsonb)`.as('incarichi'),
} as const;
