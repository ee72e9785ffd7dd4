import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { auditLog, incarichi, passkeys, sessions, users } from '../../src/server/schema.js';
import { AUTH_RATE_LIMITS } from '../../src/server/modules/auth/limits.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { cookieFrom, createUser, DEFAULT_PASSWORD, loginAs } from '../helpers/factories.js';
import { CHROME_LINUX_UA, cookies, type Misbehaviour, SoftAuthenticator, webauthnCookie } from '../helpers/webauthn.js';

/**
 * Signing in with a passkey (issue 49): a discoverable passkey alone (both factors), every
 * refusal writing nothing, a deactivated account, an admin's passkey at the login's second
 * step, and the per-client limit shared with the password's.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.db;
let ipCounter = 0;
const freshIp = () => `10.49.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

function call(method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object, ip = freshIp()) {
  return ctx.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: { 'user-agent': CHROME_LINUX_UA, ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload } : {}),
  });
}

/** A person with a registered passkey (through the API), logged out again. */
async function personWithPasskey(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db(), overrides);
  const session = await loginAs(ctx.app, user.email);
  const started = await call('POST', '/api/passkeys/registrazione/opzioni', session);
  const authenticator = new SoftAuthenticator();
  const created = await call('POST', '/api/passkeys/registrazione', cookies(session, webauthnCookie(started)), {
    risposta: authenticator.register(started.json() as PublicKeyCredentialCreationOptionsJSON),
  });
  expect(created.statusCode, created.body).toBe(201);
  await call('POST', '/api/logout', session);
  return { user, authenticator, passkeyId: (created.json() as { id: number }).id };
}

/** The anonymous sign-in: options, then the authenticator's answer. */
async function signIn(authenticator: SoftAuthenticator, misbehave: Misbehaviour = {}, ip = freshIp()) {
  const started = await call('POST', '/api/auth/passkey/opzioni', undefined, undefined, ip);
  expect(started.statusCode).toBe(200);
  const options = started.json() as PublicKeyCredentialRequestOptionsJSON;
  const challenge = webauthnCookie(started);
  const risposta = authenticator.authenticate(options, misbehave);
  const res = await call('POST', '/api/auth/passkey', challenge, { risposta }, ip);
  return { res, options, challenge, risposta };
}

const sessionsOf = (userId: number) => db().select().from(sessions).where(and(eq(sessions.userId, userId), eq(sessions.kind, 'session')));
const passkeyRow = async (id: number) => (await db().select().from(passkeys).where(eq(passkeys.id, id)))[0]!;
const auditOf = (userId: number) => db().select().from(auditLog).where(and(eq(auditLog.actorId, userId), eq(auditLog.action, 'auth.login_passkey')));

