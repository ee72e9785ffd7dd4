import type { Lingua } from './i18n/index.js';
import type { Incarico } from './staff.js';
/** Shape of GET /api/config: the only server settings the page may see. */
export interface PublicConfig {
  version: string;
  production: boolean;
  payment: { provider: 'stripe' | 'simulated'; publishableKey: string | null };
  timeZone: string;
  /** Days ahead a booking may be made; null: no limit (the rules of /admin → Regole, issue 20). */
  bookingHorizonDays: number | null;
  /**
   * Minutes after its start by which a bike must be picked up (decision 022; a rule of
   * /admin → Regole, first from NO_SHOW_MINUTES); null: until the booking's end.
   */
  noShowMinutes: number | null;
  /** The privacy notice's controller and contact (PRIVACY_TITOLARE, PRIVACY_CONTATTO; issue 23). */
  privacy: { titolare: string; contatto: string };
  /**
   * The open sedi, the first first (issue 47): the registration's picker of a home sede and the
   * names a booking's card shows, both only when there are several.
   */
  sedi: { id: number; nome: string }[];
  /**
   * Sign-in with the college's account (issue 49): null when not configured; `etichetta` is the
   * button's words as configured (OIDC_LABEL), null = the catalogue's default label.
   */
  accessoCollegio: { etichetta: string | null } | null;
}

/** Liveness: the process answers (always 200); `db` says whether the database does (issue 32). */
export interface HealthStatus {
  status: 'ok';
  db: 'ok' | 'down';
}

export interface ApiErrorBody {
  message: string;
  code?: string;
  fields?: Record<string, string>;
  requiresPasswordChange?: boolean;
  userId?: number;
}

export type Ruolo = 'admin' | 'user';

/** Shape of GET /api/current-user (and GET /api/user, POST /api/login, POST /api/register). */
export interface SessionUser {
  id: number;
  nome: string;
  cognome: string;
  email: string;
  ruolo: Ruolo;
  isResidente: boolean;
  siglaResidente: string | null;
  /** Same value as `siglaResidente`. */
  sigla: string | null;
  attiva: boolean;
  /** ISO 8601 instant. */
  createdAt: string;
  /** The person's home sede (issue 47): where the booking form opens. */
  sedeId: number;
  /** The person's roles at the sedi (issue 48): `portineria`, `officina`; empty for most. */
  incarichi: Incarico[];
  /**
   * In the session's own answers (login, current user): an admin who must enrol a second
   * factor first (ADMIN_2FA_REQUIRED, decision 030), and only then (true): the app then opens
   * only the profile.
   */
  dueFattoriDaAttivare?: true;
  /** The account's language (issue 36), in the session's own answers (login, current user). */
  lingua: Lingua;
}
