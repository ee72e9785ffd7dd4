import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStats } from '../../src/server/modules/stats/service.js';
import { foldStatsDelta } from '../../src/server/modules/stats/fold.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { addBike, sessionUser } from '../helpers/booking-fixtures.js';
import { rawClients } from '../helpers/raw-clients.js';

/**
 * Decision 023: the statistics' triggers only insert deltas, a fold moves them into the
 * rollup. Reads are exact at every instant, and no writer waits for another on the rollup.
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

const stats = () => computeStats({ db: ctx.database.db, clock: ctx.clock, config: ctx.config }, 7);
const deltas = async () => (await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from stats_delta`)).rows[0]!.n;

/** A booking of today (TEST_NOW's day in Rome), written as a client would, on connection `c`. */
function insertBooking(c: pg.Client, userId: number, biciId: number, from: string, to: string, stato = 'attiva') {
  return c.query<{ id: number }>(
    `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
     values ($1, $2, '2026-11-21', $3::text, $4::text, ('2026-11-21'::date + $3::text::time) at time zone 'Europe/Rome',
             ('2026-11-21'::date + $4::text::time) at time zone 'Europe/Rome', $5) returning id`,
    [userId, biciId, from, to, stato],
  );
}

describe('the rollup through deltas and the fold', () => {
  it('the numbers are the same before and after the fold, and the fold empties the deltas', async () => {
    const c = await rawClient();
    const a = await sessionUser(ctx, { residente: true });
    const b = await sessionUser(ctx);
    const bike = await addBike(ctx.database.db);
    const kept = (await insertBooking(c, a.id, bike, '10:00', '12:00')).rows[0]!.id;
    const cancelled = (await insertBooking(c, b.id, bike, '13:00', '14:00')).rows[0]!.id;
    await c.query(`update prenotazioni set stato = 'cancellata' where id = $1`, [cancelled]);
    await c.query(
      `insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at) values ($1, 'simulated', 'pi_x', 250, 'completed', now())`,
      [kept],
    );
    expect(await deltas()).toBeGreaterThan(0);
    const before = await stats();
    const today = before.days.find((d) => d.date === '2026-11-21')!;
    expect(today).toMatchObject({ rides: 1, cancellations: 1, revenueCents: 250 });
    expect(before.hours.find((h) => h.hour === 10)!.rides).toBe(1);

    const moved = await foldStatsDelta(ctx.database.db);
    expect(moved).toBeGreaterThan(0);
    expect(await deltas()).toBe(0);
    expect(await stats()).toEqual(before);
    // A fold with nothing to move changes nothing.
    expect(await foldStatsDelta(ctx.database.db)).toBe(0);
    expect(await stats()).toEqual(before);
  });

  it('two writers of one day never wait for each other on the rollup (before: the day row was held to commit)', async () => {
    const first = await rawClient();
    const second = await rawClient();
    const a = await sessionUser(ctx);
    const b = await sessionUser(ctx);
    const bikeA = await addBike(ctx.database.db);
    const bikeB = await addBike(ctx.database.db);
    await first.query('begin');
    await insertBooking(first, a.id, bikeA, '15:00', '16:00');
    // The first transaction stays open, holding whatever its triggers took. The second, on
    // the same day and hour, must not wait: a wait fails it after 500 ms.
    await second.query('begin');
    await second.query("set local lock_timeout = '500ms'");
    await expect(insertBooking(second, b.id, bikeB, '15:00', '17:00')).resolves.toMatchObject({ rowCount: 1 });
    await second.query('commit');
    await first.query('commit');
    const today = (await stats()).days.find((d) => d.date === '2026-11-21')!;
    expect(today.rides).toBeGreaterThanOrEqual(2);
  });

  it('two folds at once move each delta once', async () => {
    const c = await rawClient();
    const bike = await addBike(ctx.database.db);
    for (let i = 0; i < 20; i++) {
      const u = await sessionUser(ctx);
      await insertBooking(c, u.id, bike, `${String(6 + (i % 12)).padStart(2, '0')}:00`, `${String(6 + (i % 12)).padStart(2, '0')}:30`, 'cancellata');
    }
    const before = await stats();
    const [x, y] = await Promise.all([foldStatsDelta(ctx.database.db), foldStatsDelta(ctx.database.db)]);
    expect(x + y).toBeGreaterThan(0);
    expect(await deltas()).toBe(0);
    expect(await stats()).toEqual(before);
  });
});
