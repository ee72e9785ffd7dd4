import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/server/app.js';
import { ManualClock } from '../../src/server/clock.js';
import { connectDatabase } from '../../src/server/db/client.js';
import { createTestApp, testConfig, TEST_NOW, type TestContext } from '../helpers/app.js';

let ctx: TestContext;
let webRoot: string;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-web-'));
  await fs.mkdir(path.join(webRoot, 'assets'));
  await fs.writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>BiciElis</title><div id="root"></div>');
  await fs.writeFile(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
  ctx = await createTestApp({
    deps: { webRoot },
    register(app) {
      // Routes that exist only in this test, to exercise the shared error path.
      app.post('/api/test/echo', { schema: { body: z.object({ n: z.number().optional(), a: z.string().optional() }) } }, async (req) => req.body);
      app.post('/api/test/boom', async () => {
        throw new Error('secret internal detail at /src/server/x.ts');
      });
    },
  });
});

afterAll(async () => {
  await ctx.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});

describe('health and config', () => {
  it('reports the database as up', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('stays up (200) and says db: down when the database does not answer', async () => {
    const dead = connectDatabase('postgres://nobody:nothing@127.0.0.1:1/none');
    const app = await buildApp({ config: testConfig(), database: dead, clock: new ManualClock(TEST_NOW), logger: false });
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'down' });
    await app.close();
    await dead.close();
  });

  it('gives the page only public configuration', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ version: '1.0.0', payment: { provider: 'simulated', publishableKey: null }, noShowMinutes: 30 });
    expect(JSON.stringify(body)).not.toMatch(/sk_|whsec_|password/i);
  });
});

describe('HTTP conventions', () => {
  it('answers unknown API paths with 404 JSON', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await ctx.app.inject({ method, url: '/api/does-not-exist' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ message: 'Risorsa non trovata', code: 'NOT_FOUND' });
    }
  });

  it('serves the SPA for any other path, without long caching', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/dashboard/qualcosa?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the SPA at / itself', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for a year', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'ciao',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Formato non supportato: invia i dati come JSON');
  });

  it('refuses bad JSON with 400', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('JSON non valido');
    expect(res.body).not.toMatch(/Unexpected|SyntaxError|at /);
  });

  it('refuses bodies over 64 KB with 413', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(70 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/64 KB/);
  });

  it('answers invalid fields with 400 and per-field messages', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/test/echo', payload: { n: 'non un numero' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.fields)).toContain('n');
  });

  it('hides internals of unexpected errors behind 500', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/test/boom', payload: {} });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Errore interno del server', code: 'INTERNAL' });
    expect(res.body).not.toMatch(/secret|stack|\.ts/);
  });

  it('sends security headers and no X-Powered-By', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // Stripe only on the payment page, and only with Stripe configured (tests/api/csp.test.ts).
    expect(res.headers['content-security-policy']).not.toContain('stripe');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBeDefined();
  });

  it('sends a data answer the headers that act on data, and refusals too (issue 33)', async () => {
    // JSON answered by a route, a refusal by a hook before any route, a 404 under /api.
    const answers = await Promise.all([
      ctx.app.inject({ method: 'GET', url: '/api/health' }),
      ctx.app.inject({ method: 'GET', url: '/api/current-user' }),
      ctx.app.inject({ method: 'GET', url: '/api/nessuna-risorsa?x=1' }),
      ctx.app.inject({ method: 'POST', url: '/api/test/echo', headers: { origin: 'https://evil.example' }, payload: {} }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 403]);
    for (const res of answers) {
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      // The page's own policies are not sent with data.
      expect(res.headers['referrer-policy']).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
    // A path that only begins like the API is a page.
    const page = await ctx.app.inject({ method: 'GET', url: '/apiary' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('refuses state-changing requests from another origin', async () => {
    const evil = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { origin: 'https://evil.example' },
      payload: { n: 1 },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().code).toBe('CROSS_ORIGIN');
    const crossSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { n: 1 },
    });
    expect(crossSite.statusCode).toBe(403);
    const same = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { origin: 'http://localhost:3000' },
      payload: { n: 1 },
    });
    expect(same.statusCode).toBe(200);
  });
});

