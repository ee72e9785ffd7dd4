import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminBookings } from '../../src/server/modules/admin/index.js';
import { adminBookingsQuerySchema } from '../../src/shared/schemas/admin.js';
import { truncateAll } from '../helpers/admin-fixtures.js';
import { captureStatements, rowsRead, type ExplainRows } from '../helpers/plan-reads.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';

/**
 * Issue 51, decision 062: the first page of /admin's bookings reads a row of `pagamenti` and of
 * `biciclette` per listed booking, whatever the size of those tables. Joined plainly, with a few
 * hundred thousand bookings behind the page the planner read every payment (and every bike) once
 * and compared each listed row with all of them: at ten times today's data, 50 × 15,000 payment
 * rows and 150 ms of the /admin render. The test seeds enough rows for that plan to be chosen and
 * counts the rows the statement read from the two tables (EXPLAIN ANALYZE).
 */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
  ctx.clock.set(TEST_NOW);
  const { db } = ctx.database;
  await truncateAll(db);
  await db.execute(sql`
    insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, 500) g`);
  // The people, never analysed (as the guard's data had them, and an install before autovacuum's
  // first analysis): the planner guesses their number from the table's pages.
  await db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', 'N' || g, 'scale' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, 5000) g`);
  // Past bookings written as the bench writes its history (triggers off: their sede given), and a
  // payment for one in ten: the sizes at which the planner chose to read the tables whole.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into prenotazioni (user_id, bici_id, sede_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
      select 1 + g % 5000, 1 + g % 500, (select min(id) from sedi), (t - interval '1 hour')::date, '10:00', '11:00', t - interval '1 hour', t,
             case when g % 10 = 0 then 'cancellata' else 'completata' end
        from (select g, ${TEST_NOW.toISOString()}::timestamptz - interval '2 hours' - g * interval '1 minute' as t
                from generate_series(1, 300000) g) s`);
  });
  await db.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
    select id, 'simulated', 'sim_' || id, 250, 'completed', fine from prenotazioni where id % 10 = 0`);
  await db.execute(sql`analyze biciclette, prenotazioni, pagamenti`);
}, 180_000);

afterAll(async () => {
  await ctx.close();
});

describe('adminBookings, the first page of every booking', () => {
  it('reads one payment and one bike per listed row, not the tables', async () => {
    const { db } = ctx.database;
    // The statements the read sends, captured as they go (text and parameters), then explained.
    const { result: page, sent, query } = await captureStatements(ctx.database.pool, () =>
      adminBookings({ db, clock: ctx.clock, config: ctx.config }, adminBookingsQuerySchema.parse({ stato: 'tutti', page: '1', pageSize: '50' })),
    );
    expect(page.rows).toHaveLength(50);
    const list = sent.find((s) => /order by "prenotazioni"."data_prenotazione" desc/.test(s.text));
    expect(list, 'the page statement').toBeDefined();
    const { rows } = (await query({ text: `explain (analyze, format json) ${list!.text}`, values: list!.values })) as { rows: ExplainRows };
    const read = rowsRead(rows[0]!['QUERY PLAN'][0]!.Plan);
    expect(read.pagamenti ?? 0).toBeLessThanOrEqual(50);
    expect(read.biciclette ?? 0).toBeLessThanOrEqual(50);
    // And its person: joined plainly, the users were read whole and each listed row compared with
    // all of them (50 × 3,000 in the guard's data, 34 ms of the /admin render's 36 in PostgreSQL).
    expect(read.users ?? 0).toBeLessThanOrEqual(50);
  });
});
