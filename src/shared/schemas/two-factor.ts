import { z } from '../zod-it.js';
import { msg } from './message.js';

/**
 * The admins' second factor (issue 23, decision 030): the code of the login step, of the
 * enrolment's confirmation and of turning it off. Shared by the routes and the forms.
 */
/** 6 digits (spaces ignored), or a recovery code (12 letters and digits, dashes and spaces ignored). */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
export const RECOVERY_CODE_PATTERN = /^[A-Za-z0-9]{12}$/;

const codeField = z
  .string(msg('schemas.codeRequired'))
  .trim()
  .min(1, msg('schemas.codeRequired'))
  .max(32, msg('schemas.codeFormat'))
  .transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => TOTP_CODE_PATTERN.test(v) || RECOVERY_CODE_PATTERN.test(v), msg('schemas.codeFormat'));

/** POST /api/login/codice and POST /api/due-fattori/disattivazione: an app's code or a recovery code. */
export const twoFactorCodeSchema = z.object({ codice: codeField });

/** POST /api/due-fattori/conferma: the first code of the app just set up (not a recovery code). */
export const totpCodeSchema = z.object({
  codice: z
    .string(msg('schemas.codeRequired'))
    .trim()
    .min(1, msg('schemas.codeRequired'))
    .max(16, msg('schemas.codeSixDigits'))
    .transform((v) => v.replace(/\s/g, ''))
    .refine((v) => TOTP_CODE_PATTERN.test(v), msg('schemas.codeSixDigits')),
});

/** GET /api/due-fattori. */
export interface TwoFactorStatusDto {
  /** Confirmed: the login asks for a code. */
  attiva: boolean;
  /** Recovery codes not used yet. */
  codiciRecuperoRimasti: number;
  /** ADMIN_2FA_REQUIRED: without it, no admin page or route works. */
  obbligatoria: boolean;
}

/** POST /api/due-fattori/attivazione: what the app is set up with (shown once, not confirmed yet). */
export interface TwoFactorEnrolmentDto {
  /** The secret in base32, to type into the app by hand. */
  segreto: string;
  /** otpauth:// address (what the QR code holds). */
  otpauthUrl: string;
  /** The QR code, an SVG data URL. */
  qrCode: string;
}

/** POST /api/due-fattori/conferma: the recovery codes, shown this once. */
export interface TwoFactorConfirmedDto {
  codiciRecupero: string[];
}

/** 403 of POST /api/login when the password was right and a code is needed. */
export interface TwoFactorRequiredBody {
  message: string;
  code: 'TWO_FACTOR_REQUIRED';
  requiresTwoFactor: true;
}
