import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { MAX_ATTEMPTS, onceAcrossRetries, retryCounts, retryTransient, runTransaction } from '../../src/server/db/transaction.js';
import { applyLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { pickUp } from '../../src/server/modules/bookings/ride.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { addBike, sessionUser } from '../helpers/booking-fixtures.js';
import { rawClients } from '../helpers/raw-clients.js';

/**
 * Issue 19 / decision 023: the lock order of the booking path, the retry of deadlock
 * victims, and the pool's bounds. Each deadlock shape below is played with a raw
 * connection standing for a booking being inserted (it holds the bike's row lock, as
 * createBooking's statement does first), against the real service function.
 */
let ctx: TestContext;
const raw = rawClients(() => ctx.database.url);

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await raw.closeAll();
  await ctx?.close();
});

const rawClient = () => raw.connect();

const minutes = (n: number) => new Date(TEST_NOW.getTime() + n * 60_000);

/** An active booking written straight into the table (the window relative to TEST_NOW). */
async function activeBooking(userId: number, biciId: number, fromMin: number, toMin: number): Promise<number> {
  const res = await ctx.database.db.execute<{ id: number }>(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
    values (${userId}, ${biciId}, '2026-11-21', '10:00', '11:00', ${minutes(fromMin)}, ${minutes(toMin)}, 'attiva', ${minutes(-600)})
    returning id`);
  return res.rows[0]!.id;
}

/** The insert a booking makes, on a connection that already holds the bike (as createBooking does). */
function insertOverlapping(c: pg.Client, userId: number, biciId: number, fromMin: number, toMin: number) {
  return c.query(
    `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
     values ($1, $2, '2026-11-21', '10:00', '11:00', $3, $4, 'attiva')`,
    [userId, biciId, minutes(fromMin), minutes(toMin)],
  );
}

/**
 * Waits until `done()` or until some backend of this database waits on a lock. A waiter seen
 * after `done()` answered no may be the next step of a work that is done by then (the life
 * cycle's bike statement, which waits for the bike once its releases have committed): so
 * `done()` is asked again before the answer is 'blocked'.
 */
async function untilSettledOrBlocked(done: () => Promise<boolean>): Promise<'done' | 'blocked'> {
  for (let i = 0; i < 400; i++) {
    if (await done()) return 'done';
    const res = await ctx.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (res.rows[0]!.n > 0) return (await done()) ? 'done' : 'blocked';
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('neither done nor blocked after 10 s');
}

/**
 * Runs `body` with a raw connection in an open transaction, standing for a booking being
 * inserted; whatever `body` does, the transaction ends, so a failed check leaves no lock
 * behind for the tests after it (one failure stays one failure).
 */
async function withBookingConnection(body: (booking: pg.Client) => Promise<void>): Promise<void> {
  const booking = await rawClient();
  await booking.query('begin');
  try {
    await body(booking);
  } finally {
    await booking.query('rollback').catch(() => undefined);
  }
}

const totalRetries = () => [...retryCounts.values()].reduce((a, b) => a + b, 0);

describe('the lock order of decision 023: no deadlock between a booking insert and …', () => {
  it('… the life cycle releasing a no-show of the same bike (before: releases and bike marks in one statement)', async () => {
    const owner = await sessionUser(ctx, { residente: true });
    const other = await sessionUser(ctx, { residente: true });
    const bike = await addBike(ctx.database.db);
    // Started 40 minutes ago, never picked up: a no-show due now (NO_SHOW_MINUTES 30).
    const noShow = await activeBooking(owner.id, bike, -40, 80);
    // In its window, so the life cycle had shown its bike `prenotata`: releasing it frees the bike.
    await ctx.database.db.execute(sql`update biciclette set stato = 'prenotata', stato_auto = true where id = ${bike}`);
    const retriesBefore = totalRetries();

    await withBookingConnection(async (booking) => {
      await booking.query('select id from biciclette where id = $1 for no key update', [bike]);

      const lifecycle = applyLifecycle(ctx.database.db, TEST_NOW, 30, 30);
      const released = async () => {
        const r = await ctx.database.db.execute<{ stato: string }>(sql`select stato from prenotazioni where id = ${noShow}`);
        return r.rows[0]!.stato === 'cancellata';
      };
      // The release commits without waiting for the bike; it used to wait while it held the booking.
      expect(await untilSettledOrBlocked(released)).toBe('done');
      // The insert over the released window goes through at once (it used to wait on the release: a cycle).
      await booking.query("set local lock_timeout = '5s'");
      await expect(insertOverlapping(booking, other.id, bike, 0, 60)).resolves.toMatchObject({ rowCount: 1 });
      await booking.query('commit');
      await expect(lifecycle).resolves.toMatchObject({ noShows: 1, bikesFreed: 1 });
    });
    expect(totalRetries()).toBe(retriesBefore);
  });

  it('… a pick-up of a booking of the same bike (before: booking locked and rewritten, then the bike)', async () => {
    const owner = await sessionUser(ctx, { residente: true });
    const other = await sessionUser(ctx, { residente: true });
    const bike = await addBike(ctx.database.db);
    // Starts in 5 minutes: it may be picked up now.
    const ride = await activeBooking(owner.id, bike, 5, 65);
    const retriesBefore = totalRetries();

    const deps = { db: ctx.database.db, clock: ctx.clock, config: ctx.config, mailer: undefined as never, log: { error: () => undefined } };
    let pickedUp: ReturnType<typeof pickUp> | undefined;
    await withBookingConnection(async (booking) => {
      await booking.query('select id from biciclette where id = $1 for no key update', [bike]);

      pickedUp = pickUp(deps, owner.id, ride);
      const rideTaken = async () => {
        const r = await ctx.database.db.execute<{ taken: boolean }>(sql`select ritirata_at is not null as taken from prenotazioni where id = ${ride}`);
        return r.rows[0]!.taken;
      };
      // The pick-up waits for the bike before it touches its booking.
      expect(await untilSettledOrBlocked(rideTaken)).toBe('blocked');
      // So an insert over that booking's window meets a plain, committed-looking row: 409 at
      // once (23P01), where it used to wait on the pick-up while the pick-up waited on it.
      await booking.query("set local lock_timeout = '5s'");
      const err = await insertOverlapping(booking, other.id, bike, 10, 40).catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('23P01');
    });
    // The booking's transaction rolled back: the pick-up has its bike and goes through.
    await expect(pickedUp).resolves.toMatchObject({ booking: { id: ride, fase: 'in_corso' }, oraApplicata: 'server' });
    expect(totalRetries()).toBe(retriesBefore);
  });
});

describe('a deadlock victim runs again, its effects outside the database once', () => {
  it('two transactions locking two rows in opposite orders both commit; each one-time effect ran once', async () => {
    const a = await addBike(ctx.database.db);
    const b = await addBike(ctx.database.db);
    const retriesBefore = retryCounts.get('40P01') ?? 0;
    let arrived = 0;
    let release = () => undefined as void;
    const bothHoldTheirFirst = new Promise<void>((resolve) => (release = resolve));
    const tick = () => (++arrived === 2 ? release() : undefined);
    const effects: string[] = [];
    const attempts = { first: 0, second: 0 };
    const lockBoth = (first: number, second: number, name: 'first' | 'second') =>
      runTransaction(ctx.database.db, async (tx) => {
        attempts[name] += 1;
        await onceAcrossRetries(`effect:${name}`, async () => effects.push(name));
        await tx.execute(sql`select id from biciclette where id = ${first} for no key update`);
        // The first attempts meet here, each holding its first row: then each asks for the other's.
        if (attempts[name] === 1) {
          tick();
          await bothHoldTheirFirst;
        }
        await tx.execute(sql`select id from biciclette where id = ${second} for no key update`);
        return name;
      });
    await expect(Promise.all([lockBoth(a, b, 'first'), lockBoth(b, a, 'second')])).resolves.toEqual(['first', 'second']);
    // PostgreSQL broke the cycle by rolling one back; that one ran again and committed.
    expect(attempts.first + attempts.second).toBe(3);
    expect(retryCounts.get('40P01') ?? 0).toBe(retriesBefore + 1);
    expect(effects.sort()).toEqual(['first', 'second']);
  });

  it('gives up after MAX_ATTEMPTS, and does not retry other errors', async () => {
    let calls = 0;
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await expect(
      retryTransient(async () => {
        calls += 1;
        throw deadlock;
      }),
    ).rejects.toBe(deadlock);
    expect(calls).toBe(MAX_ATTEMPTS);
    calls = 0;
    const violation = Object.assign(new Error('exclusion'), { code: '23P01' });
    await expect(
      retryTransient(async () => {
        calls += 1;
        throw violation;
      }),
    ).rejects.toBe(violation);
    expect(calls).toBe(1);
  });
});

/**
 * A connection of `db`'s pool, asked for again while opening it runs past the pool's short
 * bound (a loaded machine); any other error is thrown. 100 tries are the hang guard.
 */
async function connectEventually(db: Database): Promise<pg.PoolClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.pool.connect();
    } catch (error) {
      if (attempt >= 100 || !/timeout/i.test(String((error as Error).message))) throw error;
    }
  }
}

describe('the pool: overload is 503, not 500', () => {
  let small: Database;
  let app: TestContext & { routes: unknown[] };

  beforeAll(async () => {
    // The app on a pool of 2 connections whose requests wait 300 ms at most, 3 at most waiting.
    small = connectDatabase(ctx.database.url, { max: 2, waitMs: 300, queueMax: 3 });
    app = await createTestApp({ deps: { database: small } });
  });
  afterAll(async () => {
    await app?.close();
    await small?.close();
  });

  it('a booking while every connection is busy: 503 with Retry-After and the Italian message; nothing written; then it works', async () => {
    // `small` is a second pool on ctx's database: the fixtures go there too.
    const user = await sessionUser(ctx, { residente: true });
    const bike = await addBike(ctx.database.db);
    const body = { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00', biciId: bike, destinazione: 'Centro' };
    const held: pg.PoolClient[] = [];
    try {
      // Both of the pool's connections, held. Opening one is bounded by the same 300 ms as a
      // wait (pg's connectionTimeoutMillis): on a loaded machine a new connection can take
      // longer, so each is asked for again until it opens; the refusal asserted below is
      // the request's own wait behind them.
      while (held.length < 2) held.push(await connectEventually(small));
      const res = await app.app.inject({ method: 'POST', url: '/api/prenotazioni', headers: { cookie: user.cookie }, payload: body });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.json()).toEqual({ message: 'Servizio momentaneamente occupato, riprova tra qualche secondo', code: 'BUSY' });
    } finally {
      for (const c of held) c.release();
    }
    const count = await small.db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where bici_id = ${bike}`);
    expect(count.rows[0]!.n).toBe(0);
    const again = await app.app.inject({ method: 'POST', url: '/api/prenotazioni', headers: { cookie: user.cookie }, payload: body });
    expect(again.statusCode).toBe(201);
  });

  it('beyond the queue bound the answer is 503 at once, without waiting for the wait bound', async () => {
    // A pool whose requests would wait 60 s: a 503 long before that was refused by the queue bound.
    const patient = connectDatabase(ctx.database.url, { max: 1, waitMs: 60_000, queueMax: 2 });
    const patientApp = await createTestApp({ deps: { database: patient } });
    const user = await sessionUser(ctx, { residente: true });
    const held = await patient.pool.connect();
    const waiting = [0, 1].map(() => patient.pool.connect().then((c) => c.release()));
    try {
      const started = performance.now();
      const res = await patientApp.app.inject({ method: 'GET', url: '/api/biciclette', headers: { cookie: user.cookie } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      held.release();
      await Promise.all(waiting);
      await patientApp.close();
      await patient.close();
    }
  });

  it('a statement PostgreSQL refuses (a 409) keeps its connection: no new backend for the next query', async () => {
    // One connection in the pool, so every query uses it.
    const single = connectDatabase(ctx.database.url, { max: 1 });
    try {
      const before = (await single.pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await expect(single.pool.query("select 1/0")).rejects.toMatchObject({ code: '22012' });
      const after = (await single.pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      expect(after).toBe(before);
      expect(single.pool.totalCount).toBe(1);
    } finally {
      await single.close();
    }
  });
});
