import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identitaEsterne, sessions } from '../../src/server/schema.js';
import { cookieFrom, createUser } from '../helpers/factories.js';
import { oidcTestApp, type OidcTestContext } from '../helpers/oidc-app.js';

/**
 * Signing in with the college's account (issue 49) against a local OpenID provider: linking by
 * email at the first login, later logins by `sub`, and the session a password login would give.
 */

let t: OidcTestContext;
beforeAll(async () => {
  t = await oidcTestApp();
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.ctx.database.db;

describe('first login of an email that has an account', () => {
  it('links the college account (sub stored) and signs the person in, session metodo oidc', async () => {
    const user = await createUser(db(), { email: 'ada.link@elis.org' });
    t.provider.setAccount('sub-ada', { email: 'ada.link@elis.org', email_verified: true, given_name: 'Ada', family_name: 'Link' });
    const res = await t.collegeLogin('sub-ada');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    const cookie = cookieFrom(res);
    expect(cookie).toBeDefined();
    const [identity] = await db().select().from(identitaEsterne).where(eq(identitaEsterne.userId, user.id));
    expect(identity).toMatchObject({ issuer: t.provider.issuer, sub: 'sub-ada', email: 'ada.link@elis.org' });
    const me = await t.ctx.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: cookie! } });
    expect(me.json()).toMatchObject({ id: user.id, email: 'ada.link@elis.org' });
    const rows = await db().select({ metodo: sessions.metodo }).from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toEqual([{ metodo: 'oidc' }]);
  });
});
