import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, identitaEsterne, oidcRichieste, users } from '../../src/server/schema.js';
import { cookieFrom, createUser } from '../helpers/factories.js';
import { oidcTestApp, type OidcTestContext } from '../helpers/oidc-app.js';

/**
 * The callback's checks (issue 49): a `state` that is not ours, a `nonce` the ID token does not
 * carry, a code played twice, the provider saying no: each refused, nothing written. And the
 * profile's college account: shown, unlinked only when the account has a password.
 */

let t: OidcTestContext;
beforeAll(async () => {
  t = await oidcTestApp();
  t.provider.setAccount('sub-rita', { email: 'rita@elis.org', email_verified: true, given_name: 'Rita', family_name: 'Neri' });
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.ctx.database.db;
const withParam = (url: string, name: string, value: string) => {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.href;
};

describe('the callback refuses and writes nothing', () => {
  it('a state that no sign-in began: scaduto', async () => {
    await createUser(db(), { email: 'rita@elis.org' });
    t.provider.loginAs('sub-rita');
    const back = await t.provider.authorize(await t.begin());
    const before = await t.counts();
    for (const url of [withParam(back, 'state', 'not-a-state-we-made'), back.replace(/([?&])state=[^&]*&?/, '$1')]) {
      const res = await t.callback(url);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/login?accesso=scaduto');
      expect(cookieFrom(res)).toBeUndefined();
    }
    expect(await t.counts()).toEqual(before);
  });

  it("another sign-in's state with this code: errore (the code is bound to its own PKCE verifier and nonce)", async () => {
    t.provider.loginAs('sub-rita');
    const first = await t.provider.authorize(await t.begin());
    const second = await t.provider.authorize(await t.begin());
    const before = await t.counts();
    const res = await t.callback(withParam(first, 'state', new URL(second).searchParams.get('state')!));
    expect(res.headers.location).toBe('/login?accesso=errore');
    expect(await t.counts()).toEqual(before);
  });

  it('a nonce the ID token does not carry: errore', async () => {
    t.provider.loginAs('sub-rita');
    const tampered = withParam(await t.begin(), 'nonce', 'a-nonce-the-app-never-made');
    const back = await t.provider.authorize(tampered);
    const before = await t.counts();
    const res = await t.callback(back);
    expect(res.headers.location).toBe('/login?accesso=errore');
    expect(cookieFrom(res)).toBeUndefined();
    expect(await t.counts()).toEqual(before);
  });

  it('a replayed callback (same code and state): the first signs in, the second is scaduto', async () => {
    t.provider.loginAs('sub-rita');
    const back = await t.provider.authorize(await t.begin());
    const first = await t.callback(back);
    expect(first.headers.location).toBe('/dashboard');
    expect(cookieFrom(first)).toBeDefined();
    const before = await t.counts();
    const again = await t.callback(back);
    expect(again.headers.location).toBe('/login?accesso=scaduto');
    expect(cookieFrom(again)).toBeUndefined();
    expect(await t.counts()).toEqual(before);
  });

  it('the person saying no at the provider: errore', async () => {
    t.provider.loginAs(null);
    const back = await t.provider.authorize(await t.begin());
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');
    const before = await t.counts();
    expect((await t.callback(back)).headers.location).toBe('/login?accesso=errore');
    expect(await t.counts()).toEqual(before);
  });

  it('a sign-in older than ten minutes: scaduto', async () => {
    t.provider.loginAs('sub-rita');
    const back = await t.provider.authorize(await t.begin());
    const start = t.ctx.clock.now();
    t.ctx.clock.set(new Date(start.getTime() + 11 * 60_000));
    try {
      const before = await t.counts();
      expect((await t.callback(back)).headers.location).toBe('/login?accesso=scaduto');
      expect(await t.counts()).toEqual(before);
    } finally {
      t.ctx.clock.set(start);
    }
  });

  it('keeps only the hash of state, and the row it reads is gone after the callback', async () => {
    t.provider.loginAs('sub-rita');
    const location = await t.begin({ headers: { cookie: 'lingua=en' } });
    const state = new URL(location).searchParams.get('state')!;
    const rows = await db().select().from(oidcRichieste);
    expect(rows.some((r) => r.stateHash === state)).toBe(false);
    expect(rows.some((r) => r.lingua === 'en')).toBe(true);
    expect(new URL(location).searchParams.get('code_challenge_method')).toBe('S256');
    expect(new URL(location).searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/oidc/callback');
    const count = rows.length;
    await t.callback(await t.provider.authorize(location));
    expect((await db().select().from(oidcRichieste)).length).toBe(count - 1);
  });
});

describe('the profile: the college account', () => {
  it('shows the linked account, and unlinks it when the account has a password (audited for an admin)', async () => {
    const admin = await createUser(db(), { email: 'sara.admin@elis.org', ruolo: 'admin' });
    t.provider.setAccount('sub-sara', { email: 'sara.admin@elis.org', email_verified: true });
    const login = await t.collegeLogin('sub-sara');
    const cookie = cookieFrom(login)!;
    const shown = await t.ctx.app.inject({ method: 'GET', url: '/api/profilo/account-collegio', headers: { cookie } });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      collegato: { email: 'sara.admin@elis.org', issuer: t.provider.issuer, collegatoIl: expect.any(String), ultimoAccesso: expect.any(String) },
      password: true,
      etichetta: null,
    });
    const unlinked = await t.ctx.app.inject({ method: 'DELETE', url: '/api/profilo/account-collegio', headers: { cookie } });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json()).toEqual({ message: expect.stringContaining('scollegato') });
    expect(await db().select().from(identitaEsterne).where(eq(identitaEsterne.userId, admin.id))).toEqual([]);
    const audit = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorId, admin.id));
    expect(audit.map((a) => a.action)).toContain('college_account.unlink');
    const none = await t.ctx.app.inject({ method: 'DELETE', url: '/api/profilo/account-collegio', headers: { cookie } });
    expect(none.statusCode).toBe(404);
    const after = await t.ctx.app.inject({ method: 'GET', url: '/api/profilo/account-collegio', headers: { cookie } });
    expect(after.json()).toMatchObject({ collegato: null, password: true });
  });

  it('refuses to unlink the college account of an account with no password', async () => {
    t.provider.setAccount('sub-teo', { email: 'teo@gmail.com', email_verified: true, given_name: 'Teo', family_name: 'Gialli' });
    const back = await t.collegeLogin('sub-teo');
    const completion = back.cookies.find((c) => c.name === 'bicielis_oidc_completa')!;
    const made = await t.ctx.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/completamento',
      headers: { cookie: `bicielis_oidc_completa=${completion.value}` },
      payload: { nome: 'Teo', cognome: 'Gialli', privacy: true },
    });
    expect(made.statusCode, made.body).toBe(201);
    const cookie = cookieFrom(made)!;
    const shown = await t.ctx.app.inject({ method: 'GET', url: '/api/profilo/account-collegio', headers: { cookie } });
    expect(shown.json()).toMatchObject({ collegato: { email: 'teo@gmail.com' }, password: false });
    const refused = await t.ctx.app.inject({ method: 'DELETE', url: '/api/profilo/account-collegio', headers: { cookie: `${cookie}; lingua=en` } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NEEDS_PASSWORD', message: expect.stringContaining('password') });
    const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, 'teo@gmail.com'));
    expect(await db().select().from(identitaEsterne).where(eq(identitaEsterne.userId, user!.id))).toHaveLength(1);
  });

  it('needs a login', async () => {
    expect((await t.ctx.app.inject({ method: 'GET', url: '/api/profilo/account-collegio' })).statusCode).toBe(401);
    expect((await t.ctx.app.inject({ method: 'DELETE', url: '/api/profilo/account-collegio' })).statusCode).toBe(401);
  });
});
