import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/server/schema.js';
import type { SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { createSession, hashSessionToken, SESSION_TOUCH_INTERVAL_MS, SESSION_TTL_MS } from '../../src/server/modules/auth/sessions.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createUser } from '../helpers/factories.js';

let ctx: TestContext;
let cache: SessionCache;

beforeAll(async () => {
  ctx = await createTestApp({ sessionCache: true });
  cache = ctx.sessionCache!;
});
afterAll(async () => {
  await ctx?.close();
});

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  return check();
}

async function loggedIn() {
  const user = await createUser(ctx.database.db);
  const { token } = await createSession(ctx.database.db, user.id, 'session', ctx.clock.now());
  const cookie = `bicielis_session=${token}`;
  const me = () => ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie } });
  expect((await me()).statusCode).toBe(200);
  return { user, hash: hashSessionToken(token), me, cookie };
}

describe('session cache, kept coherent by the database', () => {
  it('serves a known session without the database once cached', async () => {
    const { hash, me } = await loggedIn();
    expect(cache.active).toBe(true);
    expect(cache.get(hash)).toBeDefined();
    expect((await me()).json().email).toMatch(/@example\.it$/);
  });

  it('a session deleted by anyone (another process, SQL) stops working at once', async () => {
    const { hash, me } = await loggedIn();
    await ctx.database.db.delete(sessions).where(eq(sessions.tokenHash, hash));
    expect(await until(() => cache.get(hash) === undefined)).toBe(true);
    expect((await me()).statusCode).toBe(401);
  });

  it('a user deactivated anywhere loses every cached session at once', async () => {
    const { user, hash, me } = await loggedIn();
    await ctx.database.db.update(users).set({ attiva: false }).where(eq(users.id, user.id));
    expect(await until(() => cache.get(hash) === undefined)).toBe(true);
    expect((await me()).statusCode).toBe(401);
  });

  // A cached session is answered without a promise (issue 33); the cache never skips the
  // expiry, the sliding of the expiry, nor the deletion of an expired row.
  it('a cached session is still slid forward after an hour, and refused (its row deleted) once expired', async () => {
    const start = ctx.clock.now();
    try {
      const { hash, me } = await loggedIn();
      expect(cache.get(hash)).toBeDefined();
      const fresh = await me();
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers['set-cookie']).toBeUndefined();

      ctx.clock.advance(SESSION_TOUCH_INTERVAL_MS);
      const slid = await me();
      expect(slid.statusCode).toBe(200);
      expect(String(slid.headers['set-cookie'])).toMatch(/^bicielis_session=.*Max-Age=2592000/);
      const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, hash));
      expect(row!.expiresAt.getTime()).toBe(ctx.clock.now().getTime() + SESSION_TTL_MS);

      ctx.clock.advance(SESSION_TTL_MS);
      expect(cache.get(hash)).toBeDefined();
      const expired = await me();
      expect(expired.statusCode).toBe(401);
      expect(String(expired.headers['set-cookie'])).toMatch(/^bicielis_session=;/);
      expect(await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, hash))).toEqual([]);
      expect(cache.get(hash)).toBeUndefined();
    } finally {
      ctx.clock.set(start);
    }
  });

  it('a changed role or name is seen at once', async () => {
    const { user, hash, me } = await loggedIn();
    await ctx.database.db.update(users).set({ ruolo: 'admin', nome: 'Nuovo' }).where(eq(users.id, user.id));
    expect(await until(() => cache.get(hash) === undefined)).toBe(true);
    expect((await me()).json()).toMatchObject({ ruolo: 'admin', nome: 'Nuovo' });
  });

  it('logout ends the session in this process without waiting for the notification', async () => {
    const { hash, me, cookie } = await loggedIn();
    await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(cache.get(hash)).toBeUndefined();
    expect((await me()).statusCode).toBe(401);
  });

  it('switches itself off while the listener is disconnected', async () => {
    const { hash } = await loggedIn();
    await ctx.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'LISTEN %' and datname = current_database()`,
    );
    expect(await until(() => !cache.active)).toBe(true);
    expect(cache.get(hash)).toBeUndefined();
    // It reconnects by itself.
    expect(await until(() => cache.active)).toBe(true);
  });

  it('does not keep a session read just before another process ended it', async () => {
    const { hash, me } = await loggedIn();
    cache.evictSession(hash);
    // The lookup is in flight while the session is deleted elsewhere and the notification
    // arrives before the lookup's reply: hold the reply until the eviction has been applied.
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, hash));
    expect(row).toBeDefined();
    const version = cache.version;
    await ctx.database.db.delete(sessions).where(eq(sessions.tokenHash, hash));
    expect(await until(() => cache.version !== version)).toBe(true);
    const found = { tokenHash: hash, user: { id: row!.userId } } as unknown as Parameters<SessionCache['set']>[1];
    cache.set(hash, found, version); // the stale reply
    expect(cache.get(hash)).toBeUndefined();
    expect((await me()).statusCode).toBe(401);
  });
});
