import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferenzeUtente, sessions, users } from '../../src/server/schema.js';
import type { SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { hashSessionToken } from '../../src/server/modules/auth/sessions.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createUser, loginAs } from '../helpers/factories.js';

/** The profile page's API (decision 022): name, reminders, password. */

let ctx: TestContext;
let cache: SessionCache;

beforeAll(async () => {
  ctx = await createTestApp({ sessionCache: true });
  cache = ctx.sessionCache!;
});
afterAll(async () => {
  await ctx?.close();
});

const get = (cookie: string | null, url = '/api/profilo') =>
  ctx.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const send = (method: 'PATCH' | 'POST', url: string, cookie: string | null, payload: object) =>
  ctx.app.inject({ method, url, payload, ...(cookie ? { headers: { cookie } } : {}) });

async function account(password = 'Profilo-Prova-2026') {
  const user = await createUser(ctx.database.db, { nome: 'Giulia', cognome: 'Bianchi', password });
  const cookie = await loginAs(ctx.app, user.email, password);
  return { user, cookie, password };
}

describe('GET /api/profilo', () => {
  it('shows name, email, the defaults (reminders on, no feed) and the VAPID public key; writes no preferences row', async () => {
    const { user, cookie } = await account();
    const res = await get(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      nome: 'Giulia',
      cognome: 'Bianchi',
      email: user.email,
      promemoria: true,
      lingua: 'it',
      sedeId: expect.any(Number),
      calendarioAttivo: false,
      password: true,
      push: { publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/) },
    });
    // The key is a P-256 point (65 bytes, uncompressed: 0x04 first) and stays the same.
    expect(Buffer.from(body.push.publicKey, 'base64url')[0]).toBe(4);
    expect((await get(cookie)).json().push.publicKey).toBe(body.push.publicKey);
    expect(await ctx.database.db.select().from(preferenzeUtente).where(eq(preferenzeUtente.userId, user.id))).toEqual([]);
  });

  it('401 without a session', async () => {
    const res = await get(null);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Non autenticato');
  });
});

