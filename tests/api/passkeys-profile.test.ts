import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { auditLog, passkeys, users, webauthnSfide } from '../../src/server/schema.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createLoggedInUser, createUser, loginAs } from '../helpers/factories.js';
import { CHROME_LINUX_UA, cookies, SoftAuthenticator, webauthnCookie } from '../helpers/webauthn.js';

/**
 * Passkeys in the profile (issue 49): registration named after the device, the list, removal
 * (someone else's is 404, the last way in is kept by the database), the admins' second-factor
 * switch, and a password reset that leaves them alone. ADMIN_2FA_REQUIRED is on in this file.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { ADMIN_2FA_REQUIRED: 'true' } });
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.db;

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object, userAgent = CHROME_LINUX_UA) {
  return ctx.app.inject({ method, url, headers: { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) }, ...(payload ? { payload } : {}) });
}

/** Registers a new passkey for the session, through the two routes; returns the authenticator and the answer. */
async function addPasskey(session: string, authenticator = new SoftAuthenticator(), userAgent = CHROME_LINUX_UA) {
  const started = await call('POST', '/api/passkeys/registrazione/opzioni', session, undefined, userAgent);
  expect(started.statusCode, started.body).toBe(200);
  const options = started.json() as PublicKeyCredentialCreationOptionsJSON;
  const res = await call('POST', '/api/passkeys/registrazione', cookies(session, webauthnCookie(started)), { risposta: authenticator.register(options) }, userAgent);
  return { authenticator, options, res };
}

const ownPasskeys = (userId: number) => db().select().from(passkeys).where(eq(passkeys.userId, userId));
const auditOf = (userId: number, action: string) =>
  db().select().from(auditLog).where(and(eq(auditLog.actorId, userId), eq(auditLog.action, action as typeof auditLog.$inferSelect.action)));

describe('registration and the list', () => {
  it('gives creation options for this site that require a discoverable, verified passkey and exclude the person’s own', async () => {
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    const res = await call('POST', '/api/passkeys/registrazione/opzioni', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const options = res.json() as PublicKeyCredentialCreationOptionsJSON;
    expect(options.rp).toEqual({ id: 'localhost', name: 'BiciElis' });
    expect(options.user.name).toBe(user.email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.excludeCredentials).toEqual([]);
    const challengeCookie = res.cookies.find((c) => c.name === 'bicielis_webauthn');
    expect(challengeCookie).toMatchObject({ httpOnly: true, path: '/api', maxAge: 300 });
    // The cookie's value is not what the database keeps.
    const [row] = await db().select().from(webauthnSfide).where(eq(webauthnSfide.userId, user.id));
    expect(row).toMatchObject({ scopo: 'registrazione', challenge: options.challenge });
    expect(row!.idHash).not.toBe(challengeCookie!.value);

    const { authenticator } = await addPasskey(cookie);
    const again = (await call('POST', '/api/passkeys/registrazione/opzioni', cookie)).json() as PublicKeyCredentialCreationOptionsJSON;
    expect(again.excludeCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal', 'hybrid'] }]);
  });

  it('stores the passkey named after the device, lists it, and uses its challenge once', async () => {
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    const { authenticator, options, res } = await addPasskey(cookie);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(Number), nome: 'Chrome su Linux', createdAt: expect.any(String), ultimoUsoAt: null, sincronizzata: false });
    const [row] = await ownPasskeys(user.id);
    expect(row).toMatchObject({ credentialId: authenticator.id, contatore: 0, trasporti: ['internal', 'hybrid'], nome: 'Chrome su Linux' });
    expect(await db().select().from(webauthnSfide).where(eq(webauthnSfide.userId, user.id))).toEqual([]);
    // A plain user's change is not in the Registro attività.
    expect(await auditOf(user.id, 'passkey.create')).toEqual([]);

    const list = await call('GET', '/api/passkeys', cookie);
    expect(list.json()).toEqual({ passkeys: [res.json()], secondoFattore: false });

    // The same answer again: its challenge is gone.
    const replay = await call('POST', '/api/passkeys/registrazione', cookie, { risposta: new SoftAuthenticator().register(options) });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'PASSKEY_REGISTRATION_FAILED', message: expect.stringContaining('passkey') });
    expect(await ownPasskeys(user.id)).toHaveLength(1);
  });

  it('names a synced passkey as such and a device it cannot tell as unknown; audits an admin’s', async () => {
    const admin = await createUser(db(), { ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, admin.email);
    const { res } = await addPasskey(cookie, new SoftAuthenticator(undefined, true), 'curl/8');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ nome: 'Dispositivo sconosciuto', sincronizzata: true });
    expect(await auditOf(admin.id, 'passkey.create')).toHaveLength(1);
  });

  it('refuses an answer without user verification, from another origin, or with another person’s challenge; nothing is stored', async () => {
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    const other = await createLoggedInUser(ctx.app, db());
    for (const misbehave of [{ noUserVerification: true }, { origin: 'https://evil.example' }]) {
      const started = await call('POST', '/api/passkeys/registrazione/opzioni', cookie);
      const options = started.json() as PublicKeyCredentialCreationOptionsJSON;
      const res = await call('POST', '/api/passkeys/registrazione', cookies(cookie, webauthnCookie(started)), { risposta: new SoftAuthenticator().register(options, misbehave) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PASSKEY_REGISTRATION_FAILED' });
    }
    const started = await call('POST', '/api/passkeys/registrazione/opzioni', cookie);
    const options = started.json() as PublicKeyCredentialCreationOptionsJSON;
    const stolen = await call('POST', '/api/passkeys/registrazione', cookies(other.cookie, webauthnCookie(started)), { risposta: new SoftAuthenticator().register(options) });
    expect(stolen.statusCode).toBe(400);
    expect(await ownPasskeys(user.id)).toEqual([]);
    expect(await ownPasskeys(other.user.id)).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await call('GET', '/api/passkeys')).statusCode).toBe(401);
    expect((await call('POST', '/api/passkeys/registrazione/opzioni')).statusCode).toBe(401);
  });
});

