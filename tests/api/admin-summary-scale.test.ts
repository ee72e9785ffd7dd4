import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSummary } from '../../src/server/modules/admin/index.js';
import { bookingAsOf, P_COLUMNS, voidAsOf } from '../../src/server/modules/bookings/lifecycle.js';
import { currentRules, lifecycleMinutes } from '../../src/server/modules/rules/index.js';
import { foldStatsDelta } from '../../src/server/modules/stats/index.js';
import { truncateAll } from '../helpers/admin-fixtures.js';
import { captureStatements, rowsRead, type ExplainRows } from '../helpers/plan-reads.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';

/**
 * Issue 51, decision 065: the unscoped /admin summary is flat in the data's size. It read every
 * active booking (30,000 at ten times today's data) and counted every person (50,000); now the
 * stored-state counts come from the counters the triggers keep, and only the active rows whose
 * state as of now can differ from the stored one (started, or holding a pending payment) are read.
 * The test seeds 30,000 future bookings and 31,000 people, a few rides in progress, late, not
 * picked up and unpaid, and checks (1) the summary says exactly what counting every row says,
 * before and after the counters' deltas are folded, and (2) its statement reads a bounded number
 * of rows of `prenotazioni` and `users` (EXPLAIN ANALYZE, as admin-bookings-scale.test.ts does).
 */

let ctx: TestContext;
const at = TEST_NOW.toISOString();
const FUTURE = 30_000;
const BIKES = 500;
const FUTURE_BIKES = BIKES - 40;

