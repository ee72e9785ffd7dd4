import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, eq, lt } from 'drizzle-orm';
import type * as SimpleWebAuthn from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyDto, PasskeyListDto } from '../../../shared/schemas/passkeys.js';
import { testo } from '../../../shared/i18n/index.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { runTransaction } from '../../db/transaction.js';
import type { SessionUser } from '../../http/auth.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { type Actor, writeAudit } from '../audit/index.js';
import { createSession, type DbOrTx, deleteSessionByHash, describeDevice, endOtherSessionsOfUser, type SignInMethod } from '../auth/index.js';
import { sessions } from '../auth/tables.js';
import { sessionUserColumns, setPasskeySecondFactor } from '../users/index.js';
import { users } from '../users/tables.js';
import { passkeys, webauthnSfide, type WEBAUTHN_SCOPI } from './tables.js';

let loading: Promise<typeof SimpleWebAuthn> | undefined;
/**
 * SimpleWebAuthn, loaded on the first passkey call, not at start: a process that only takes
 * bookings never needs it, and it was the largest library each process loaded for nothing
 * (issues 50 and 51: about 25 MB of RSS and 4 MB of heap with its ASN.1 and COSE code, measured
 * alone). Every later call gets the same module.
 */
const simpleWebAuthn = (): Promise<typeof SimpleWebAuthn> => (loading ??= import('@simplewebauthn/server'));

export interface PasskeyDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'admin2faRequired'>;
}

type Scopo = (typeof WEBAUTHN_SCOPI)[number];

/** A challenge lives five minutes (the browser's prompt waits at most that long). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'BiciElis';
/** What describeDevice says of a device it cannot name; also when the browser sends no User-Agent. */
const UNKNOWN_DEVICE = 'Dispositivo sconosciuto';

/** The relying party: PUBLIC_URL's host name, and its origin as the browser reports it. */
function relyingParty(config: PasskeyDeps['config']) {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** The user handle given to the authenticator: the account's id as decimal text (no email, no name). */
export const userHandle = (userId: number) => new TextEncoder().encode(String(userId));
const handleText = (userId: number) => Buffer.from(userHandle(userId)).toString('base64url');

const hashId = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A challenge handed out: the cookie's token (its hash is the row's key) and its expiry. */
export interface IssuedChallenge {
  token: string;
  expiresAt: Date;
}

/** Stores a challenge (the expired ones go on the way) and returns the cookie's token. */
async function storeChallenge(deps: PasskeyDeps, scopo: Scopo, userId: number | null, challenge: string): Promise<IssuedChallenge> {
  const now = deps.clock.now();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  await deps.db.delete(webauthnSfide).where(lt(webauthnSfide.expiresAt, now));
  await deps.db.insert(webauthnSfide).values({ idHash: hashId(token), scopo, userId, challenge, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/**
 * Takes a challenge: the row is deleted by the statement that reads it, so it serves one
 * verification only, right or wrong. Null when missing, expired, or made for another purpose or person.
 */
async function takeChallenge(deps: PasskeyDeps, token: string | undefined, scopo: Scopo, userId: number | null): Promise<string | null> {
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const [row] = await deps.db.delete(webauthnSfide).where(eq(webauthnSfide.idHash, hashId(token))).returning();
  if (!row || row.expiresAt <= deps.clock.now() || row.scopo !== scopo || row.userId !== userId) return null;
  return row.challenge;
}

const toDto = (row: typeof passkeys.$inferSelect): PasskeyDto => ({
  id: row.id,
  nome: row.nome,
  createdAt: row.createdAt.toISOString(),
  ultimoUsoAt: row.ultimoUsoAt?.toISOString() ?? null,
  sincronizzata: row.sincronizzata,
});

/** The actor of an audit entry about a person's own sign-in: admins and staff only (null: not audited). */
export function auditedActor(user: Pick<SessionUser, 'id' | 'email' | 'ruolo' | 'incarichi'>): Actor | null {
  if (user.ruolo === 'admin') return { id: user.id, email: user.email, ruolo: 'admin' };
  const incarico = user.incarichi[0];
  return incarico ? { id: user.id, email: user.email, ruolo: incarico.ruolo } : null;
}

/** GET /api/passkeys: the person's passkeys, oldest first, and the second-factor switch. */
export async function listPasskeys(db: DbOrTx, userId: number): Promise<PasskeyListDto> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  const [user] = await db.select({ secondoFattore: users.passkeySecondoFattore }).from(users).where(eq(users.id, userId));
  return { passkeys: rows.map(toDto), secondoFattore: user?.secondoFattore ?? false };
}

/** POST /api/passkeys/registrazione/opzioni: the creation options, the person's passkeys excluded. */
export async function registrationOptions(
  deps: PasskeyDeps,
  user: SessionUser,
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; challenge: IssuedChallenge }> {
  const { rpID } = relyingParty(deps.config);
  const own = await deps.db.select({ id: passkeys.credentialId, trasporti: passkeys.trasporti }).from(passkeys).where(eq(passkeys.userId, user.id));
  const { generateRegistrationOptions } = await simpleWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: `${user.nome} ${user.cognome}`,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: own.map((c) => ({ id: c.id, transports: c.trasporti })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  return { options, challenge: await storeChallenge(deps, 'registrazione', user.id, options.challenge) };
}

const registrationFailed = () => badRequest(testo('passkeys.registrationFailed'), 'PASSKEY_REGISTRATION_FAILED');

/** SimpleWebAuthn's verdict, a thrown refusal (bad signature, wrong origin…) counted as a plain "no". */
async function verdict<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch {
    return null;
  }
}

/** POST /api/passkeys/registrazione: the new passkey, named after the device (its User-Agent). */
export async function registerPasskey(
  deps: PasskeyDeps,
  user: SessionUser,
  response: RegistrationResponseJSON,
  token: string | undefined,
  userAgent: string | undefined,
): Promise<PasskeyDto> {
  const challenge = await takeChallenge(deps, token, 'registrazione', user.id);
  if (!challenge) throw registrationFailed();
  const { rpID, origin } = relyingParty(deps.config);
  const { verifyRegistrationResponse } = await simpleWebAuthn();
  const result = await verdict(() =>
    verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true }),
  );
  if (!result?.verified) throw registrationFailed();
  const { credential, credentialDeviceType } = result.registrationInfo;
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: credential.id,
        chiavePubblica: Buffer.from(credential.publicKey),
        contatore: credential.counter,
        trasporti: credential.transports ?? [],
        nome: (describeDevice(userAgent) ?? UNKNOWN_DEVICE).slice(0, 80),
        sincronizzata: credentialDeviceType === 'multiDevice',
        createdAt: now,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    // The same authenticator's credential twice (excludeCredentials should have stopped it).
    if (!row) throw registrationFailed();
    const actor = auditedActor(user);
    if (actor) {
      await writeAudit(tx, actor, { action: 'passkey.create', entity: 'user', entityId: user.id, after: { passkey: row.nome } }, now);
    }
    return toDto(row);
  });
}

