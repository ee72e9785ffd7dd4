import type { PublicUser } from '../../../shared/schemas/auth.js';

/** The user fields any API answer may carry; hashes and internal flags are not among them. */
export interface PublicUserSource {
  id: number;
  nome: string;
  cognome: string;
  email: string;
  ruolo: 'admin' | 'user';
  isResidente: boolean;
  siglaResidente: string | null;
  attiva: boolean;
  createdAt: Date;
}

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
  };
}