beforeAll(async () => {
  ctx = await createTestApp();
  ctx.clock.set(TEST_NOW);
  const { db } = ctx.database;
  await truncateAll(db);
  await db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, ${BIKES}::int) g`);
  // One active booking a person: 30,000 people for the future bookings, 1,000 more for today's.
  await db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', 'N' || g, 'summary' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, ${FUTURE + 1000}::int) g`);
  // The future: from tomorrow, two bookings a bike a day (with the triggers, which keep the counters),
  // on bikes 41–500. Today's rows below are on bikes 1–40: whether a booking not picked up is void
  // probes its bike's other bookings (`bikeOutAtNoShow`, bookings/lifecycle.ts, along
  // `prenotazioni_bici_idx`), a cost per bike, the same at ten sedi, that this test does not measure.
  await db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
    select g, 41 + (g - 1) % ${FUTURE_BIKES}::int, d::date, h || ':00', h + 1 || ':00',
           (d + make_interval(hours => h)) at time zone 'Europe/Rome', (d + make_interval(hours => h + 1)) at time zone 'Europe/Rome',
           'attiva', ${at}::timestamptz - interval '1 day'
      from (select g, '2026-11-22'::timestamp + ((g - 1) / ${FUTURE_BIKES * 2}::int) * interval '1 day' as d,
                   case when ((g - 1) / ${FUTURE_BIKES}::int) % 2 = 0 then 11 else 15 end as h
              from generate_series(1, ${FUTURE}::int) g) s`);
  // Paid by the externals, but the first ten (1, 3, …, 19): pending.
  await db.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
    select p.id, 'simulated', 'sim_' || p.id, 250, case when p.user_id < 20 then 'pending' else 'completed' end,
           case when p.user_id >= 20 then ${at}::timestamptz end
      from prenotazioni p join users u on u.id = p.user_id where not u.is_residente`);
  // Today, on bikes 1–40 (free today): in progress, late, not picked up (void as of now), ended
  // unpicked, started within the no-show minutes, and completed earlier today.
  await db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, ritirata_at, riconsegnata_at, created_at)
    select ${FUTURE}::int + g, g, '2026-11-21', '08:00', '09:00', ${at}::timestamptz + s.inizio, ${at}::timestamptz + s.fine,
           s.stato, case when s.ritirata then ${at}::timestamptz + s.inizio end,
           case when s.stato = 'completata' then ${at}::timestamptz + s.fine end, ${at}::timestamptz - interval '1 day'
      from generate_series(1, 40) g
     cross join lateral (select case g % 5
       when 0 then interval '-50 minutes' when 1 then interval '-3 hours' when 2 then interval '-90 minutes'
       when 3 then interval '-2 hours' else interval '-5 minutes' end as inizio,
       case g % 5 when 0 then interval '1 hour' when 1 then interval '-1 hour' when 2 then interval '30 minutes'
       when 3 then interval '-1 hour' else interval '1 hour' end as fine,
       g % 5 in (0, 1) or g <= 5 as ritirata,
       case when g <= 5 and g % 5 in (2, 3, 4) then 'completata' else 'attiva' end as stato) s`);
  // Unpaid (pending above): of the people 1–19's future bookings, five made long ago (their hold
  // has run out: void as of now) and five made a minute ago (still held).
  await db.execute(sql`update prenotazioni set created_at = ${at}::timestamptz - interval '1 minute' where user_id in (11, 13, 15, 17, 19)`);
  await db.execute(sql`analyze`);
}, 300_000);

afterAll(async () => {
  await ctx.close();
});

/** What counting every row says (the summary's statement before decision 065). */
async function counted() {
  const { db } = ctx.database;
  const minutes = lifecycleMinutes(await currentRules({ db }));
  const live = bookingAsOf(P_COLUMNS, at, minutes).stato;
  const { rows } = await db.execute<Record<string, number>>(sql`
    with active as (select p.inizio, p.fine, p.ritirata_at, ${voidAsOf(at, minutes)} as void from prenotazioni p where p.stato = 'attiva'),
    states as (select ${live} as s from prenotazioni p left join pagamenti pay on pay.prenotazione_id = p.id where p.stato <> 'offerta')
    select (select count(*) from active where not void and inizio <= ${at}::timestamptz and fine > ${at}::timestamptz)::int as "inUso",
           (select count(*) from active where ritirata_at is not null and fine <= ${at}::timestamptz)::int as ritardi,
           (select count(*) from users)::int as utenti,
           (select count(*) from states where s = 'attiva')::int as attiva,
           (select count(*) from states where s = 'completata')::int as completata,
           (select count(*) from states where s = 'cancellata')::int as cancellata`);
  return rows[0]!;
}

describe('adminSummary, every sede, at 30,000 future bookings', () => {
  it('says what counting every row says, before and after the counters are folded', async () => {
    const deps = { db: ctx.database.db, clock: ctx.clock, config: ctx.config };
    const expected = await counted();
    // The seed makes each kind of row at least once.
    // In use: 8 picked up, 7 not yet (within their no-show minutes); late: 8; void as of now: 14
    // not picked up, 5 holds run out.
    expect(expected).toMatchObject({ inUso: 15, ritardi: 8, cancellata: 19, completata: 3 });
    for (const fold of [false, true]) {
      if (fold) await foldStatsDelta(ctx.database.db);
      const summary = await adminSummary(deps);
      expect(summary.bookingsByStato).toEqual({ attiva: expected.attiva, completata: expected.completata, cancellata: expected.cancellata });
      expect(summary).toMatchObject({
        prenotazioniAttive: expected.attiva,
        biciInUsoOra: expected.inUso,
        ritardi: expected.ritardi,
        utentiTotali: expected.utenti,
      });
    }
    const { rows } = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from contatori_delta`);
    expect(rows[0]!.n).toBe(0);
  });

  it('reads a bounded number of bookings and people, not the tables', async () => {
    const { db } = ctx.database;
    // The statements the read sends, captured as they go (text and parameters), then explained.
    const { sent } = await captureStatements(ctx.database.pool, () => adminSummary({ db, clock: ctx.clock, config: ctx.config }));
    const summary = sent.find((s) => /"danniAperti"/.test(s.text));
    expect(summary, 'the summary statement').toBeDefined();
    // A named statement: planned for the values at first, then with a generic plan (decision 059).
    // Both plans are explained, each on a connection of its own.
    const client = await ctx.database.pool.connect();
    try {
      const args = summary!.values.map((v) => client.escapeLiteral(String(v))).join(', ');
      await client.query(`prepare summary_explained as ${summary!.text}`);
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query(`set plan_cache_mode = ${mode}`);
        const { rows } = await client.query<ExplainRows[number]>(`explain (analyze, format json) execute summary_explained(${args})`);
        const read = rowsRead(rows[0]!['QUERY PLAN'][0]!.Plan);
        // Today's 40 rows, some twice (the bikes' states, today's completions), and the ten unpaid:
        // nothing of the 30,000 future bookings or of the 31,000 people.
        expect(read.prenotazioni ?? 0, mode).toBeLessThanOrEqual(300);
        expect(read.users ?? 0, mode).toBeLessThanOrEqual(10);
        // The totals of every booking ever: the rollup's counters, not its rows (one a day, 34 here).
        expect(read.stats_giornaliere ?? 0, mode).toBe(0);
      }
    } finally {
      await client.query('deallocate all; reset plan_cache_mode');
      client.release();
    }
  });
});
