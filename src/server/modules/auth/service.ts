import { testo, type Lingua } from '../../../shared/i18n/index.js';
import { randomInt } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { RegisterRequest, ValidateSiglaResponse } from '../../../shared/schemas/auth.js';
import { normaliseEmail, normaliseSigla, SIGLA_PATTERN } from '../../../shared/sigla.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { residenti } from '../residents/tables.js';
import { sessions } from './tables.js';
import { users } from '../users/tables.js';
import { insertUser, replacePassword, setTemporaryPassword } from '../users/index.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { openSede } from '../sedi/index.js';
import type { Mailer } from '../../integrations/mailer.js';
import { temporaryPasswordEmail, welcomeEmail } from './emails.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';
import {
  createSession,
  endAllSessionsOfUser,
  findSession,
  purgeExpiredSessions,
  type SessionUser,
} from './sessions.js';
import { sessionUserColumns } from '../users/index.js';
import { runTransaction } from '../../db/transaction.js';

export interface AuthDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl'>;
}

export const TEMP_PASSWORD_TTL_MINUTES = 60;
export const TEMP_PASSWORD_LENGTH = 12;
/** No 0/O, 1/l/I: easy to copy from an email by hand. */
const TEMP_PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

export function generateTemporaryPassword(): string {
  let out = '';
  for (let i = 0; i < TEMP_PASSWORD_LENGTH; i++) out += TEMP_PASSWORD_ALPHABET[randomInt(TEMP_PASSWORD_ALPHABET.length)];
  return out;
}

interface NewSession {
  token: string;
  expiresAt: Date;
}

/**
 * Creates an account (role `user`, whatever was asked) and its first session. A sigla
 * must be an active resident code no other account uses; it makes the account a resident.
 */
export async function registerUser(
  deps: AuthDeps,
  input: RegisterRequest,
  lingua: Lingua = 'it',
): Promise<{ user: SessionUser; session: NewSession }> {
  const email = normaliseEmail(input.email);
  const sigla = input.siglaResidente ? normaliseSigla(input.siglaResidente) : null;
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const result = await runTransaction(deps.db, async (tx) => {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (taken) throw conflict(testo('http.emailTaken'), 'EMAIL_TAKEN');
    // The home sede (issue 47): the one asked for, an open one; else the resident code's; else
    // the first open sede (the users trigger, bicielis_sede_predefinita).
    let sedeId: number | null = null;
    if (input.sedeId !== undefined) {
      const sede = await openSede(tx, input.sedeId);
      if (!sede) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
      sedeId = sede.id;
    }
    if (sigla) {
      // `for share`: the code cannot be deactivated or renamed until this account exists.
      const [resident] = await tx
        .select({ attivo: residenti.attivo, sedeId: residenti.sedeId })
        .from(residenti)
        .where(eq(residenti.sigla, sigla))
        .for('share');
      if (!resident?.attivo) {
        throw badRequest(testo('auth.invalidResidentCode'), 'INVALID_SIGLA', { fields: { siglaResidente: testo('auth.invalidResidentCode') } });
      }
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.siglaResidente, sigla));
      if (holder) throw conflict(testo('http.residentCodeTaken'), 'SIGLA_TAKEN');
      if (sedeId === null && resident.sedeId !== null) sedeId = (await openSede(tx, resident.sedeId))?.id ?? null;
    }
    // The unique constraints on email and sigla stay the last word under concurrency
    // (mapped to 409 by the error handler).
    const user = await insertUser(
      tx,
      { nome: input.nome, cognome: input.cognome, email, passwordHash, isResidente: sigla !== null, siglaResidente: sigla, lingua, ...(sedeId !== null ? { sedeId } : {}) },
      now,
    );
    const session = await createSession(tx, user.id, 'session', now);
    return { user, session };
  });
  deps.mailer.sendInBackground(welcomeEmail(result.user, deps.config.publicUrl));
  return result;
}

export type LoginOutcome =
  | { kind: 'ok'; user: SessionUser; session: NewSession }
  | { kind: 'invalid' }
  | { kind: 'disabled' }
  | { kind: 'password_change'; userId: number; grant: NewSession }
  /** Right password, and a second factor is active: only the code step is allowed (decision 030). */
  | { kind: 'two_factor'; grant: NewSession };

/**
 * Checks email and password (or a temporary password still valid). Wrong email and wrong
 * password are one outcome, and an unknown email still costs one hash verification.
 */