/**
 * DELETE /api/passkeys/:id. The last passkey takes the second-factor switch with it, in the same
 * transaction; an admin who must have a second factor and has no other keeps it (409). The
 * database keeps a person's last way in (409 LAST_WAY_IN, http/errors.ts).
 */
export async function deletePasskey(deps: PasskeyDeps, user: SessionUser, id: number): Promise<void> {
  const now = deps.clock.now();
  await runTransaction(deps.db, async (tx) => {
    const [account] = await tx
      .select({ secondoFattore: users.passkeySecondoFattore, totp: users.totpAttivoAt })
      .from(users)
      .where(eq(users.id, user.id))
      .for('update');
    const [row] = await tx.select().from(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)));
    if (!account || !row) throw notFound();
    const [left] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
    const last = (left?.n ?? 0) <= 1;
    if (last && account.secondoFattore) {
      if (deps.config.admin2faRequired && user.ruolo === 'admin' && !account.totp) {
        throw conflict(testo('passkeys.lastSecondFactor'), 'PASSKEY_LAST_SECOND_FACTOR');
      }
      await setPasskeySecondFactor(tx, user.id, false, now);
    }
    await tx.delete(passkeys).where(eq(passkeys.id, row.id));
    const actor = auditedActor(user);
    if (actor) {
      await writeAudit(tx, actor, { action: 'passkey.delete', entity: 'user', entityId: user.id, before: { passkey: row.nome } }, now);
      if (last && account.secondoFattore) {
        await writeAudit(tx, actor, { action: 'passkey.second_factor', entity: 'user', entityId: user.id, before: { passkeySecondoFattore: true }, after: { passkeySecondoFattore: false } }, now);
      }
    }
  });
}

/**
 * PUT /api/passkeys/secondo-fattore (admins): a passkey as second factor, on or off. Turned on,
 * the sessions opened elsewhere with the password alone end (as a TOTP enrolment does); this one stays.
 */
export async function setSecondFactor(deps: PasskeyDeps, user: SessionUser, attivo: boolean, keepSessionHash: string | null): Promise<PasskeyListDto> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const [account] = await tx.select({ secondoFattore: users.passkeySecondoFattore }).from(users).where(eq(users.id, user.id)).for('update');
    const [own] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
    if (attivo && (own?.n ?? 0) === 0) throw conflict(testo('passkeys.noneYet'), 'PASSKEY_NONE_YET');
    if (account && account.secondoFattore !== attivo) {
      await setPasskeySecondFactor(tx, user.id, attivo, now);
      await writeAudit(tx, { id: user.id, email: user.email }, { action: 'passkey.second_factor', entity: 'user', entityId: user.id, before: { passkeySecondoFattore: !attivo }, after: { passkeySecondoFattore: attivo } }, now);
      if (attivo) await endOtherSessionsOfUser(tx, user.id, keepSessionHash);
    }
    return listPasskeys(tx, user.id);
  });
}