describe('database invariants (behaviour.md §3), straight through the schema', () => {
  async function setup() {
    const db = ctx.database.db;
    const [u1] = (await db.execute(sql`insert into users (nome, cognome, email, password_hash) values ('A','A','a@x.it','h') returning id`)).rows as { id: number }[];
    const [u2] = (await db.execute(sql`insert into users (nome, cognome, email, password_hash) values ('B','B','b@x.it','h') returning id`)).rows as { id: number }[];
    const [b] = (await db.execute(sql`insert into biciclette (numero, modello) values ('X1', 'City') returning id`)).rows as { id: number }[];
    const [b2] = (await db.execute(sql`insert into biciclette (numero, modello) values ('X2', 'City') returning id`)).rows as { id: number }[];
    return { u1: u1!.id, u2: u2!.id, b: b!.id, b2: b2!.id };
  }
  const insertBooking = (userId: number, biciId: number, from: string, to: string, stato = 'attiva') =>
    ctx.database.db.execute(sql`insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
      values (${userId}, ${biciId}, '2026-11-22', '10:00', '12:00', ${from}::timestamptz, ${to}::timestamptz, ${stato})`);

  it('the exclusion constraint refuses overlapping active bookings of one bike, allows adjacent ones', async () => {
    const { u1, u2, b } = await setup();
    await insertBooking(u1, b, '2026-11-22T09:00Z', '2026-11-22T11:00Z');
    await expect(insertBooking(u2, b, '2026-11-22T10:00Z', '2026-11-22T12:00Z')).rejects.toMatchObject({
      cause: { code: '23P01', constraint: 'prenotazioni_no_overlap' },
    });
    // [start, end): the next window may begin exactly when the first ends.
    await expect(insertBooking(u2, b, '2026-11-22T11:00Z', '2026-11-22T12:00Z')).resolves.toBeDefined();
    // Cancelled bookings do not hold the bike.
    await expect(insertBooking(u2, b, '2026-11-22T09:30Z', '2026-11-22T10:30Z', 'cancellata')).resolves.toBeDefined();
  });

  it('the partial unique index allows one active booking per user', async () => {
    await ctx.database.db.execute(sql`delete from prenotazioni`);
    await ctx.database.db.execute(sql`delete from users`);
    await ctx.database.db.execute(sql`delete from biciclette`);
    const { u1, b, b2 } = await setup();
    await insertBooking(u1, b, '2026-11-23T09:00Z', '2026-11-23T10:00Z');
    await expect(insertBooking(u1, b2, '2026-11-24T09:00Z', '2026-11-24T10:00Z')).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'prenotazioni_one_active_per_user' },
    });
    await expect(insertBooking(u1, b2, '2026-11-24T09:00Z', '2026-11-24T10:00Z', 'completata')).resolves.toBeDefined();
  });

  it('refuses a second payment row for a booking and a provider event applied twice', async () => {
    const db = ctx.database.db;
    const [bk] = (await db.execute(sql`select id from prenotazioni limit 1`)).rows as { id: number }[];
    await db.execute(sql`insert into pagamenti (prenotazione_id, provider) values (${bk!.id}, 'simulated')`);
    await expect(db.execute(sql`insert into pagamenti (prenotazione_id, provider) values (${bk!.id}, 'simulated')`)).rejects.toMatchObject({
      cause: { code: '23505' },
    });
    await db.execute(sql`insert into provider_events (id, provider, type, payload) values ('evt_1', 'simulated', 'x', '{}')`);
    await expect(
      db.execute(sql`insert into provider_events (id, provider, type, payload) values ('evt_1', 'simulated', 'x', '{}')`),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
  });
});
