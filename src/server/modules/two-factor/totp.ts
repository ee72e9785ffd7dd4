import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP as RFC 6238 and every authenticator app has it: SHA-1, 6 digits, 30-second steps
 * (otpauth, decision 030). A code is accepted for the step before, the current one and the
 * step after (a phone's clock a little off); the caller refuses a step already used.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const ISSUER = 'BiciElis';

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** 160 random bits (RFC 4226's recommendation), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The time step of an instant. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The step a code belongs to (within the window around `now`), or null when it is no code of this secret. */
export function matchTotp(secretBase32: string, code: string, now: Date): number | null {
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totpStep(now) + delta;
}

/** The code of an instant (tests and the seed; the person's app computes its own). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/** The QR code of the address as an SVG data URL (img-src allows data:), drawn on the server. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  // Loaded by the first enrolment, not at start (issue 33).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** No 0/O, 1/I/L: read from paper and typed by hand. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const RECOVERY_CODE_COUNT = 10;

/** One recovery code: 12 characters (about 59 bits) in three groups, `ABCD-EFGH-JKMN`. */
export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 12; i++) out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8)}`;
}
