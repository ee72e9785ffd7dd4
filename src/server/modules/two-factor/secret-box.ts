import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';

/**
 * The key of the second factor (decision 030): it encrypts the TOTP secrets (AES-256-GCM) and
 * keys the recovery codes' hashes (HMAC-SHA-256), so that a database dump alone gives
 * neither. TOTP_ENCRYPTION_KEY when configured (needed when app processes run on more than
 * one machine); otherwise a random key made once in DATA_DIR/chiave-totp (mode 0600), which no
 * database backup contains.
 */
export const KEY_FILE = 'chiave-totp';
const VERSION = 'v1';

const keys = new Map<string, Buffer>();

export function totpKey(config: Pick<Config, 'totpEncryptionKey' | 'dataDir'>): Buffer {
  if (config.totpEncryptionKey) return config.totpEncryptionKey;
  const file = path.join(config.dataDir, KEY_FILE);
  const known = keys.get(file);
  if (known) return known;
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    // Written aside, then linked into place: the link fails if another process made the
    // file meanwhile, and nobody ever reads a half-written key.
    const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    writeFileSync(aside, randomBytes(32).toString('hex'), { mode: 0o600 });
    try {
      linkSync(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(aside);
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file}: chiave TOTP non valida (64 caratteri esadecimali attesi)`);
  const key = Buffer.from(text, 'hex');
  keys.set(file, key);
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>` in base64url; the user id is authenticated data (a secret moved to another row does not open). */
export function sealSecret(key: Buffer, userId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`totp:${userId}`));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function openSecret(key: Buffer, userId: number, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !body) throw new Error('segreto TOTP in un formato sconosciuto');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`totp:${userId}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** What the database keeps of a recovery code: HMAC-SHA-256 under the key, of the code normalised. */
export function recoveryCodeHash(key: Buffer, code: string): string {
  return createHmac('sha256', key).update(`recupero:${normaliseRecoveryCode(code)}`).digest('hex');
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}
