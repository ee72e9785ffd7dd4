import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { biciclette, users } from '../../src/server/schema.js';
import { AUTH_CHANNEL, SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

/**
 * Two app instances on one database, each with its own pool and its own listener wired as
 * in main.ts: what one of them (or anyone with SQL) commits is in the other's very next
 * availability answer. There is no answer cache (decision 018, follow-up): every answer comes
 * from a query that started after its request arrived, so nothing here waits for a
 * notification or polls. Each check first asks the same window, as a cache would have kept it.
 */
interface Instance {
  app: FastifyInstance;
  database: Database;
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

/** As main.ts wires it: one listener, for the session cache only. */
async function listen(sessionCache: SessionCache) {
  const listener = listenForChanges(ctx.database.url, { [AUTH_CHANNEL]: sessionCache }, silent);
  await listener.ready;
  return listener;
}

async function numbers(i: Instance, window = WINDOW): Promise<string[]> {
  const res = await i.app.inject({ method: 'POST', url: '/api/biciclette/available', headers: { cookie }, payload: window });
  expect(res.statusCode).toBe(200);
  return (res.json() as { numero: string }[]).map((bike) => bike.numero);
}

/** Asks the window twice (what an answer cache would have kept) and returns the answer. */
async function askedTwice(i: Instance, window = WINDOW) {
  const first = await numbers(i, window);
  expect(await numbers(i, window)).toEqual(first);
  return first;
}

async function bikeId(numero: string) {
  const [row] = await ctx.database.db.select({ id: biciclette.id }).from(biciclette).where(eq(biciclette.numero, numero));
  return row!.id;
}

beforeAll(async () => {
  const sessionsA = new SessionCache();
  ctx = await createTestApp({ deps: { sessionCache: sessionsA } });
  a = { app: ctx.app, database: ctx.database, listener: await listen(sessionsA) };
  // Instance B: another pool on the same database, another app, another listener.
  const databaseB = connectDatabase(ctx.database.url, { max: 5 });
  const sessionsB = new SessionCache();
  const appB = await buildApp({ config: ctx.config, database: databaseB, clock: ctx.clock, sessionCache: sessionsB, logger: false });
  await appB.ready();
  b = { app: appB, database: databaseB, listener: await listen(sessionsB) };
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

describe('availability, correct at every instant across processes', () => {
  it('a bike added with SQL on another connection is in A’s very next answer', async () => {
    expect(await askedTwice(a)).not.toContain('SQL-1');
    await sqlClient.query(`insert into biciclette (numero, modello) values ('SQL-1', 'City Bike')`);
    expect(await numbers(a)).toContain('SQL-1');
  });

  it('a bike put in manutenzione through instance B leaves A’s very next answer, and comes back', async () => {
    expect(await askedTwice(a)).toContain('2');
    await b.database.db.update(biciclette).set({ stato: 'manutenzione' }).where(eq(biciclette.numero, '2'));
    expect(await numbers(a)).not.toContain('2');
    await b.database.db.update(biciclette).set({ stato: 'disponibile' }).where(eq(biciclette.numero, '2'));
    expect(await numbers(a)).toContain('2');
  });

  it('a booking made through instance B takes the bike from A’s next answer; cancelled in B, A offers it again', async () => {
    expect(await askedTwice(a)).toContain('3');
    const made = await b.app.inject({
      method: 'POST',
      url: '/api/prenotazioni',
      headers: { cookie },
      payload: { ...WINDOW, destinazione: null, biciId: await bikeId('3') },
    });
    expect(made.statusCode).toBe(201);
    expect(await numbers(a)).not.toContain('3');

    expect(await askedTwice(a)).not.toContain('3');
    const cancelled = await b.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${made.json().id}`, headers: { cookie } });
    expect(cancelled.statusCode).toBe(200);
    expect(await numbers(a)).toContain('3');
  });

  it("a process's own booking shows in its very next answer", async () => {
    expect(await askedTwice(a)).toContain('1');
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

  it('under a burst of requests for the same window, every request sent after a commit sees it', async () => {
    // The requests in flight share queries (decision 018); one sent after the commit must not
    // be answered by a query that started before it.
    const burst = Array.from({ length: 40 }, () => numbers(a));
    await new Promise((r) => setImmediate(r));
    await sqlClient.query(`insert into biciclette (numero, modello) values ('BURST-1', 'City Bike')`);
    const after = await Promise.all(Array.from({ length: 10 }, () => numbers(a)));
    for (const answer of after) expect(answer).toContain('BURST-1');
    await Promise.all(burst);
  });

  it('does not depend on the listener: with A’s stopped, a change is in the next answer all the same', async () => {
    await a.listener.stop();
    expect(await askedTwice(a)).not.toContain('SQL-2');
    await sqlClient.query(`insert into biciclette (numero, modello) values ('SQL-2', 'City Bike')`);
    expect(await numbers(a)).toContain('SQL-2');
  });

  it('the availability NOTIFY triggers of migration 0002 are gone (migration 0007)', async () => {
    const triggers = await ctx.database.db.execute<{ tgname: string }>(
      sql`select tgname from pg_trigger where tgname in ('biciclette_notify_availability', 'prenotazioni_notify_availability')`,
    );
    expect(triggers.rows).toEqual([]);
    const functions = await ctx.database.db.execute(sql`select 1 from pg_proc where proname = 'bicielis_notify_availability'`);
    expect(functions.rows).toEqual([]);
    // The session cache's triggers (migration 0001) are still there.
    const auth = await ctx.database.db.execute(sql`select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid where p.prosrc like '%bicielis_auth%'`);
    expect(auth.rows.length).toBeGreaterThan(0);
  });
});
