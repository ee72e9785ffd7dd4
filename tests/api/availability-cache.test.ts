import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { LISTENER_APPLICATION_NAME, listenForChanges } from '../../src/server/db/notifications.js';
import { biciclette, prenotazioni, users } from '../../src/server/db/schema.js';
import { AUTH_CHANNEL, SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { AVAILABILITY_CHANNEL, availabilityCacheFor, type AvailabilityCache } from '../../src/server/modules/bookings/availability-cache.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

/**
 * Two app instances on one database, each with its own pool and its own listener wired as
 * in main.ts: what one of them (or anyone with SQL) changes must reach the other's
 * availability cache within moments. The test clock stands still, so a cached answer never
 * expires by time here: only a notification can end it.
 */
interface Instance {
  app: FastifyInstance;
  database: Database;
  cache: AvailabilityCache;
  listener: ReturnType<typeof listenForChanges>;
}

const silent = pino({ level: 'silent' });
let ctx: TestContext;
let a: Instance;
let b: Instance;
let cookie: string;
let sqlClient: pg.Client;

// TEST_NOW is 2026-11-21 09:00 UTC = 10:00 in Rome.
const WINDOW = { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '11:00' };

/** As main.ts wires it: one listener for the session cache and this pool's availability cache. */
async function listen(database: Database, sessionCache: SessionCache) {
  const cache = availabilityCacheFor(database.db);
  const listener = listenForChanges(ctx.database.url, { [AUTH_CHANNEL]: sessionCache, [AVAILABILITY_CHANNEL]: cache }, silent);
  await listener.ready;
  return { cache, listener };
}

async function numbers(i: Instance, window = WINDOW): Promise<string[]> {
  const res = await i.app.inject({ method: 'POST', url: '/api/biciclette/available', headers: { cookie }, payload: window });
  expect(res.statusCode).toBe(200);
  return (res.json() as { numero: string }[]).map((bike) => bike.numero);
}

/** Warms A's cache for the window and checks that the answer is indeed cached. */
async function warm(i: Instance, window = WINDOW) {
  const first = await numbers(i, window);
  expect(i.cache.size).toBeGreaterThan(0);
  expect(await numbers(i, window)).toEqual(first);
  return first;
}

/** Polls `check` for at most 2 s; returns how long it took (ms), or fails. */
async function within2s(check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > 2000) throw new Error('not seen within 2 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - started;
}

async function bikeId(numero: string) {
  const [row] = await ctx.database.db.select({ id: biciclette.id }).from(biciclette).where(eq(biciclette.numero, numero));
  return row!.id;
}

beforeAll(async () => {
  const sessionsA = new SessionCache();
  ctx = await createTestApp({ deps: { sessionCache: sessionsA } });
  a = { app: ctx.app, database: ctx.database, ...(await listen(ctx.database, sessionsA)) };
  // Instance B: another pool on the same database, another app, another listener.
  const databaseB = connectDatabase(ctx.database.url, { max: 5 });
  const sessionsB = new SessionCache();
  const appB = await buildApp({ config: ctx.config, database: databaseB, clock: ctx.clock, sessionCache: sessionsB, logger: false });
  await appB.ready();
  b = { app: appB, database: databaseB, ...(await listen(databaseB, sessionsB)) };
  await ctx.database.db.insert(biciclette).values([
    { numero: '1', modello: 'City Bike' },
    { numero: '2', modello: 'Hybrid Sport' },
    { numero: '3', modello: 'Mountain Bike' },
  ]);
  const [user] = await ctx.database.db
    .insert(users)
    .values({ nome: 'Ada', cognome: 'Rossi', email: 'ada@test.it', passwordHash: 'not-used-here', isResidente: true })
    .returning({ id: users.id });
  const { token } = await createSession(ctx.database.db, user!.id, 'session', ctx.clock.now());
  cookie = `bicielis_session=${token}`;
  sqlClient = new pg.Client({ connectionString: ctx.database.url });
  await sqlClient.connect();
});

afterAll(async () => {
  await sqlClient.end();
  await b.listener.stop();
  await b.app.close();
  await b.database.close();
  await a.listener.stop();
  await ctx.close();
});

describe('availability cache, kept coherent across processes by the database', () => {
  it('serves from the cache only while its listener is connected', () => {
    expect(a.cache.active).toBe(true);
    expect(b.cache.active).toBe(true);
  });

  it('a bike added with SQL on another connection appears in A within 2 s', async () => {
    expect(await warm(a)).not.toContain('SQL-1');
    await sqlClient.query(`insert into biciclette (numero, modello) values ('SQL-1', 'City Bike')`);
    await within2s(async () => (await numbers(a)).includes('SQL-1'));
  });

  it('a bike put in manutenzione through instance B disappears from A within 2 s', async () => {
    expect(await warm(a)).toContain('2');
    await b.database.db.update(biciclette).set({ stato: 'manutenzione' }).where(eq(biciclette.numero, '2'));
    await within2s(async () => !(await numbers(a)).includes('2'));
    await b.database.db.update(biciclette).set({ stato: 'disponibile' }).where(eq(biciclette.numero, '2'));
    await within2s(async () => (await numbers(a)).includes('2'));
  });

  it('a booking made through instance B takes the bike away from A; cancelled in B, A offers it again', async () => {
    expect(await warm(a)).toContain('3');
    const made = await b.app.inject({
      method: 'POST',
      url: '/api/prenotazioni',
      headers: { cookie },
      payload: { ...WINDOW, destinazione: null, biciId: await bikeId('3') },
    });
    expect(made.statusCode).toBe(201);
    await within2s(async () => !(await numbers(a)).includes('3'));

    expect(await warm(a)).not.toContain('3');
    const cancelled = await b.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${made.json().id}`, headers: { cookie } });
    expect(cancelled.statusCode).toBe(200);
    await within2s(async () => (await numbers(a)).includes('3'));
  });

  it("a process's own booking shows in its very next answer", async () => {
    expect(await warm(a)).toContain('1');
    const made = await a.app.inject({
      method: 'POST',
      url: '/api/prenotazioni',
      headers: { cookie },
      payload: { ...WINDOW, destinazione: null, biciId: await bikeId('1') },
    });
    expect(made.statusCode).toBe(201);
    expect(await numbers(a)).not.toContain('1');
    await a.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${made.json().id}`, headers: { cookie } });
    expect(await numbers(a)).toContain('1');
  });

  it('the triggers: one notification per table and transaction; changes that do not matter say nothing', async () => {
    const heard: string[] = [];
    const listener = new pg.Client({ connectionString: ctx.database.url });
    await listener.connect();
    listener.on('notification', (msg) => heard.push(msg.payload ?? ''));
    await listener.query(`LISTEN ${AVAILABILITY_CHANNEL}`);
    try {
      await ctx.database.db.transaction(async (tx) => {
        await tx.insert(biciclette).values({ numero: 'T-1', modello: 'City Bike' });
        await tx.insert(biciclette).values({ numero: 'T-2', modello: 'City Bike' });
        await tx.update(biciclette).set({ modello: 'Hybrid Sport' }).where(eq(biciclette.numero, 'T-1'));
      });
      await within2s(async () => heard.length > 0);
      await ctx.database.db.execute(sql`select pg_sleep(0.1)`);
      expect(heard).toEqual(['biciclette']);

      // A booking's destinazione is not part of any answer: not announced.
      heard.length = 0;
      await ctx.database.db.update(prenotazioni).set({ destinazione: 'Roma' });
      await ctx.database.db.update(biciclette).set({ modello: 'City Bike' }).where(eq(biciclette.numero, 'T-2'));
      await within2s(async () => heard.length > 0);
      expect(heard).toEqual(['biciclette']);

      // Statement-level: announced even when no row matched (a harmless extra emptying).
      heard.length = 0;
      await ctx.database.db.update(prenotazioni).set({ stato: 'cancellata' }).where(eq(prenotazioni.stato, 'attiva'));
      await within2s(async () => heard.length > 0);
      expect(heard).toEqual(['prenotazioni']);
    } finally {
      await listener.end();
    }
  });

  it('switches itself off, emptied, while the listener is disconnected, and back on after', async () => {
    await warm(a);
    await ctx.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    await within2s(async () => !a.cache.active);
    expect(a.cache.size).toBe(0);
    await within2s(async () => a.cache.active && b.cache.active);
    // Back on: cached again, and told again.
    expect(await warm(a)).not.toContain('SQL-2');
    await sqlClient.query(`insert into biciclette (numero, modello) values ('SQL-2', 'City Bike')`);
    await within2s(async () => (await numbers(a)).includes('SQL-2'));
  });

  it('without a connected listener the cache is not used at all: a change shows at once', async () => {
    await a.listener.stop();
    expect(a.cache.active).toBe(false);
    expect(await numbers(a)).not.toContain('SQL-3');
    expect(a.cache.size).toBe(0);
    await sqlClient.query(`insert into biciclette (numero, modello) values ('SQL-3', 'City Bike')`);
    expect(await numbers(a)).toContain('SQL-3');
  });
});
