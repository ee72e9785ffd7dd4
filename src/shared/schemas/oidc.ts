import { z } from '../zod-it.js';
import { msg } from './message.js';
import { nameField, SIGLA_MAX } from './auth.js';

/**
 * Sign-in with the college's account (issue 49): the login's start, the completion form of a
 * new email, and the profile's linked account. Shared by the routes and the web's screens.
 */

/** Where the browser is sent after a refused college login: `/login?accesso=<codice>`. */
export const OIDC_REFUSALS = ['non-verificata', 'disattivato', 'scaduto', 'errore'] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

/** The cookie of a completion waiting (30 minutes), sent only to /api/auth/oidc. */
export const OIDC_COMPLETION_COOKIE = 'bicielis_oidc_completa';

/**
 * A path of this app to go back to after the login: one leading slash, no scheme, no host, no
 * backslash or control character, not the API. Anything else is ignored (the default page).
 */
export function safeReturnPath(value: string | undefined): string | null {
  if (!value || value.length > 300) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/api/') || value === '/api') return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}

/** GET /api/auth/oidc/login: `ritorno` is checked by safeReturnPath (an unsafe one is ignored). */
export const oidcLoginQuerySchema = z.object({
  ritorno: z.string().max(2000).optional(),
});

/** POST /api/auth/oidc/completamento. `siglaResidente` empty or null = external user. */
export const oidcCompletionSchema = z.object({
  nome: nameField,
  cognome: nameField,
  siglaResidente: z
    .string(msg('schemas.invalidSigla'))
    .trim()
    .max(SIGLA_MAX, msg('schemas.invalidSigla'))
    .nullish()
    .transform((v) => (v ? v.toUpperCase() : null)),
  privacy: z.literal(true, msg('oidc.privacyRequired')),
});
export type OidcCompletionRequest = z.output<typeof oidcCompletionSchema>;

/** GET /api/auth/oidc/completamento: what the provider said; `residente`: the email is at RESIDENT_EMAIL_DOMAIN. */
export interface OidcCompletionDto {
  email: string;
  nome: string | null;
  cognome: string | null;
  residente: boolean;
}

/** GET /api/profilo/account-collegio. */
export interface CollegeAccountDto {
  collegato: { email: string; issuer: string; collegatoIl: string; ultimoAccesso: string | null } | null;
  /** The account has a password: only then may the college account be unlinked. */
  password: boolean;
  /** OIDC_LABEL as configured, null = the catalogue's default label. */
  etichetta: string | null;
}