export async function login(deps: AuthDeps, input: { email: string; password: string }): Promise<LoginOutcome> {
  const email = normaliseEmail(input.email);
  const [user] = await deps.db
    .select({
      ...sessionUserColumns,
      passwordHash: users.passwordHash,
      mustChangePassword: users.mustChangePassword,
      tempPasswordHash: users.tempPasswordHash,
      tempPasswordExpiresAt: users.tempPasswordExpiresAt,
    })
    .from(users)
    .where(eq(users.email, email));
  if (!user) {
    await verifyPassword(await dummyPasswordHash(), input.password);
    return { kind: 'invalid' };
  }
  const now = deps.clock.now();
  let matches = await verifyPassword(user.passwordHash, input.password);
  let usedTemporary = false;
  if (!matches && user.tempPasswordHash && user.tempPasswordExpiresAt && user.tempPasswordExpiresAt > now) {
    matches = await verifyPassword(user.tempPasswordHash, input.password);
    usedTemporary = matches;
  }
  if (!matches) return { kind: 'invalid' };
  if (!user.attiva) return { kind: 'disabled' };

  if (user.mustChangePassword || usedTemporary) {
    const grant = await runTransaction(deps.db, async (tx) => {
      // One grant at a time: an earlier, unused one stops working.
      await endAllSessionsOfUser(tx, user.id, 'password_change');
      return createSession(tx, user.id, 'password_change', now);
    });
    return { kind: 'password_change', userId: user.id, grant };
  }

  if (user.dueFattori) {
    const grant = await runTransaction(deps.db, async (tx) => {
      // One pending state at a time: an earlier one stops working.
      await endAllSessionsOfUser(tx, user.id, 'two_factor');
      return createSession(tx, user.id, 'two_factor', now);
    });
    return { kind: 'two_factor', grant };
  }

  const session = await createSession(deps.db, user.id, 'session', now);
  // Housekeeping: this user's expired sessions and grants go (they are refused anyway).
  await purgeExpiredSessions(deps.db, now, user.id);
  const { passwordHash: _h, mustChangePassword: _m, tempPasswordHash: _t, tempPasswordExpiresAt: _e, ...publicUser } = user;
  return { kind: 'ok', user: publicUser, session };
}

/**
 * Password recovery. For an active account: a new random temporary password, valid
 * TEMP_PASSWORD_TTL_MINUTES, is stored hashed and emailed; the current password keeps
 * working until the temporary one is used. Nothing tells the caller whether the email exists:
 * the temporary password is hashed either way, and the email leaves in the background.
 */
export async function requestPasswordReset(deps: AuthDeps, rawEmail: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  const [user] = await deps.db
    .select({ id: users.id, nome: users.nome, email: users.email, attiva: users.attiva, lingua: users.lingua })
    .from(users)
    .where(eq(users.email, email));
  const temporary = generateTemporaryPassword();
  const temporaryHash = await hashPassword(temporary);
  if (!user?.attiva) return;
  const now = deps.clock.now();
  await setTemporaryPassword(deps.db, user.id, temporaryHash, new Date(now.getTime() + TEMP_PASSWORD_TTL_MINUTES * 60_000), now);
  deps.mailer.sendInBackground(
    temporaryPasswordEmail(user, temporary, TEMP_PASSWORD_TTL_MINUTES, deps.config.publicUrl),
  );
}

/**
 * Sets a new password. Allowed only with the password-change grant of that same user
 * (consumed here) or a logged-in session of that same user; otherwise 403 and nothing
 * changes. Clears the temporary password and the forced-change flag, and ends every session
 * and grant of the user.
 */
export async function changePassword(
  deps: AuthDeps,
  input: { userId: number; newPassword: string },
  credentials: { grantToken?: string | undefined; sessionUser?: SessionUser | null },
): Promise<void> {
  const now = deps.clock.now();
  let grantHash: string | undefined;
  const viaSession = credentials.sessionUser?.id === input.userId && credentials.sessionUser.attiva;
  if (!viaSession) {
    const grant = credentials.grantToken ? await findSession(deps.db, credentials.grantToken, 'password_change') : null;
    if (!grant || grant.user.id !== input.userId || grant.expiresAt <= now || !grant.user.attiva) {
      throw forbidden(testo('auth.sessionExpired'), 'PASSWORD_CHANGE_FORBIDDEN');
    }
    grantHash = grant.tokenHash;
  }
  const passwordHash = await hashPassword(input.newPassword);
  await runTransaction(deps.db, async (tx) => {
    if (grantHash) {
      // Consumed: of two requests racing with one grant, only one gets here with a row.
      const used = await tx
        .delete(sessions) // triggers: NOTIFY bicielis_auth
        .where(and(eq(sessions.tokenHash, grantHash), eq(sessions.kind, 'password_change'), gt(sessions.expiresAt, now)))
        .returning({ userId: sessions.userId });
      if (used[0]?.userId !== input.userId) {
        throw forbidden(testo('auth.sessionExpired'), 'PASSWORD_CHANGE_FORBIDDEN');
      }
    }
    const updated = await replacePassword(tx, input.userId, passwordHash, now);
    if (!updated) throw forbidden(testo('auth.sessionExpired'), 'PASSWORD_CHANGE_FORBIDDEN');
    await endAllSessionsOfUser(tx, input.userId);
  });
}

/** GET /api/validate-sigla: valid only when the code exists and is active. Case-insensitive. */
export async function checkSigla(db: Db, code: string): Promise<ValidateSiglaResponse> {
  const sigla = normaliseSigla(code);
  if (!SIGLA_PATTERN.test(sigla)) return { valid: false };
  const [resident] = await db
    .select({
      nome: residenti.nome,
      cognome: residenti.cognome,
      corsoDiStudi: residenti.corsoDiStudi,
      annoCorso: residenti.annoCorso,
      attivo: residenti.attivo,
    })
    .from(residenti)
    .where(eq(residenti.sigla, sigla));
  if (!resident?.attivo) return { valid: false };
  const { attivo: _a, ...data } = resident;
  return { valid: true, data };
}
