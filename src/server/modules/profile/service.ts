import { and, eq, sql } from 'drizzle-orm';
import type { ProfileDto, ProfileUpdateRequest, PushSubscriptionInput } from '../../../shared/schemas/profile.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { preferenzeUtente } from './tables.js';
import { users } from '../users/tables.js';
import { badRequest, notFound, unauthorized } from '../../http/errors.js';
import { endOtherSessionsOfUser, hashPassword, verifyPassword } from '../auth/index.js';
import { replacePassword, updateUserLingua, updateUserName, updateUserSede } from '../users/index.js';
import { openSede } from '../sedi/index.js';
import { hashCalendarToken, newCalendarToken } from './calendar-token.js';
import { deletePushSubscription, savePushSubscription } from '../notifications/index.js';
import { runTransaction } from '../../db/transaction.js';
import { testo } from '../../../shared/i18n/index.js';

export interface ProfileDeps {
  db: Db;
  clock: Clock;
  /** The VAPID public key, or null when it cannot be had (push is then not offered). */
  pushPublicKey: () => Promise<string | null>;
}

/** The profile of an account (GET /api/profilo): its name, email, reminder choice, feed and push key. */
export async function getProfile(deps: ProfileDeps, userId: number): Promise<ProfileDto> {
  const [row] = await deps.db
    .select({
      nome: users.nome,
      cognome: users.cognome,
      email: users.email,
      promemoria: preferenzeUtente.promemoria,
      lingua: users.lingua,
      sedeId: users.sedeId,
      tokenHash: preferenzeUtente.calendarioTokenHash,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .leftJoin(preferenzeUtente, eq(preferenzeUtente.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw unauthorized();
  return {
    nome: row.nome,
    cognome: row.cognome,
    email: row.email,
    // No row yet = the defaults: reminders on, no feed.
    promemoria: row.promemoria ?? true,
    lingua: row.lingua,
    sedeId: row.sedeId,
    calendarioAttivo: row.tokenHash !== null,
    password: row.passwordHash !== null,
    push: { publicKey: await deps.pushPublicKey() },
  };
}

/**
 * Changes the name and/or the reminder choice. The preferences row is made at the first
 * change. A changed name reaches every process's session cache through the users trigger's
 * notification (drizzle/0001_auth_notify.sql).
 */
export async function updateProfile(deps: ProfileDeps, userId: number, input: ProfileUpdateRequest): Promise<ProfileDto> {
  const now = deps.clock.now();
  await runTransaction(deps.db, async (tx) => {
    if (input.nome !== undefined || input.cognome !== undefined) {
      await updateUserName(tx, userId, { nome: input.nome, cognome: input.cognome }, now);
    }
    if (input.lingua !== undefined) await updateUserLingua(tx, userId, input.lingua, now);
    if (input.sedeId !== undefined) {
      // An open sede only (issue 47): an archived one takes no person.
      if (!(await openSede(tx, input.sedeId))) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
      await updateUserSede(tx, userId, input.sedeId, now);
    }
    if (input.promemoria !== undefined) {
      await tx
        .insert(preferenzeUtente)
        .values({ userId, promemoria: input.promemoria, updatedAt: now })
        .onConflictDoUpdate({ target: preferenzeUtente.userId, set: { promemoria: input.promemoria, updatedAt: now } });
    }
  });
  return getProfile(deps, userId);
}

/**
 * Changes the password of a logged-in user who knows the current one. Every other session
 * of the user (and any password-change grant) ends; the session of this request stays. The
 * deleted sessions leave every process's cache through the sessions trigger's notification.
 * Returns false when the current password is wrong (nothing changes).
 */
export async function changeOwnPassword(
  deps: ProfileDeps,
  userId: number,
  input: { passwordAttuale: string; nuovaPassword: string },
  currentSessionHash: string,
): Promise<boolean> {
  const [row] = await deps.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row) throw unauthorized();
  if (!(await verifyPassword(row.passwordHash, input.passwordAttuale))) return false;
  const passwordHash = await hashPassword(input.nuovaPassword);
  const now = deps.clock.now();
  await runTransaction(deps.db, async (tx) => {
    // Only if the password is still the one just verified: of two changes racing, one wins.
    const updated = await replacePassword(tx, userId, passwordHash, now, row.passwordHash ?? undefined);
    if (!updated) throw badRequest(testo('profile.wrongCurrentPassword'), 'WRONG_PASSWORD');
    await endOtherSessionsOfUser(tx, userId, currentSessionHash);
  });
  return true;
}

/** A new calendar-feed token for the user (the previous one stops working); returns the token. */
export async function rotateCalendarToken(deps: ProfileDeps, userId: number): Promise<string> {
  const token = newCalendarToken();
  const tokenHash = hashCalendarToken(token);
  const now = deps.clock.now();
  await deps.db
    .insert(preferenzeUtente)
    .values({ userId, calendarioTokenHash: tokenHash, updatedAt: now })
    .onConflictDoUpdate({ target: preferenzeUtente.userId, set: { calendarioTokenHash: tokenHash, updatedAt: now } });
  return token;
}

/** Revokes the user's feed (nothing to do when there is none). */
export async function revokeCalendarToken(deps: ProfileDeps, userId: number): Promise<void> {
  await deps.db
    .update(preferenzeUtente)
    .set({ calendarioTokenHash: null, updatedAt: deps.clock.now() })
    .where(and(eq(preferenzeUtente.userId, userId), sql`${preferenzeUtente.calendarioTokenHash} is not null`));
}

/**
 * Records a browser's push subscription for the user. Keyed by endpoint: a browser that
 * subscribes again (new keys), or that another account now uses, replaces its row.
 */
export async function subscribePush(
  deps: ProfileDeps,
  userId: number,
  input: Pick<PushSubscriptionInput, 'endpoint' | 'keys' | 'expirationTime'>,
) {
  const now = deps.clock.now();
  // The browser's own expiry, when it gave a valid one: the nightly retention removes it after (decision 029).
  const expiry = typeof input.expirationTime === 'number' ? new Date(input.expirationTime) : null;
  const scadeAt = expiry && Number.isFinite(expiry.getTime()) ? expiry : null;
  await savePushSubscription(deps.db, userId, { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, scadeAt }, now);
}

/** Removes the user's subscription with this endpoint, if any (another user's is left alone). */
export async function unsubscribePush(deps: ProfileDeps, userId: number, endpoint: string): Promise<void> {
  await deletePushSubscription(deps.db, userId, endpoint);
}
