import { createLogger, type Logger } from '../../src/server/logger.js';
import { DEFAULT_PASSWORD } from './default-password.js';

/**
 * Secrets must never reach a response or a log line. The test apps (createTestApp) log into
 * `collectedLogLines` of the test file; they also note every session/grant token and every
 * password that goes through them (`noteSecret`). tests/helpers/scan-logs-after-file.ts scans
 * the collected lines after each test file; the fuzz and matrix tests scan each response.
 */

/** The log lines of this test file's apps (one JSON object a line). */
export const collectedLogLines: string[] = [];

/** Values that must appear nowhere: tokens issued or used, plaintext passwords. */
export const knownSecrets = new Set<string>([DEFAULT_PASSWORD]);

/** Header of the fuzz's requests: their body passwords are hostile input, not credentials. */
export const FUZZ_HEADER = 'x-test-fuzz';

/** Short strings would match by chance (a fuzzed password "abc"): only these are noted. */
const MIN_SECRET_LENGTH = 10;

export function noteSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) knownSecrets.add(value);
}

/** A pino logger (level debug unless TEST_LOG_LEVEL says otherwise) writing into collectedLogLines. */
export function collectingLogger(level: string = process.env.TEST_LOG_LEVEL ?? 'debug'): Logger {
  return createLogger(level, { write: (line: string) => void collectedLogLines.push(line) });
}

/** Shapes that are secret or internal whatever their value. */
const PATTERNS: [string, RegExp][] = [
  ['password hash', /\$argon2(?:id|i|d)\$/],
  ['Stripe secret key', /\b[sr]k_(?:test|live)_[A-Za-z0-9]{6,}/],
  ['Stripe webhook secret', /\bwhsec_[A-Za-z0-9_]{6,}/],
  ['stack trace', /"stack"\s*:|(?:\\n|\n)\s+at\s+\S.*:\d+:\d+/],
  // SQL as the app's driver writes it (drizzle quotes identifiers): a fuzzed "' OR 1=1 --"
  // echoed in a logged URL is not SQL text of the app.
  ['SQL text', /Failed query|\bselect\s+(?:distinct\s+)?"|\binsert\s+into\s+"|\bupdate\s+"[^"]+"\s+set\b|\bdelete\s+from\s+"/i],
];

export interface Leak {
  what: string;
  excerpt: string;
}

/**
 * Every secret or internal detail found in `text` (empty when clean). A log line may carry a
 * stack's frames (`inLog`: the operator needs them behind a 500); a response never.
 */
export function findLeaks(text: string, secrets: Iterable<string> = knownSecrets, options: { inLog?: boolean } = {}): Leak[] {
  const leaks: Leak[] = [];
  const excerpt = (at: number) => text.slice(Math.max(0, at - 60), at + 80);
  for (const [what, pattern] of PATTERNS) {
    if (options.inLog && what === 'stack trace') continue;
    const m = pattern.exec(text);
    if (m) leaks.push({ what, excerpt: excerpt(m.index) });
  }
  for (const secret of secrets) {
    // As is, and as it looks inside a JSON string.
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) {
      const at = text.indexOf(form);
      if (at >= 0) {
        leaks.push({ what: `known secret ${secret.slice(0, 4)}…`, excerpt: excerpt(at) });
        break;
      }
    }
  }
  return leaks;
}

/** Notes the secrets a request carries (session/grant cookies, passwords in the body). */
export function noteRequestSecrets(cookies: Record<string, string | undefined>, body: unknown): void {
  for (const value of Object.values(cookies)) noteSecret(value);
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['password', 'newPassword', 'passwordAttuale', 'nuovaPassword']) noteSecret(b[key]);
  }
}

/** Notes the tokens a response hands out in Set-Cookie. */
export function noteResponseSecrets(setCookie: string | string[] | number | undefined): void {
  const headers = Array.isArray(setCookie) ? setCookie : typeof setCookie === 'string' ? [setCookie] : [];
  for (const header of headers) {
    const value = header.split(';')[0]!.split('=').slice(1).join('=');
    noteSecret(value);
  }
}