describe('removal', () => {
  it('removes the person’s own passkey; another person’s is 404 and stays', async () => {
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    const other = await createLoggedInUser(ctx.app, db());
    const mine = (await addPasskey(cookie)).res.json() as { id: number };
    const theirs = (await addPasskey(other.cookie)).res.json() as { id: number };

    const refused = await call('DELETE', `/api/passkeys/${theirs.id}`, cookie);
    expect(refused.statusCode).toBe(404);
    expect(await ownPasskeys(other.user.id)).toHaveLength(1);

    const res = await call('DELETE', `/api/passkeys/${mine.id}`, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Passkey rimossa' });
    expect(await ownPasskeys(user.id)).toEqual([]);
    expect((await call('DELETE', `/api/passkeys/${mine.id}`, cookie)).statusCode).toBe(404);
  });

  it('keeps the last way in: an account without a password cannot remove its last passkey (409 LAST_WAY_IN)', async () => {
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    const first = (await addPasskey(cookie)).res.json() as { id: number };
    const second = (await addPasskey(cookie)).res.json() as { id: number };
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, user.id));

    expect((await call('DELETE', `/api/passkeys/${first.id}`, cookie)).statusCode).toBe(200);
    const res = await call('DELETE', `/api/passkeys/${second.id}`, cookie);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'LAST_WAY_IN', message: expect.stringContaining('ultimo modo') });
    expect((await ownPasskeys(user.id)).map((p) => p.id)).toEqual([second.id]);
  });
});

