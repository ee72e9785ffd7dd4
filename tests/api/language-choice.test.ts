import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/schema.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { cookieFrom, createUser, loginAs } from '../helpers/factories.js';

/** Issue 36: the account's language, the `lingua` cookie and where each comes from. */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ sessionCache: true });
});
afterAll(async () => {
  await ctx?.close();
});

const linguaOf = async (id: number) => (await ctx.database.db.select({ lingua: users.lingua }).from(users).where(eq(users.id, id)))[0]!.lingua;
const linguaCookie = (res: { cookies: { name: string; value: string; path?: string; maxAge?: number; httpOnly?: boolean; sameSite?: string }[] }) =>
  res.cookies.find((c) => c.name === 'lingua');

describe('the account language', () => {
  it('starts Italian, is changed by PATCH /api/profilo { lingua }, and is in the session user at once', async () => {
    const user = await createUser(ctx.database.db, { nome: 'Amy', cognome: 'Clarke' });
    const cookie = await loginAs(ctx.app, user.email, user.password);
    const before = await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie } });
    expect(before.json().lingua).toBe('it');

    const res = await ctx.app.inject({ method: 'PATCH', url: '/api/profilo', headers: { cookie }, payload: { lingua: 'en' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().lingua).toBe('en');
    // The browser's anonymous pages follow the account (a logout does not end the choice).
    expect(linguaCookie(res)).toMatchObject({ value: 'en', path: '/', sameSite: 'Lax' });
    expect(linguaCookie(res)?.maxAge).toBeGreaterThan(300 * 24 * 3600);
    expect(await linguaOf(user.id)).toBe('en');
    // The cached session went with the change: the next request sees the new language.
    const after = await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie } });
    expect(after.json().lingua).toBe('en');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/profilo', headers: { cookie } })).json().lingua).toBe('en');
  });

  it('refuses a language it does not have, in Italian by default, and changes nothing', async () => {
    const user = await createUser(ctx.database.db);
    const cookie = await loginAs(ctx.app, user.email, user.password);
    for (const lingua of ['de', 'EN', '', null, 1]) {
      const res = await ctx.app.inject({ method: 'PATCH', url: '/api/profilo', headers: { cookie }, payload: { lingua } });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.lingua).toBe('Lingua non valida: scegli it (italiano) o en (English)');
      expect(linguaCookie(res)).toBeUndefined();
    }
    expect(await linguaOf(user.id)).toBe('it');
  });

  it('at login, the account language wins: its cookie is written whatever the browser sent', async () => {
    const user = await createUser(ctx.database.db);
    await ctx.database.db.update(users).set({ lingua: 'en' }).where(eq(users.id, user.id));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'accept-language': 'it-IT', cookie: 'lingua=it' },
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().lingua).toBe('en');
    expect(linguaCookie(res)?.value).toBe('en');
    expect(cookieFrom(res)).toBeDefined();
  });

  it('a new account starts in the language its registration page was in: the cookie, else Accept-Language', async () => {
    const register = (email: string, headers: Record<string, string>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/register',
        headers,
        payload: { nome: 'Jo', cognome: 'Smith', email, password: 'Registra-2026' },
      });
    const english = await register('jo.smith@example.org', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(english.statusCode).toBe(201);
    expect(english.json().lingua).toBe('en');
    const byCookie = await register('jo.smith2@example.org', { 'accept-language': 'en-GB', cookie: 'lingua=it' });
    expect(byCookie.statusCode).toBe(201);
    expect(byCookie.json().lingua).toBe('it');
    const italian = await register('jo.smith3@example.org', {});
    expect(italian.json().lingua).toBe('it');
  });
});
