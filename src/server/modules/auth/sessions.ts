import { hash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sessions, type SignInMethod } from './tables.js';
import { users } from '../users/tables.js';
import { sessionUserColumns } from '../users/index.js';
import type { FoundSession, SessionGuard, SessionUser } from '../../http/auth.js';
import { describeDevice } from './device.js';

/** Sliding lifetime of a login session. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most this often (not one write per request). */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;
/** Lifetime of the grant that allows one password change after a login that required it. */
export const PASSWORD_CHANGE_GRANT_TTL_MS = 15 * 60 * 1000;
/** Lifetime of the pending state between a right password and the code of the second factor (decision 030). */
export const TWO_FACTOR_GRANT_TTL_MS = 5 * 60 * 1000;

export type SessionKind = (typeof sessions.$inferSelect)['kind'];

/** A database handle or a transaction: what the functions below need of either. */
export type DbOrTx = Pick<Db, 'select' | 'insert' | 'update' | 'delete'>;

/** 256 random bits, URL-safe: the value of the cookie. Never stored as such. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, hex. */
export function hashSessionToken(token: string): string {
  // The one-shot hash: a third of createHash's time, on every authenticated request (issue 33).
  return hash('sha256', token, 'hex');
}

/** Creates a session (or a password-change grant) and returns the token for the cookie. */
export async function createSession(
  db: DbOrTx,
  userId: number,
  kind: SessionKind,
  now: Date,
  /** How the person signed in (issue 49): recorded on the session. */
  metodo: SignInMethod = 'password',
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSessionToken();
  const ttl = kind === 'session' ? SESSION_TTL_MS : kind === 'two_factor' ? TWO_FACTOR_GRANT_TTL_MS : PASSWORD_CHANGE_GRANT_TTL_MS;
  const expiresAt = new Date(now.getTime() + ttl);
  await db.insert(sessions).values({
    tokenHash: hashSessionToken(token),
    userId,
    kind,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    metodo,
  });
  return { token, expiresAt };
}

export type { FoundSession, SessionUser };

function prepareFindSession(db: Db) {
  return db
    .select({ tokenHash: sessions.tokenHash, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, user: sessionUserColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('hash')), eq(sessions.kind, sql.placeholder('kind'))))
    .prepare('find_session');
}
// Looked up on every authenticated request: prepared once per database handle.
const findStatements = new WeakMap<Db, ReturnType<typeof prepareFindSession>>();

/** The row of a token of the given kind with its user, or null. Expiry is the caller's to judge. */
export function findSession(db: Db, token: string, kind: SessionKind): Promise<FoundSession | null> {
  return findSessionByHash(db, hashSessionToken(token), kind);
}

export async function findSessionByHash(db: Db, tokenHash: string, kind: SessionKind): Promise<FoundSession | null> {
  let statement = findStatements.get(db);
  if (!statement) {
    statement = prepareFindSession(db);
    findStatements.set(db, statement);
  }
  const [row] = await statement.execute({ hash: tokenHash, kind });
  return row ?? null;
}

/** Names the device of a session just created (its browser and system in a few words). */
export async function recordSessionDevice(db: DbOrTx, token: string, device: string): Promise<void> {
  await db.update(sessions).set({ dispositivo: device }).where(eq(sessions.tokenHash, hashSessionToken(token)));
}

/** Slides a session's expiry forward from `now`. */
export async function touchSession(db: DbOrTx, tokenHash: string, now: Date): Promise<Date> {
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.tokenHash, tokenHash));
  return expiresAt;
}

export async function deleteSessionByHash(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)); // triggers: NOTIFY bicielis_auth
}

export async function deleteSessionByToken(db: DbOrTx, token: string, kind: SessionKind): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.tokenHash, hashSessionToken(token)), eq(sessions.kind, kind))); // triggers: NOTIFY bicielis_auth
}

/**
 * Ends every session and password-change grant of a user: at a password change, and when
 * an admin deactivates or demotes them. Returns how many rows were removed.
 */
export async function endAllSessionsOfUser(db: DbOrTx, userId: number, kind?: SessionKind): Promise<number> {
  const where = kind ? and(eq(sessions.userId, userId), eq(sessions.kind, kind)) : eq(sessions.userId, userId);
  const removed = await db.delete(sessions).where(where).returning({ tokenHash: sessions.tokenHash }); // triggers: NOTIFY bicielis_auth
  return removed.length;
}

/**
 * Ends every session and grant of a user but the one of `keepTokenHash` (null: all of them):
 * after a password change or a second factor turned on, the sessions opened elsewhere end.
 */
export async function endOtherSessionsOfUser(db: DbOrTx, userId: number, keepTokenHash: string | null): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), keepTokenHash ? ne(sessions.tokenHash, keepTokenHash) : undefined)); // triggers: NOTIFY bicielis_auth
}

/**
 * Removes expired sessions and grants, of one user or of everybody (housekeeping: expired
 * rows are refused anyway). Login purges the user's own; a periodic job may purge all.
 */
export async function purgeExpiredSessions(db: DbOrTx, now: Date, userId?: number): Promise<number> {
  const expired = lt(sessions.expiresAt, now);
  const removed = await db
    .delete(sessions) // triggers: NOTIFY bicielis_auth
    .where(userId === undefined ? expired : and(expired, eq(sessions.userId, userId)))
    .returning({ tokenHash: sessions.tokenHash });
  return removed.length;
}

/** The login sessions of this database as the request guard (http/auth.ts) works with them. */
export function sessionStore(db: Db): Omit<SessionGuard, 'needsTwoFactorEnrolment'> {
  return {
    hashToken: hashSessionToken,
    findSession: (tokenHash) => findSessionByHash(db, tokenHash, 'session'),
    deleteSession: (tokenHash) => deleteSessionByHash(db, tokenHash),
    touchSession: (tokenHash, now) => touchSession(db, tokenHash, now),
    touchIntervalMs: SESSION_TOUCH_INTERVAL_MS,
    async recordDevice(token, userAgent) {
      // The device in a few words, for the person's data export (decision 029).
      const device = describeDevice(userAgent);
      if (device) await recordSessionDevice(db, token, device);
    },
    endSession: (token) => deleteSessionByToken(db, token, 'session'),
  };
}
