import { hash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lt } from 'drizzle-orm';
import { testo, type Lingua } from '../../../shared/i18n/index.js';
import type { CollegeAccountDto, OidcCompletionDto, OidcCompletionRequest, OidcRefusal } from '../../../shared/schemas/oidc.js';
import { normaliseSigla } from '../../../shared/sigla.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import type { SessionUser } from '../../http/auth.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { writeAudit, type Actor, type AuditAction } from '../audit/index.js';
import { createSession, endAllSessionsOfUser, purgeExpiredSessions } from '../auth/index.js';
import { residenti } from '../residents/tables.js';
import { openSede } from '../sedi/index.js';
import { insertUser, sessionUserColumns } from '../users/index.js';
import { users } from '../users/tables.js';
import { exchangeCode, OIDC_SCOPES, openidClient, type OidcClient, type ProviderClaims } from './client.js';
import { identitaEsterne, oidcCompletamenti, oidcRichieste } from './tables.js';

export interface OidcDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'residentEmailDomain' | 'oidc'>;
}

/** A sign-in begun at the provider may come back within ten minutes. */
export const OIDC_REQUEST_TTL_MS = 10 * 60_000;
/** A new email has thirty minutes to fill in the completion form. */
export const OIDC_COMPLETION_TTL_MS = 30 * 60_000;

const sha256 = (value: string) => hash('sha256', value, 'hex');

/** The one redirect URI registered at the provider. */
export const callbackUrl = (publicUrl: string) => `${publicUrl}/api/auth/oidc/callback`;

/** Admins and staff (any role at a sede): their sign-ins and college-account changes are audited (issue 49). */
function auditedActor(user: SessionUser): Actor | null {
  if (user.ruolo === 'admin') return { id: user.id, email: user.email, ruolo: 'admin' };
  const role = user.incarichi[0]?.ruolo;
  return role ? { id: user.id, email: user.email, ruolo: role } : null;
}

async function auditCollegeAccount(tx: Tx, user: SessionUser, action: AuditAction, after: unknown, now: Date): Promise<void> {
  const actor = auditedActor(user);
  if (actor) await writeAudit(tx, actor, { action, entity: 'user', entityId: user.id, after }, now);
}

/**
 * GET /api/auth/oidc/login: a new sign-in at the provider (PKCE S256, `state`, `nonce`), kept
 * ten minutes in `oidc_richieste` with where to go back and the page's language. Returns the
 * provider's URL. Expired sign-ins are cleared on the way.
 */
export async function startLogin(deps: OidcDeps, client: OidcClient, input: { ritorno: string | null; lingua: Lingua }): Promise<URL> {
  const configuration = await client.configuration();
  const oidc = await openidClient();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
  const now = deps.clock.now();
  await deps.db.delete(oidcRichieste).where(lt(oidcRichieste.expiresAt, now));
  await deps.db.insert(oidcRichieste).values({
    stateHash: sha256(state),
    nonce,
    codeVerifier,
    ritorno: input.ritorno,
    lingua: input.lingua,
    createdAt: now,
    expiresAt: new Date(now.getTime() + OIDC_REQUEST_TTL_MS),
  });
  return oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(deps.config.publicUrl),
    scope: OIDC_SCOPES,
    response_type: 'code',
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
    state,
    nonce,
    ui_locales: input.lingua,
  });
}

export type CallbackOutcome =
  | { kind: 'refused'; codice: OidcRefusal; lingua: Lingua | null; cause?: unknown }
  | { kind: 'session'; user: SessionUser; session: { token: string; expiresAt: Date }; ritorno: string | null }
  | { kind: 'two_factor'; grant: { token: string; expiresAt: Date }; lingua: Lingua }
  | { kind: 'completion'; token: string; expiresAt: Date; lingua: Lingua };

const refused = (codice: OidcRefusal, lingua: Lingua | null = null, cause?: unknown): CallbackOutcome => ({ kind: 'refused', codice, lingua, cause });

/**
 * GET /api/auth/oidc/callback. The sign-in's row is deleted in the statement that reads it, so
 * a replayed callback finds none (`scaduto`). Then the code is exchanged (`state`, `nonce`,
 * PKCE checked), and only a verified email is trusted. The account is the one linked to
 * `(issuer, sub)`, else the one with that email (linked now), else a completion waits. Nothing
 * but the sign-in's own row is written on a refusal.
 */
