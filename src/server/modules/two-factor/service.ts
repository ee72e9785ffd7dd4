import { and, count, eq, isNull } from 'drizzle-orm';
import type { TwoFactorConfirmedDto, TwoFactorEnrolmentDto, TwoFactorStatusDto } from '../../../shared/schemas/two-factor.js';
import {
  RECOVERY_CODE_PATTERN,
} from '../../../shared/schemas/two-factor.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { codiciRecupero } from './tables.js';
import { users } from '../users/tables.js';
import { runTransaction } from '../../db/transaction.js';
import { writeAudit } from '../audit/index.js';
import { badRequest, conflict } from '../../http/errors.js';
import { type DbOrTx, endOtherSessionsOfUser } from '../auth/index.js';
import { activateTotp, clearTotp, recordTotpStep, storeTotpSecret } from '../users/index.js';
import { openSecret, recoveryCodeHash, sealSecret, totpKey } from './secret-box.js';
import { matchTotp, newRecoveryCode, newTotpSecret, qrCodeDataUrl, RECOVERY_CODE_COUNT, totpUri } from './totp.js';
import { testo } from '../../../shared/i18n/index.js';

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'totpEncryptionKey' | 'dataDir' | 'admin2faRequired'>;
}

const wrongCode = () => badRequest(testo('twoFactor.wrongCode'), 'WRONG_CODE', { fields: { codice: testo('twoFactor.wrongCode') } });

/** The user's sealed secret, since when it is active, and their email; locked FOR UPDATE when asked (a change follows). */
async function secretRow(db: DbOrTx, userId: number, lock: 'for update' | 'no lock' = 'no lock') {
  const query = db
    .select({ segreto: users.totpSegreto, attivoAt: users.totpAttivoAt, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  const [row] = lock === 'for update' ? await query.for('update') : await query;
  return row;
}

/** GET /api/due-fattori. */
export async function twoFactorStatus(deps: TwoFactorDeps, userId: number): Promise<TwoFactorStatusDto> {
  const row = await secretRow(deps.db, userId);
  const [left] = await deps.db
    .select({ n: count() })
    .from(codiciRecupero)
    .where(and(eq(codiciRecupero.userId, userId), isNull(codiciRecupero.usatoAt)));
  const attiva = Boolean(row?.attivoAt);
  return { attiva, codiciRecuperoRimasti: attiva ? (left?.n ?? 0) : 0, obbligatoria: deps.config.admin2faRequired };
}

/**
 * Starts an enrolment: a new secret, stored encrypted and not active yet (a second start
 * replaces it). 409 when a second factor is already active: it is turned off first, with a code.
 */
export async function beginEnrolment(deps: TwoFactorDeps, userId: number): Promise<TwoFactorEnrolmentDto> {
  const key = totpKey(deps.config);
  const secret = newTotpSecret();
  const email = await runTransaction(deps.db, async (tx) => {
    const [row] = await tx.select({ attivoAt: users.totpAttivoAt, email: users.email }).from(users).where(eq(users.id, userId)).for('update');
    if (!row) throw badRequest(testo('twoFactor.noEnrolment'), 'NO_ENROLMENT');
    if (row.attivoAt) throw conflict(testo('twoFactor.alreadyActive'), 'TWO_FACTOR_ACTIVE');
    await storeTotpSecret(tx, userId, sealSecret(key, userId, secret));
    return row.email;
  });
  const otpauthUrl = totpUri(secret, email);
  return { segreto: secret, otpauthUrl, qrCode: await qrCodeDataUrl(otpauthUrl) };
}

/**
 * Accepts a TOTP code of the user's secret and records its step, in one statement: the
 * update happens only when the step is later than the last one used, so a code (or an
 * older one) is never accepted twice, even by two requests at once.
 */
async function acceptTotp(deps: TwoFactorDeps, db: DbOrTx, userId: number, sealed: string, code: string): Promise<boolean> {
  const step = matchTotp(openSecret(totpKey(deps.config), userId, sealed), code, deps.clock.now());
  if (step === null) return false;
  return recordTotpStep(db, userId, step);
}

/** Uses a recovery code: its row is marked used by the statement that finds it (single use under any concurrency). */
async function acceptRecoveryCode(deps: TwoFactorDeps, db: DbOrTx, userId: number, code: string): Promise<boolean> {
  if (!RECOVERY_CODE_PATTERN.test(code)) return false;
  const used = await db
    .update(codiciRecupero)
    .set({ usatoAt: deps.clock.now() })
    .where(
      and(
        eq(codiciRecupero.userId, userId),
        eq(codiciRecupero.hash, recoveryCodeHash(totpKey(deps.config), code)),
        isNull(codiciRecupero.usatoAt),
      ),
    )
    .returning({ id: codiciRecupero.id });
  return used.length === 1;
}

/**
 * Confirms an enrolment with the app's first code: the second factor becomes active, ten
 * recovery codes replace any earlier ones (their hashes stored; the codes returned this
 * once), and every other session of the user ends. Wrong code: 400, nothing changes.
 */
export async function confirmEnrolment(
  deps: TwoFactorDeps,
  userId: number,
  code: string,
  keepSessionHash: string | null,
): Promise<TwoFactorConfirmedDto | null> {
  const key = totpKey(deps.config);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const row = await secretRow(tx, userId, 'for update');
    if (row?.attivoAt) throw conflict(testo('twoFactor.alreadyActive'), 'TWO_FACTOR_ACTIVE');
    if (!row?.segreto) throw badRequest(testo('twoFactor.noEnrolment'), 'NO_ENROLMENT');
    if (!(await acceptTotp(deps, tx, userId, row.segreto, code))) return null;
    await activateTotp(tx, userId, now);
    // An admin's account security is an admin action: the Registro attività shows it.
    await writeAudit(tx, { id: userId, email: row.email }, { action: 'two_factor.enable', entity: 'user', entityId: userId, before: { verificaInDuePassaggi: false }, after: { verificaInDuePassaggi: true } }, now);
    await tx.delete(codiciRecupero).where(eq(codiciRecupero.userId, userId));
    await tx.insert(codiciRecupero).values(codes.map((c) => ({ userId, hash: recoveryCodeHash(key, c), createdAt: now })));
    // Sessions opened with the password alone (elsewhere) end; this one stays.
    await endOtherSessionsOfUser(tx, userId, keepSessionHash);
    return { codiciRecupero: codes };
  });
}

