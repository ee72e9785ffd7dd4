import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * The file outbox (SMTP_URL unset) keeps every email the app wrote as an `.eml` file. When a
 * person deletes their account (decision 029), the files that name them go: an email that
 * was sent is gone from our side too. A message is searched as it is written and decoded
 * (quoted-printable bodies, base64 parts, encoded-word headers), case-insensitively.
 */

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeEncodedWords(text: string): string {
  return text.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeBase64Blocks(text: string): string {
  const out: string[] = [];
  for (const block of text.match(/(?:^[A-Za-z0-9+/]{16,}={0,2}\r?\n)+/gm) ?? []) {
    out.push(Buffer.from(block.replace(/\s+/g, ''), 'base64').toString('utf8'));
  }
  return out.join('\n');
}

/** The message as a person would read it, every encoding undone, lower-case. */
export function searchableEmail(raw: string): string {
  return [raw, decodeQuotedPrintable(raw), decodeEncodedWords(raw), decodeBase64Blocks(raw)].join('\n').toLowerCase();
}

/** Deletes the outbox's `.eml` files that contain any of `terms`; returns how many. */
export async function forgetInOutbox(outboxDir: string, terms: readonly string[]): Promise<number> {
  const needles = terms.map((t) => t.trim().toLowerCase()).filter((t) => t.length >= 2);
  if (needles.length === 0) return 0;
  let names: string[];
  try {
    names = await fs.readdir(outboxDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.eml')) continue;
    const file = path.join(outboxDir, name);
    const text = searchableEmail(await fs.readFile(file, 'utf8'));
    if (needles.some((n) => text.includes(n))) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