export async function finishLogin(
  deps: OidcDeps,
  client: OidcClient,
  input: { state: string | undefined; search: string },
): Promise<CallbackOutcome> {
  const now = deps.clock.now();
  if (!input.state || input.state.length > 512) return refused('scaduto');
  const [request] = await deps.db.delete(oidcRichieste).where(eq(oidcRichieste.stateHash, sha256(input.state))).returning();
  if (!request || request.expiresAt <= now) return refused('scaduto', request?.lingua ?? null);
  const lingua = request.lingua;
  let claims: ProviderClaims;
  try {
    const url = new URL(callbackUrl(deps.config.publicUrl));
    url.search = input.search;
    claims = await exchangeCode(await client.configuration(), url, { state: input.state, nonce: request.nonce, codeVerifier: request.codeVerifier });
  } catch (err) {
    return refused('errore', lingua, err);
  }
  if (!claims.emailVerified || !claims.email) return refused('non-verificata', lingua);

  const [linked] = await deps.db
    .select({ identityId: identitaEsterne.id, user: sessionUserColumns })
    .from(identitaEsterne)
    .innerJoin(users, eq(users.id, identitaEsterne.userId))
    .where(and(eq(identitaEsterne.issuer, claims.issuer), eq(identitaEsterne.sub, claims.sub)));
  let user = linked?.user;
  if (!user) {
    [user] = await deps.db.select(sessionUserColumns).from(users).where(eq(users.email, claims.email));
    if (!user) return { kind: 'completion', lingua, ...(await awaitCompletion(deps, claims, lingua, now)) };
    // The account may already have another college account of this provider: not this one.
    const [other] = await deps.db
      .select({ id: identitaEsterne.id })
      .from(identitaEsterne)
      .where(and(eq(identitaEsterne.userId, user.id), eq(identitaEsterne.issuer, claims.issuer)));
    if (other) return refused('errore', lingua, new Error('the account has another college account of this provider'));
  }
  if (!user.attiva) return refused('disattivato', lingua);
  return signIn(deps, user, claims, linked?.identityId ?? null, request.ritorno, now);
}

/** A known, active person: the college account linked or brought up to date, then a session or the second factor's step. */
async function signIn(
  deps: OidcDeps,
  user: SessionUser,
  claims: ProviderClaims,
  identityId: number | null,
  ritorno: string | null,
  now: Date,
): Promise<CallbackOutcome> {
  const outcome = await runTransaction(deps.db, async (tx): Promise<CallbackOutcome> => {
    if (identityId !== null) {
      await tx.update(identitaEsterne).set({ email: claims.email!, ultimoAccessoAt: now }).where(eq(identitaEsterne.id, identityId));
    } else {
      await tx.insert(identitaEsterne).values({ userId: user.id, issuer: claims.issuer, sub: claims.sub, email: claims.email!, createdAt: now, ultimoAccessoAt: now });
      await auditCollegeAccount(tx, user, 'college_account.link', { email: claims.email, issuer: claims.issuer }, now);
    }
    await auditCollegeAccount(tx, user, 'auth.login_oidc', { email: claims.email, secondoFattore: user.dueFattori }, now);
    if (user.dueFattori) {
      // As a password login (decision 030): no session yet, one pending state at a time.
      await endAllSessionsOfUser(tx, user.id, 'two_factor');
      return { kind: 'two_factor', grant: await createSession(tx, user.id, 'two_factor', now, 'oidc'), lingua: user.lingua };
    }
    return { kind: 'session', user, session: await createSession(tx, user.id, 'session', now, 'oidc'), ritorno };
  });
  if (outcome.kind === 'session') await purgeExpiredSessions(deps.db, now, user.id);
  return outcome;
}

/** A new email: what the provider said waits thirty minutes for the completion form; its token goes in a cookie. */
async function awaitCompletion(deps: OidcDeps, claims: ProviderClaims, lingua: Lingua, now: Date) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + OIDC_COMPLETION_TTL_MS);
  await deps.db.delete(oidcCompletamenti).where(lt(oidcCompletamenti.expiresAt, now));
  await deps.db.insert(oidcCompletamenti).values({
    tokenHash: sha256(token),
    issuer: claims.issuer,
    sub: claims.sub,
    email: claims.email!,
    nome: claims.nome,
    cognome: claims.cognome,
    lingua,
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

const completionExpired = () => notFound(testo('oidc.completionExpired'), 'COMPLETION_EXPIRED');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** GET /api/auth/oidc/completamento: the waiting completion of this cookie, or 404. */
export async function completionDetails(deps: OidcDeps, token: string | undefined): Promise<OidcCompletionDto & { lingua: Lingua }> {
  if (!token || !TOKEN_SHAPE.test(token)) throw completionExpired();
  const [row] = await deps.db
    .select()
    .from(oidcCompletamenti)
    .where(and(eq(oidcCompletamenti.tokenHash, sha256(token)), gt(oidcCompletamenti.expiresAt, deps.clock.now())));
  if (!row) throw completionExpired();
  const domain = row.email.slice(row.email.lastIndexOf('@') + 1);
  return { email: row.email, nome: row.nome, cognome: row.cognome, residente: domain === deps.config.residentEmailDomain, lingua: row.lingua };
}

/** The resident code of a new account, checked as the registration does: active, and nobody else's. */
async function residentCode(tx: Tx, sigla: string): Promise<{ sedeId: number | null }> {
  // `for share`: the code cannot be deactivated or renamed until this account exists.
  const [resident] = await tx.select({ attivo: residenti.attivo, sedeId: residenti.sedeId }).from(residenti).where(eq(residenti.sigla, sigla)).for('share');
  if (!resident?.attivo) {
    throw badRequest(testo('auth.invalidResidentCode'), 'INVALID_SIGLA', { fields: { siglaResidente: testo('auth.invalidResidentCode') } });
  }
  const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.siglaResidente, sigla));
  if (holder) throw conflict(testo('http.residentCodeTaken'), 'SIGLA_TAKEN');
  return { sedeId: resident.sedeId };
}