/** A code of the active second factor, the app's or a recovery code: true when accepted (and used up). */
export async function verifySecondFactor(deps: TwoFactorDeps, userId: number, code: string): Promise<boolean> {
  return runTransaction(deps.db, async (tx) => {
    const [row] = await tx.select({ segreto: users.totpSegreto, attivoAt: users.totpAttivoAt }).from(users).where(eq(users.id, userId));
    if (!row?.attivoAt || !row.segreto) return false;
    if (/^\d{6}$/.test(code)) return acceptTotp(deps, tx, userId, row.segreto, code);
    return acceptRecoveryCode(deps, tx, userId, code);
  });
}

/** Turns the second factor off; needs a valid code (the app's or a recovery code). Null: wrong code. */
export async function disableSecondFactor(deps: TwoFactorDeps, userId: number, code: string): Promise<true | null> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const row = await secretRow(tx, userId, 'for update');
    if (!row?.attivoAt || !row.segreto) throw conflict(testo('twoFactor.notActive'), 'TWO_FACTOR_NOT_ACTIVE');
    const ok = /^\d{6}$/.test(code) ? await acceptTotp(deps, tx, userId, row.segreto, code) : await acceptRecoveryCode(deps, tx, userId, code);
    if (!ok) return null;
    await clearTotp(tx, userId, now);
    await writeAudit(tx, { id: userId, email: row.email }, { action: 'two_factor.disable', entity: 'user', entityId: userId, before: { verificaInDuePassaggi: true }, after: { verificaInDuePassaggi: false } }, now);
    await tx.delete(codiciRecupero).where(eq(codiciRecupero.userId, userId));
    return true;
  });
}

export { wrongCode };