describe('a passkey as an admin’s second factor', () => {
  it('is for admins only, and needs a passkey first', async () => {
    const { cookie } = await createLoggedInUser(ctx.app, db());
    expect((await call('PUT', '/api/passkeys/secondo-fattore', cookie, { attivo: true })).statusCode).toBe(403);
    expect((await call('PUT', '/api/passkeys/secondo-fattore', undefined, { attivo: true })).statusCode).toBe(401);

    const admin = await createUser(db(), { ruolo: 'admin' });
    const adminCookie = await loginAs(ctx.app, admin.email);
    const none = await call('PUT', '/api/passkeys/secondo-fattore', adminCookie, { attivo: true });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'PASSKEY_NONE_YET', message: 'Aggiungi prima una passkey' });
    const [row] = await db().select({ on: users.passkeySecondoFattore }).from(users).where(eq(users.id, admin.id));
    expect(row!.on).toBe(false);
  });

  it('turned on, counts as the second factor required of admins and ends the other sessions; audited', async () => {
    const admin = await createUser(db(), { ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, admin.email);
    const elsewhere = await loginAs(ctx.app, admin.email);
    // ADMIN_2FA_REQUIRED: no admin route yet.
    expect((await call('GET', '/api/admin/users', cookie)).json()).toMatchObject({ code: 'TWO_FACTOR_ENROLMENT_REQUIRED' });
    await addPasskey(cookie);
    const res = await call('PUT', '/api/passkeys/secondo-fattore', cookie, { attivo: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ secondoFattore: true, passkeys: [expect.objectContaining({ nome: 'Chrome su Linux' })] });
    expect((await call('GET', '/api/admin/users', cookie)).statusCode).toBe(200);
    expect((await call('GET', '/api/passkeys', elsewhere)).statusCode).toBe(401);
    const [entry] = await auditOf(admin.id, 'passkey.second_factor');
    expect(entry).toMatchObject({ before: { passkeySecondoFattore: false }, after: { passkeySecondoFattore: true } });

    // Its only second factor under ADMIN_2FA_REQUIRED: the last passkey stays.
    const [pk] = await ownPasskeys(admin.id);
    const refused = await call('DELETE', `/api/passkeys/${pk!.id}`, cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'PASSKEY_LAST_SECOND_FACTOR' });
    expect(await ownPasskeys(admin.id)).toHaveLength(1);
  });

  it('goes off with the last passkey, in the same removal, when the admin has another second factor', async () => {
    const admin = await createUser(db(), { ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, admin.email);
    const first = (await addPasskey(cookie)).res.json() as { id: number };
    const second = (await addPasskey(cookie)).res.json() as { id: number };
    expect((await call('PUT', '/api/passkeys/secondo-fattore', cookie, { attivo: true })).statusCode).toBe(200);
    // One of two goes: the switch stays on.
    expect((await call('DELETE', `/api/passkeys/${first.id}`, cookie)).statusCode).toBe(200);
    expect((await call('GET', '/api/passkeys', cookie)).json()).toMatchObject({ secondoFattore: true });
    // An authenticator app too: the last passkey may go, and takes the switch with it.
    await db().update(users).set({ totpSegreto: 'sigillato', totpAttivoAt: new Date() }).where(eq(users.id, admin.id));
    expect((await call('DELETE', `/api/passkeys/${second.id}`, cookie)).statusCode).toBe(200);
    const [row] = await db().select({ on: users.passkeySecondoFattore }).from(users).where(eq(users.id, admin.id));
    expect(row!.on).toBe(false);
    expect(await auditOf(admin.id, 'passkey.delete')).toHaveLength(2);
    expect((await auditOf(admin.id, 'passkey.second_factor')).map((e) => e.after)).toEqual([{ passkeySecondoFattore: true }, { passkeySecondoFattore: false }]);
  });

  it('can be turned off by the admin', async () => {
    const admin = await createUser(db(), { ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, admin.email);
    await addPasskey(cookie);
    expect((await call('PUT', '/api/passkeys/secondo-fattore', cookie, { attivo: true })).statusCode).toBe(200);
    const off = await call('PUT', '/api/passkeys/secondo-fattore', cookie, { attivo: false });
    expect(off.json()).toMatchObject({ secondoFattore: false });
    expect(await ownPasskeys(admin.id)).toHaveLength(1);
  });
});

describe('a password reset', () => {
  it('keeps the person’s passkeys', async () => {
    const { user, cookie } = await createLoggedInUser(ctx.app, db());
    await addPasskey(cookie);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/reset-password', payload: { email: user.email } });
    expect(res.statusCode).toBe(200);
    const [row] = await db().select({ temp: users.tempPasswordHash }).from(users).where(eq(users.id, user.id));
    expect(row!.temp).not.toBeNull();
    expect(await ownPasskeys(user.id)).toHaveLength(1);
  });
});