describe('signing in with a passkey', () => {
  it('gives options for any passkey of this site, with user verification required', async () => {
    const res = await call('POST', '/api/auth/passkey/opzioni');
    expect(res.statusCode).toBe(200);
    const options = res.json() as PublicKeyCredentialRequestOptionsJSON;
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(res.cookies.find((c) => c.name === 'bicielis_webauthn')).toMatchObject({ httpOnly: true, path: '/api' });
  });

  it('logs the person in: the session works, records the method, the counter and the last use', async () => {
    const { user, authenticator, passkeyId } = await personWithPasskey();
    ctx.clock.set(new Date(TEST_NOW.getTime() + 60_000));
    const { res } = await signIn(authenticator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email, lingua: 'it' });
    const session = cookieFrom(res);
    expect(session).toBeDefined();
    expect((await call('GET', '/api/current-user', session)).json()).toMatchObject({ id: user.id });
    expect((await sessionsOf(user.id)).map((s) => s.metodo)).toEqual(['passkey']);
    expect(await passkeyRow(passkeyId)).toMatchObject({ contatore: 1, ultimoUsoAt: new Date(TEST_NOW.getTime() + 60_000) });
    // A plain user's sign-in is not in the Registro attività.
    expect(await auditOf(user.id)).toEqual([]);
    ctx.clock.set(TEST_NOW);
  });

  it('audits an admin’s and a staff member’s sign-in, and completes an admin’s login with the passkey alone', async () => {
    const admin = await personWithPasskey({ ruolo: 'admin' });
    const { res } = await signIn(admin.authenticator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('dueFattoriDaAttivare');
    expect(await auditOf(admin.user.id)).toHaveLength(1);

    const staff = await personWithPasskey();
    await db().insert(incarichi).values({ userId: staff.user.id, sedeId: staff.user.sedeId, ruolo: 'officina' });
    expect((await signIn(staff.authenticator)).res.statusCode).toBe(200);
    const [entry] = await auditOf(staff.user.id);
    expect(entry).toMatchObject({ actorRuolo: 'officina', entity: 'user', entityId: String(staff.user.id) });
  });

  it('refuses a wrong signature, an unknown passkey, a replayed challenge, a missing user verification: 401 and nothing written', async () => {
    const { user, authenticator, passkeyId } = await personWithPasskey();
    const cases: (() => Promise<{ statusCode: number; json(): unknown }>)[] = [
      async () => (await signIn(authenticator, { badSignature: true })).res,
      async () => (await signIn(new SoftAuthenticator())).res,
      async () => (await signIn(authenticator, { noUserVerification: true })).res,
      async () => (await signIn(authenticator, { origin: 'https://evil.example' })).res,
      // An answer for another challenge than its cookie's.
      async () => {
        const first = await call('POST', '/api/auth/passkey/opzioni');
        const second = await call('POST', '/api/auth/passkey/opzioni');
        return call('POST', '/api/auth/passkey', webauthnCookie(first), { risposta: authenticator.authenticate(second.json() as PublicKeyCredentialRequestOptionsJSON) });
      },
      // No cookie at all.
      async () => {
        const started = await call('POST', '/api/auth/passkey/opzioni');
        return call('POST', '/api/auth/passkey', undefined, { risposta: authenticator.authenticate(started.json() as PublicKeyCredentialRequestOptionsJSON) });
      },
    ];
    for (const attempt of cases) {
      const res = await attempt();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'PASSKEY_NOT_RECOGNISED', message: expect.stringContaining('Passkey non riconosciuta') });
    }
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await passkeyRow(passkeyId)).toMatchObject({ contatore: 0, ultimoUsoAt: null });

    // A right answer, sent twice: its challenge serves once.
    const { res, challenge, risposta } = await signIn(authenticator);
    expect(res.statusCode).toBe(200);
    const replay = await call('POST', '/api/auth/passkey', challenge, { risposta });
    expect(replay.statusCode).toBe(401);
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('refuses a counter that went backwards (a cloned authenticator)', async () => {
    const { user, authenticator } = await personWithPasskey();
    expect((await signIn(authenticator, { counter: 5 })).res.statusCode).toBe(200);
    expect((await signIn(authenticator, { counter: 3 })).res.statusCode).toBe(401);
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('refuses a user handle of someone else', async () => {
    const { authenticator } = await personWithPasskey();
    const other = await personWithPasskey();
    authenticator.userHandle = other.authenticator.userHandle;
    expect((await signIn(authenticator)).res.statusCode).toBe(401);
  });

  it('refuses a deactivated account (403 ACCOUNT_DISABLED), in the person’s language', async () => {
    const { user, authenticator } = await personWithPasskey({ lingua: 'en' });
    await db().update(users).set({ attiva: false }).where(eq(users.id, user.id));
    const { res } = await signIn(authenticator);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'ACCOUNT_DISABLED' });
    expect(await sessionsOf(user.id)).toEqual([]);
  });

  it('still works after a password reset', async () => {
    const { user, authenticator } = await personWithPasskey();
    expect((await call('POST', '/api/reset-password', undefined, { email: user.email })).statusCode).toBe(200);
    expect((await signIn(authenticator)).res.statusCode).toBe(200);
  });

  it('counts failures on the login’s per-client limit, shared with the password', async () => {
    const ip = '10.49.250.1';
    const { authenticator } = await personWithPasskey();
    for (let i = 0; i < AUTH_RATE_LIMITS.loginFailuresPerIp.max; i++) {
      const res = await call('POST', '/api/auth/passkey', undefined, { risposta: authenticator.authenticate({ challenge: 'AAAA', rpId: 'localhost' }) }, ip);
      expect(res.statusCode).toBe(401);
    }
    const { res } = await signIn(authenticator, {}, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    const password = await call('POST', '/api/login', undefined, { email: 'nessuno@example.it', password: DEFAULT_PASSWORD }, ip);
    expect(password.statusCode).toBe(429);
    // Another client is not affected.
    expect((await signIn(authenticator)).res.statusCode).toBe(200);
  });
});

