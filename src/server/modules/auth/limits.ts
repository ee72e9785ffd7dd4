/**
 * Rate limits of the account routes (behaviour.md §5). The counters are in PostgreSQL
 * (http/rate-limit-store.ts), so every app process on one database shares them; each test
 * file, with a database of its own, starts clean. "Per client" means per IP as Fastify sees
 * it (X-Forwarded-For only with TRUST_PROXY).
 */
import { testo, type Testo } from '../../../shared/i18n/index.js';
import { inLingua } from '../../../shared/i18n/all.js';

export const AUTH_RATE_LIMITS = {
  /** Failed logins (wrong email or password) for one email. Successful logins are not counted. */
  loginFailuresPerEmail: { max: 10, timeWindow: 15 * 60_000 },
  /**
   * Failed logins from one client, whatever the email. Higher than per email: a whole
   * college may reach us from one public address, and one person's typos must not lock
   * out everybody else; guessing many accounts from one address is still stopped.
   */
  loginFailuresPerIp: { max: 50, timeWindow: 15 * 60_000 },
  /**
   * Wrong codes of the second factor (login step, enrolment, turning it off) for one account
   * (decision 030): as the password per email. The client's count is the password's own limit.
   */
  codeFailuresPerUser: { max: 10, timeWindow: 15 * 60_000 },
  /** Registration attempts from one client. */
  registerPerIp: { max: 10, timeWindow: 60 * 60_000 },
  /** Password-recovery requests from one client. */
  resetPerIp: { max: 10, timeWindow: 15 * 60_000 },
  /** Password-recovery requests for one email (each one emails a new temporary password). */
  resetPerEmail: { max: 5, timeWindow: 15 * 60_000 },
  /** Resident-code checks from one client (the form checks on every change). */
  validateSiglaPerIp: { max: 60, timeWindow: 60_000 },
} as const;

const minutesLeft = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 60_000));

/** The 429 message in Italian (the API's documentation). */
export function tooManyAttemptsMessage(ttlMs: number): string {
  return inLingua('it', tooManyAttempts(ttlMs));
}

/** The 429 message, for the plugin's own limits (app.ts) and the login counters alike, answered in the request's language. */
export function tooManyAttempts(ttlMs: number): Testo {
  return testo('auth.tooManyAttempts', { minuti: minutesLeft(ttlMs) });
}
