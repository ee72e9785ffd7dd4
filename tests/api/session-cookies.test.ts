import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/server/schema.js';
import { PASSWORD_CHANGE_COOKIE, SESSION_COOKIE } from '../../src/server/http/auth.js';
import { person } from '../helpers/admin-fixtures.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createUser, loginAs } from '../helpers/factories.js';

/**
 * What tests/api/accounts*.test.ts and admin.test.ts did not cover yet (issue 12): the
 * cookie a registration sets (login's is checked there), the grant cookie's path, and a
 * deleted user's sessions in every browser.
 */

const setCookies = (res: { headers: Record<string, unknown> }) => {
  const h = res.headers['set-cookie'];
  return Array.isArray(h) ? (h as string[]) : typeof h === 'string' ? [h] : [];
};

describe.each([
  ['http', 'http://localhost:3000', false],
  ['https', 'https://bici.example.it', true],
] as const)('cookies when PUBLIC_URL is %s', (_name, publicUrl, secure) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { PUBLIC_URL: publicUrl } });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it(`registration's session cookie: HttpOnly, SameSite=Lax, Path=/${secure ? ', Secure' : ', not Secure'}`, async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { nome: 'Anna', cognome: 'Rossi', email: `cookie.${secure}@example.it`, password: 'Password-Lunga-1' },
    });
    expect(res.statusCode).toBe(201);
    const header = setCookies(res).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\/(;|$)/);
    if (secure) expect(header).toMatch(/; Secure/i);
    else expect(header).not.toMatch(/; Secure/i);
  });

  it(`the password-change grant: HttpOnly, SameSite=Lax, sent only to /api/change-password${secure ? ', Secure' : ''}`, async () => {
    const user = await createUser(ctx.database.db, { mustChangePassword: true });
    const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(403);
    const header = setCookies(res).find((c) => c.startsWith(`${PASSWORD_CHANGE_COOKIE}=`))!;
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\/api\/change-password(;|$)/);
    expect(/; Secure/i.test(header)).toBe(secure);
  });
});

describe('a deleted user', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('is logged out in every browser at once, and no session row of theirs is left', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    const user = await createUser(ctx.database.db);
    const browsers = [await loginAs(ctx.app, user.email), await loginAs(ctx.app, user.email)];
    for (const cookie of browsers) {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie } })).statusCode).toBe(200);
    }
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/users/${user.id}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    for (const cookie of browsers) {
      const after = await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie } });
      expect(after.statusCode).toBe(401);
      expect(after.json().message).toBe('Non autenticato');
    }
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });
});