describe('PATCH /api/profilo', () => {
  it('changes the name (trimmed) and the session sees it; the email cannot be changed here', async () => {
    const { user, cookie } = await account();
    // The session is cached (with the old name) by a first read.
    expect((await get(cookie, '/api/current-user')).statusCode).toBe(200);
    const tokenHash = hashSessionToken(cookie.split('=')[1]!);
    expect(cache.get(tokenHash)).toBeDefined();
    const res = await send('PATCH', '/api/profilo', cookie, { nome: '  Anna Maria ', cognome: "D'Angelo ", email: 'altro@example.it' });
    expect(res.statusCode).toBe(200);
    // Gone from this process's cache with the answer, not when the notification comes.
    expect(cache.get(tokenHash)).toBeUndefined();
    expect(res.json()).toMatchObject({ nome: 'Anna Maria', cognome: "D'Angelo", email: user.email, promemoria: true });
    const me = (await get(cookie, '/api/current-user')).json();
    expect(me).toMatchObject({ nome: 'Anna Maria', cognome: "D'Angelo", email: user.email });
  });

  it('turning reminders off makes the preferences row; on again updates it', async () => {
    const { user, cookie } = await account();
    const off = await send('PATCH', '/api/profilo', cookie, { promemoria: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ promemoria: false, nome: 'Giulia' });
    const rows = () => ctx.database.db.select().from(preferenzeUtente).where(eq(preferenzeUtente.userId, user.id));
    expect((await rows()).map((r) => r.promemoria)).toEqual([false]);
    expect((await get(cookie)).json().promemoria).toBe(false);
    expect((await send('PATCH', '/api/profilo', cookie, { promemoria: true })).json().promemoria).toBe(true);
    expect((await rows()).map((r) => r.promemoria)).toEqual([true]);
  });

  it('refuses empty, too long or wrongly typed values and an empty change, in Italian, changing nothing', async () => {
    const { user, cookie } = await account();
    const cases: [object, string][] = [
      [{ nome: '   ' }, 'Il campo non può essere vuoto'],
      [{ cognome: 'x'.repeat(101) }, 'Al massimo 100 caratteri'],
      [{ nome: 42 }, 'Il campo non può essere vuoto'],
      [{ promemoria: 'sì' }, 'Scegli se ricevere i promemoria'],
      [{}, 'Indica almeno un dato da modificare'],
      [{ email: 'altro@example.it' }, 'Indica almeno un dato da modificare'],
    ];
    for (const [payload, message] of cases) {
      const res = await send('PATCH', '/api/profilo', cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect([row!.nome, row!.cognome]).toEqual(['Giulia', 'Bianchi']);
    // 100 characters are allowed.
    expect((await send('PATCH', '/api/profilo', cookie, { cognome: 'y'.repeat(100) })).statusCode).toBe(200);
  });
});

describe('POST /api/profilo/password', () => {
  it('with the right current password: the new one works, the old does not, other sessions end, this one stays', async () => {
    const { user, cookie, password } = await account();
    const otherBrowser = await loginAs(ctx.app, user.email, password);
    const thirdBrowser = await loginAs(ctx.app, user.email, password);
    // Cached in this process, as they would be in production.
    for (const c of [cookie, otherBrowser, thirdBrowser]) expect((await get(c)).statusCode).toBe(200);
    expect(cache.size).toBeGreaterThan(0);

    const res = await send('POST', '/api/profilo/password', cookie, { passwordAttuale: password, nuovaPassword: 'Nuova-Segreta-2026' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Password aggiornata' });
    expect(res.cookies.filter((c) => c.name === 'bicielis_session')).toEqual([]);

    expect((await get(otherBrowser)).statusCode).toBe(401);
    expect((await get(thirdBrowser)).statusCode).toBe(401);
    expect((await get(cookie)).statusCode).toBe(200);
    expect((await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).length).toBe(1);

    const oldLogin = await send('POST', '/api/login', null, { email: user.email, password });
    expect(oldLogin.statusCode).toBe(401);
    await loginAs(ctx.app, user.email, 'Nuova-Segreta-2026');
  });

  it('a wrong current password: 400 in Italian, nothing changes, no session ends', async () => {
    const { user, cookie, password } = await account();
    const otherBrowser = await loginAs(ctx.app, user.email, password);
    const [before] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    const res = await send('POST', '/api/profilo/password', cookie, { passwordAttuale: 'Sbagliata-2026', nuovaPassword: 'Nuova-Segreta-2026' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('La password attuale non è corretta');
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect((await get(otherBrowser)).statusCode).toBe(200);
    await loginAs(ctx.app, user.email, password);
  });

  it('refuses a too short new password, one equal to the current, a missing field', async () => {
    const { cookie, password } = await account();
    const cases: [object, string][] = [
      [{ passwordAttuale: password, nuovaPassword: 'corta' }, 'La password deve essere di almeno 6 caratteri'],
      [{ passwordAttuale: password, nuovaPassword: password }, 'La nuova password deve essere diversa da quella attuale'],
      [{ nuovaPassword: 'Nuova-Segreta-2026' }, 'Inserisci la password attuale'],
      [{ passwordAttuale: password }, 'Inserisci la nuova password'],
    ];
    for (const [payload, message] of cases) {
      const res = await send('POST', '/api/profilo/password', cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('after 10 wrong current passwords, 429 even with the right one', async () => {
    const { cookie, password } = await account();
    for (let i = 0; i < 10; i++) {
      const res = await send('POST', '/api/profilo/password', cookie, { passwordAttuale: `Sbagliata-${i}-xx`, nuovaPassword: 'Nuova-Segreta-2026' });
      expect(res.statusCode).toBe(400);
    }
    const res = await send('POST', '/api/profilo/password', cookie, { passwordAttuale: password, nuovaPassword: 'Nuova-Segreta-2026' });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Troppi tentativi\. Riprova tra \d+ minuti\.$/);
  });

  it('401 without a session', async () => {
    const res = await send('POST', '/api/profilo/password', null, { passwordAttuale: 'Qualunque-1', nuovaPassword: 'Nuova-Segreta-2026' });
    expect(res.statusCode).toBe(401);
  });
});