/**
 * POST /api/auth/oidc/completamento: the account of a new email, with no password (it signs in
 * with the college account), linked, and its first session (`oidc`). The waiting row is used
 * once: deleted in the transaction that makes the account (a refusal rolls it back, so the
 * form can be sent again).
 */
export async function completeAccount(
  deps: OidcDeps,
  token: string | undefined,
  input: OidcCompletionRequest,
): Promise<{ user: SessionUser; session: { token: string; expiresAt: Date } }> {
  if (!token || !TOKEN_SHAPE.test(token)) throw completionExpired();
  const now = deps.clock.now();
  const sigla = input.siglaResidente ? normaliseSigla(input.siglaResidente) : null;
  return runTransaction(deps.db, async (tx) => {
    const [row] = await tx
      .delete(oidcCompletamenti)
      .where(and(eq(oidcCompletamenti.tokenHash, sha256(token)), gt(oidcCompletamenti.expiresAt, now)))
      .returning();
    if (!row) throw completionExpired();
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, row.email));
    const [linked] = await tx
      .select({ id: identitaEsterne.id })
      .from(identitaEsterne)
      .where(and(eq(identitaEsterne.issuer, row.issuer), eq(identitaEsterne.sub, row.sub)));
    if (taken || linked) throw conflict(testo('http.emailTaken'), 'EMAIL_TAKEN');
    let sedeId: number | null = null;
    if (sigla) {
      const resident = await residentCode(tx, sigla);
      if (resident.sedeId !== null) sedeId = (await openSede(tx, resident.sedeId))?.id ?? null;
    }
    const user = await insertUser(
      tx,
      { nome: input.nome, cognome: input.cognome, email: row.email, passwordHash: null, isResidente: sigla !== null, siglaResidente: sigla, lingua: row.lingua, ...(sedeId !== null ? { sedeId } : {}) },
      now,
    );
    await tx.insert(identitaEsterne).values({ userId: user.id, issuer: row.issuer, sub: row.sub, email: row.email, createdAt: now, ultimoAccessoAt: now });
    const session = await createSession(tx, user.id, 'session', now, 'oidc');
    return { user, session };
  });
}

/** The person's college account: the latest linked, if any. */
async function linkedAccount(db: Pick<Db, 'select'>, userId: number) {
  const [row] = await db.select().from(identitaEsterne).where(eq(identitaEsterne.userId, userId)).orderBy(desc(identitaEsterne.createdAt), desc(identitaEsterne.id)).limit(1);
  return row;
}

/** GET /api/profilo/account-collegio. */
export async function collegeAccount(deps: OidcDeps, userId: number): Promise<CollegeAccountDto> {
  const identity = await linkedAccount(deps.db, userId);
  const [account] = await deps.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return {
    collegato: identity
      ? { email: identity.email, issuer: identity.issuer, collegatoIl: identity.createdAt.toISOString(), ultimoAccesso: identity.ultimoAccessoAt?.toISOString() ?? null }
      : null,
    password: account?.passwordHash != null,
    etichetta: deps.config.oidc?.label ?? null,
  };
}

/**
 * DELETE /api/profilo/account-collegio: only when the account has a password (the issue);
 * the database keeps the last way in regardless (users_una_via_di_accesso).
 */
export async function unlinkCollegeAccount(deps: OidcDeps, user: SessionUser): Promise<void> {
  const now = deps.clock.now();
  await runTransaction(deps.db, async (tx) => {
    // The row locked: a password cannot go away while its college account is being unlinked.
    const [account] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).for('update');
    if (!(await linkedAccount(tx, user.id))) throw notFound(testo('oidc.notLinked'), 'NOT_LINKED');
    if (account?.passwordHash == null) throw conflict(testo('oidc.needsPassword'), 'NEEDS_PASSWORD');
    const removed = await tx
      .delete(identitaEsterne) // triggers: the last way in kept (users_una_via_di_accesso)
      .where(eq(identitaEsterne.userId, user.id))
      .returning({ email: identitaEsterne.email, issuer: identitaEsterne.issuer });
    for (const identity of removed) await auditCollegeAccount(tx, user, 'college_account.unlink', { email: identity.email, issuer: identity.issuer }, now);
  });
}
