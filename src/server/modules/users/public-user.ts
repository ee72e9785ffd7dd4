import type { PublicUser } from '../../../shared/schemas/auth.js';
import type { SessionUser } from '../../http/auth.js';

/** The user fields any API answer may carry (those a session loads); no hash, no internal flag. */
export type PublicUserSource = SessionUser;

/** A user as the API shows it (behaviour.md §5): `sigla` repeats `siglaResidente`. */
export function toPublicUser(user: PublicUserSource): PublicUser {
  return {
    id: user.id,
    nome: user.nome,
    cognome: user.cognome,
    email: user.email,
    ruolo: user.ruolo,
    isResidente: user.isResidente,
    siglaResidente: user.siglaResidente,
    sigla: user.siglaResidente,
    attiva: user.attiva,
    createdAt: user.createdAt.toISOString(),
    sedeId: user.sedeId,
    incarichi: [...user.incarichi],
  };
}
