import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { currentE2ePort, e2ePointer } from './ports';

/**
 * The emails of the e2e server. Without SMTP_URL the app writes each message as an .eml
 * file in `<DATA_DIR>/outbox`; tests/e2e/server.mjs writes its temporary DATA_DIR into
 * `<tmpdir>/bicielis-e2e-<port>.datadir` so the specs can find it.
 */

export interface OutboxEmail {
  file: string;
  to: string;
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded ('' when absent). */
  html: string;
}

/** The DATA_DIR of the server the running test talks to. */
export function e2eDataDir(): string {
  return readFileSync(e2ePointer(currentE2ePort(), 'datadir'), 'utf8').trim();
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  // Unfold continuation lines (RFC 5322 §2.2.3), then split "Name: value".
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function splitHeadersAndBody(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, match.index)), body: raw.slice(match.index + match[0].length) };
}

/** Quoted-printable (RFC 2045 §6.7): soft line breaks removed, =XX bytes decoded as UTF-8. */
export function decodeQuotedPrintable(input: string): string {
  const unwrapped = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(unwrapped[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** RFC 2047 encoded words in headers (=?utf-8?Q?…?= and =?utf-8?B?…?=). */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Parses one .eml as the app's mailer writes it: single part, or multipart/alternative. */
export function parseEml(raw: string, file = ''): OutboxEmail {
  const { headers, body } = splitHeadersAndBody(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const parts: { type: string; text: string }[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (contentType.toLowerCase().startsWith('multipart/') && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitHeadersAndBody(chunk.replace(/^\r?\n/, ''));
      parts.push({
        type: (part.headers.get('content-type') ?? 'text/plain').toLowerCase(),
        text: decodeBody(part.body.replace(/\r?\n$/, ''), part.headers.get('content-transfer-encoding')),
      });
    }
  } else {
    parts.push({ type: contentType.toLowerCase(), text: decodeBody(body, headers.get('content-transfer-encoding')) });
  }
  return {
    file,
    to: decodeHeader(headers.get('to') ?? ''),
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: parts.find((p) => p.type.startsWith('text/plain'))?.text ?? '',
    html: parts.find((p) => p.type.startsWith('text/html'))?.text ?? '',
  };
}

/** Every email in the outbox so far, oldest first. */
export async function readOutbox(): Promise<OutboxEmail[]> {
  const dir = path.join(e2eDataDir(), 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map(async (f) => parseEml(await readFile(path.join(dir, f), 'utf8'), f)));
}

/** Waits (up to `timeoutMs`) for an email to `to` that `match` accepts; the newest one wins. */
export async function waitForEmail(
  to: string,
  match: (email: OutboxEmail) => boolean,
  timeoutMs = 10_000,
): Promise<OutboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox()).filter((e) => e.to.toLowerCase().includes(to.toLowerCase()) && match(e)).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No email to ${to} in the outbox after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The temporary password of the latest recovery email to `to`. */
export async function temporaryPasswordFor(to: string): Promise<string> {
  const email = await waitForEmail(to, (e) => /Password temporanea:\s*\S+/.test(e.text));
  const password = /Password temporanea:\s*(\S+)/.exec(email.text)?.[1];
  if (!password) throw new Error(`No temporary password in ${email.file}`);
  return password;
}