describe('a passkey at the login’s second step', () => {
  /** An admin with a passkey chosen as second factor. */
  async function adminWithPasskeyFactor() {
    const admin = await personWithPasskey({ ruolo: 'admin' });
    const session = await loginAs(ctx.app, admin.user.email);
    expect((await call('PUT', '/api/passkeys/secondo-fattore', session, { attivo: true })).statusCode).toBe(200);
    await call('POST', '/api/logout', session);
    return admin;
  }

  async function passwordStep(email: string) {
    const res = await call('POST', '/api/login', undefined, { email, password: DEFAULT_PASSWORD });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
    expect(cookieFrom(res)).toBeUndefined();
    expect(res.cookies.find((c) => c.name === 'bicielis_2fa')).toMatchObject({ path: '/api/login', httpOnly: true });
    return cookieFrom(res, 'bicielis_2fa')!;
  }

  it('password, then the passkey: the session begins and the pending state ends', async () => {
    const { user, authenticator, passkeyId } = await adminWithPasskeyFactor();
    const pending = await passwordStep(user.email);
    const started = await call('POST', '/api/login/passkey/opzioni', pending);
    expect(started.statusCode, started.body).toBe(200);
    const options = started.json() as PublicKeyCredentialRequestOptionsJSON;
    expect(options.allowCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal', 'hybrid'] }]);
    const res = await call('POST', '/api/login/passkey', cookies(pending, webauthnCookie(started)), { risposta: authenticator.authenticate(options) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, ruolo: 'admin' });
    expect(res.json()).not.toHaveProperty('dueFattoriDaAttivare');
    const session = cookieFrom(res);
    expect((await call('GET', '/api/admin/users', session)).statusCode).toBe(200);
    expect(await db().select().from(sessions).where(and(eq(sessions.userId, user.id), eq(sessions.kind, 'two_factor')))).toEqual([]);
    expect((await sessionsOf(user.id)).map((s) => s.metodo)).toEqual(['password']);
    expect(await passkeyRow(passkeyId)).toMatchObject({ contatore: 1 });
    // The pending state served once.
    expect((await call('POST', '/api/login/passkey/opzioni', pending)).statusCode).toBe(403);
  });

  it('refuses a wrong passkey (400), another person’s passkey, and works without the cookie only as 403', async () => {
    const { user, authenticator } = await adminWithPasskeyFactor();
    const stranger = await personWithPasskey();
    const pending = await passwordStep(user.email);
    for (const [who, misbehave] of [
      [authenticator, { badSignature: true }],
      [stranger.authenticator, {}],
      [authenticator, { noUserVerification: true }],
    ] as const) {
      const started = await call('POST', '/api/login/passkey/opzioni', pending);
      const res = await call('POST', '/api/login/passkey', cookies(pending, webauthnCookie(started)), {
        risposta: who.authenticate(started.json() as PublicKeyCredentialRequestOptionsJSON, misbehave),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PASSKEY_NOT_RECOGNISED' });
    }
    expect(await sessionsOf(user.id)).toEqual([]);

    const expired = await call('POST', '/api/login/passkey', undefined, { risposta: authenticator.authenticate({ challenge: 'AAAA' }) });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ code: 'TWO_FACTOR_EXPIRED' });
    expect((await call('POST', '/api/login/passkey/opzioni')).statusCode).toBe(403);
  });

  it('the session records the first step’s method (a college account’s pending state gives oidc)', async () => {
    const { user, authenticator } = await adminWithPasskeyFactor();
    const pending = await passwordStep(user.email);
    await db().update(sessions).set({ metodo: 'oidc' }).where(and(eq(sessions.userId, user.id), eq(sessions.kind, 'two_factor')));
    const started = await call('POST', '/api/login/passkey/opzioni', pending);
    const res = await call('POST', '/api/login/passkey', cookies(pending, webauthnCookie(started)), {
      risposta: authenticator.authenticate(started.json() as PublicKeyCredentialRequestOptionsJSON),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await sessionsOf(user.id)).map((s) => s.metodo)).toEqual(['oidc']);
  });

  it('a challenge of the anonymous sign-in does not serve the second step', async () => {
    const { user, authenticator } = await adminWithPasskeyFactor();
    const pending = await passwordStep(user.email);
    const anonymous = await call('POST', '/api/auth/passkey/opzioni');
    const res = await call('POST', '/api/login/passkey', cookies(pending, webauthnCookie(anonymous)), {
      risposta: authenticator.authenticate(anonymous.json() as PublicKeyCredentialRequestOptionsJSON),
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 409 when the person has no passkey', async () => {
    const admin = await createUser(db(), { ruolo: 'admin', totpSegreto: 'sigillato', totpAttivoAt: TEST_NOW });
    const pending = await passwordStep(admin.email);
    const res = await call('POST', '/api/login/passkey/opzioni', pending);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PASSKEY_NONE_YET' });
  });
});