/** Request options: with `userId`, that person's passkeys only (the second factor); without, any (discoverable). */
export async function authenticationOptions(
  deps: PasskeyDeps,
  userId: number | null,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; challenge: IssuedChallenge }> {
  const { rpID } = relyingParty(deps.config);
  let allowCredentials: { id: string; transports: string[] }[] | undefined;
  if (userId !== null) {
    const own = await deps.db.select({ id: passkeys.credentialId, trasporti: passkeys.trasporti }).from(passkeys).where(eq(passkeys.userId, userId));
    if (own.length === 0) throw conflict(testo('passkeys.noneYet'), 'PASSKEY_NONE_YET');
    allowCredentials = own.map((c) => ({ id: c.id, transports: c.trasporti }));
  }
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', ...(allowCredentials ? { allowCredentials } : {}) });
  const challenge = await storeChallenge(deps, userId === null ? 'accesso' : 'secondo_fattore', userId, options.challenge);
  return { options, challenge };
}

/** A verified assertion: the passkey's row, its new counter, and its person as a session sees them. */
interface Assertion {
  passkeyId: number;
  newCounter: number;
  user: SessionUser;
}

/**
 * Checks an assertion against a challenge taken from its cookie: the passkey is found by its
 * credential id (and must be `userId`'s when given), the user handle (when sent) must be its
 * person's, user verification is required, and the counter must move forward. Null: refused.
 */
async function verifyAssertion(
  deps: PasskeyDeps,
  response: AuthenticationResponseJSON,
  token: string | undefined,
  userId: number | null,
): Promise<Assertion | null> {
  const challenge = await takeChallenge(deps, token, userId === null ? 'accesso' : 'secondo_fattore', userId);
  if (!challenge) return null;
  const [found] = await deps.db
    .select({ passkey: passkeys, user: sessionUserColumns })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, response.id));
  if (!found || (userId !== null && found.passkey.userId !== userId)) return null;
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== handleText(found.passkey.userId)) return null;
  const { rpID, origin } = relyingParty(deps.config);
  const { passkey } = found;
  const { verifyAuthenticationResponse } = await simpleWebAuthn();
  const result = await verdict(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.chiavePubblica), counter: passkey.contatore, transports: passkey.trasporti },
      requireUserVerification: true,
    }),
  );
  if (!result?.verified || !result.authenticationInfo.userVerified) return null;
  return { passkeyId: passkey.id, newCounter: result.authenticationInfo.newCounter, user: found.user };
}

export type SignInOutcome = { kind: 'refused' } | { kind: 'disabled' } | { kind: 'ok'; user: SessionUser; session: { token: string; expiresAt: Date } };

/** Records the passkey's use (counter, last use) in the session's transaction. */
async function recordUse(tx: DbOrTx, assertion: Assertion, now: Date) {
  await tx.update(passkeys).set({ contatore: assertion.newCounter, ultimoUsoAt: now }).where(eq(passkeys.id, assertion.passkeyId));
}

/**
 * POST /api/auth/passkey: a sign-in with a discoverable passkey. Verified with user
 * verification, it is both factors: the session begins (metodo 'passkey'); an admin's or staff
 * member's sign-in is audited. A deactivated account is refused after the check, as the password's.
 */
export async function signInWithPasskey(deps: PasskeyDeps, response: AuthenticationResponseJSON, token: string | undefined): Promise<SignInOutcome> {
  const assertion = await verifyAssertion(deps, response, token, null);
  if (!assertion) return { kind: 'refused' };
  if (!assertion.user.attiva) return { kind: 'disabled' };
  const now = deps.clock.now();
  const session = await runTransaction(deps.db, async (tx) => {
    await recordUse(tx, assertion, now);
    const actor = auditedActor(assertion.user);
    if (actor) await writeAudit(tx, actor, { action: 'auth.login_passkey', entity: 'user', entityId: assertion.user.id }, now);
    return createSession(tx, assertion.user.id, 'session', now, 'passkey');
  });
  return { kind: 'ok', user: assertion.user, session };
}

/**
 * POST /api/login/passkey: the second step of a login with one of the person's passkeys. The
 * pending grant ends and the session begins, recording how the first step was made.
 */
export async function secondFactorWithPasskey(
  deps: PasskeyDeps,
  grant: { tokenHash: string; user: SessionUser; metodo: SignInMethod },
  response: AuthenticationResponseJSON,
  token: string | undefined,
): Promise<{ token: string; expiresAt: Date } | null> {
  const assertion = await verifyAssertion(deps, response, token, grant.user.id);
  if (!assertion) return null;
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    // The pending state serves once, even to two answers at the same moment.
    const [pending] = await tx
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(and(eq(sessions.tokenHash, grant.tokenHash), eq(sessions.kind, 'two_factor')))
      .for('update');
    if (!pending) return null;
    await deleteSessionByHash(tx, grant.tokenHash);
    await recordUse(tx, assertion, now);
    // The first step's method (a password, or the college's account) is the session's.
    return createSession(tx, grant.user.id, 'session', now, grant.metodo);
  });
}

