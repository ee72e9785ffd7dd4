import type { SessionUser } from '../api-types.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { z } from '../zod-it.js';
import { msg, type PlainKey } from './message.js';
import { sedeIdBody } from './sedi.js';

/**
 * Request bodies of the account routes (behaviour.md §5), shared by the server routes and
 * the React forms. Messages are the Italian texts of spec.md §5 where it gives one, in the
 * reader's language (`msg`); the constants below are their Italian, for the server's refusals.
 * Parsing normalises: emails trimmed and lower-case, names trimmed, an empty sigla = null.
 */

export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const SIGLA_MAX = 32;

/** An email address, trimmed and lower-cased (emails are unique case-insensitively). */
export function emailField(required: PlainKey = 'schemas.requiredFields') {
  return z
    .string(msg(required))
    .trim()
    .toLowerCase()
    .min(1, msg(required))
    .max(EMAIL_MAX, msg('schemas.invalidEmail'))
    .pipe(z.email(msg('schemas.invalidEmail')));
}

/** A new password: 6–128 characters, kept exactly as typed (no trimming). */
export function newPasswordField(required: PlainKey = 'schemas.requiredFields') {
  return z
    .string(msg(required))
    .min(1, msg(required))
    .min(PASSWORD_MIN, msg('schemas.passwordTooShort', { min: PASSWORD_MIN }))
    .max(PASSWORD_MAX, msg('schemas.passwordTooLong', { max: PASSWORD_MAX }));
}

/** A first or last name: trimmed, 1..NAME_MAX characters (registration, the college account's completion). */
export const nameField = z
  .string(msg('schemas.requiredFields'))
  .trim()
  .min(1, msg('schemas.requiredFields'))
  .max(NAME_MAX, msg('validation.maxChars', { max: NAME_MAX }));

/** POST /api/login */
export const loginSchema = z.object({
  email: emailField('schemas.requiredLogin'),
  // Only required and bounded: a wrong password gets the one 401 of the login, not a 400.
  password: z
    .string(msg('schemas.requiredLogin'))
    .min(1, msg('schemas.requiredLogin'))
    .max(PASSWORD_MAX, msg('schemas.passwordTooLong', { max: PASSWORD_MAX })),
});
export type LoginRequest = z.output<typeof loginSchema>;

/** POST /api/register. `siglaResidente` empty or null = external user. */
export const registerSchema = z.object({
  nome: nameField,
  cognome: nameField,
  email: emailField(),
  password: newPasswordField(),
  siglaResidente: z
    .string(msg('schemas.invalidSigla'))
    .trim()
    .max(SIGLA_MAX, msg('schemas.invalidSigla'))
    .nullish()
    .transform((v) => (v ? v.toUpperCase() : null)),
  /**
   * The home sede (issue 47), an open one; absent: the resident code's sede, else the first
   * open sede. The form asks for it only when there are several.
   */
  sedeId: sedeIdBody.optional(),
});
export type RegisterRequest = z.output<typeof registerSchema>;

/** POST /api/reset-password */
export const resetPasswordSchema = z.object({
  email: emailField('schemas.enterYourEmail'),
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export type ResetPasswordRequest = z.output<typeof resetPasswordSchema>;

/** A user id as the client may hold it: a number, or its digits as a string (query parameter). */
const userIdField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : v),
  z.number(msg('schemas.sessionExpired')).int().positive(),
);

/** POST /api/change-password */
export const changePasswordSchema = z.object({
  userId: userIdField,
  newPassword: newPasswordField('schemas.fillAllFields'),
});
export type ChangePasswordRequest = z.output<typeof changePasswordSchema>;

/** GET /api/validate-sigla/:code */
export const validateSiglaParamsSchema = z.object({
  code: z.string().max(64),
});

/** A user as the API shows it (GET /api/current-user, login, register); one definition, in api-types. */
export type PublicUser = Omit<SessionUser, 'lingua'>;

/** GET /api/validate-sigla/:code */
export type ValidateSiglaResponse =
  | {
      valid: true;
      data: { nome: string; cognome: string; corsoDiStudi: string | null; annoCorso: number | null };
    }
  | { valid: false };

/** 403 of POST /api/login when the password must be changed first. */
export interface PasswordChangeRequiredBody {
  message: string;
  code: 'PASSWORD_CHANGE_REQUIRED';
  requiresPasswordChange: true;
  userId: number;
}
