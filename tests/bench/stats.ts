/**
 * The staff's statistics (issue 10): the aggregates of GET /api/admin/stats over 7, 30 and
 * 365 days with 1,000,000 bookings over two years in the database. Target: p95 < 100 ms per
 * period. The bookings and payments are inserted through the tables' triggers, which build
 * the rollup `stats_giornaliere` as in production (decision 017, through the deltas and the
 * fold of decision 023). No cache anywhere: every
 * run asks for a different period end (a different day), so PostgreSQL computes every answer again.
 */
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/server/clock.js';
import { foldStatsDelta } from '../../src/server/modules/stats/fold.js';
import { computeStats } from '../../src/server/modules/stats/service.js';
import { STATS_PERIODS } from '../../src/shared/schemas/stats.js';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { benchDatabase, fmt } from './harness.js';

const TZ = 'Europe/Rome';
const BOOKINGS = 1_000_000;
const DAYS = 730;
const BIKES = 60;
const RUNS = 40;
const TARGET_MS = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchStats(): Promise<boolean> {
  console.log(`\n== Statistics: ${fmt(BOOKINGS)} bookings over ${DAYS} days, ${BIKES} bikes ==`);
  const bench = await benchDatabase();
  const { db } = bench.database;
  try {
    const today = zonedToday(new Date(), TZ);
    const t0 = performance.now();
    // Two bikes more than are ever booked: they must appear with 0.
    await db.execute(sql`
      insert into biciclette (numero, modello)
      select g::text, (array['City Bike', 'Hybrid Sport', 'Mountain Bike'])[1 + g % 3] from generate_series(1, ${BIKES + 2}) g`);
    await db.execute(sql`
      insert into users (nome, cognome, email, password_hash, is_residente)
      select 'Utente', 'N' || g, 'stats' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, 5000) g`);
    // Past bookings (completed or cancelled, ~1,370 a day), starting 07:00–20:30 for 1–3 hours.
    await db.execute(sql`
      insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
      select 1 + g % 5000, 1 + g % ${BIKES}, day, to_char(st, 'HH24:MI'), to_char(st + dur, 'HH24:MI'),
             (day + st) at time zone ${TZ}, (day + st + dur) at time zone ${TZ},
             case when g % 9 = 0 then 'cancellata' else 'completata' end,
             (day + st) at time zone ${TZ} - interval '1 day'
        from (select g, ${today}::date - (1 + g % ${DAYS}) as day,
                     time '07:00' + ((g * 7) % 28) * interval '30 minutes' as st,
                     (1 + g % 3) * interval '1 hour' as dur
                from generate_series(1, ${BOOKINGS}) g) s`);
    // Externals pay: completed for a ride, failed (hold released) or refunded when cancelled.
    await db.execute(sql`
      insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at, refunded_at)
      select p.id, 'simulated',
             case when p.stato = 'cancellata' and p.id % 2 = 0 then null else 'bench_' || p.id end,
             250,
             case when p.stato = 'completata' then 'completed' when p.id % 2 = 0 then 'failed' else 'refunded' end,
             case when p.stato = 'completata' then p.created_at end,
             case when p.stato = 'cancellata' and p.id % 2 = 1 then p.inizio end
        from prenotazioni p join users u on u.id = p.user_id
       where not u.is_residente`);
    await db.execute(sql`vacuum analyze`);
    // The triggers wrote deltas (decision 023); the minute's fold moves them into the rollup,
    // as the running app does. Reads then add only the deltas of the last minute.
    const folded = await foldStatsDelta(db);
    console.log(`seeded in ${fmt((performance.now() - t0) / 1000, 1)} s (${fmt(folded)} statistics deltas folded)`);

    if (process.env.STATS_EXPLAIN) {
      const { rows } = await db.execute(sql.raw(`explain (analyze, buffers) ${process.env.STATS_EXPLAIN}`));
      for (const r of rows) console.log(Object.values(r)[0]);
    }

    const clock = new ManualClock(new Date());
    const deps = { db, clock, config: { timeZone: TZ } };
    // Connections opened and plans warmed once, as in a running server.
    for (const period of STATS_PERIODS) await computeStats(deps, period);

    let ok = true;
    for (const period of STATS_PERIODS) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A different "today" each time (within the seeded two years): no answer is asked twice.
        const end = addDays(today, -((i * 13) % (DAYS - period)));
        clock.set(`${end}T10:00:00Z`);
        const start = performance.now();
        const stats = await computeStats(deps, period);
        times.push(performance.now() - start);
        if (stats.days.length !== period) throw new Error('wrong number of days');
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      const met = p95 < TARGET_MS;
      ok &&= met;
      console.log(
        `period ${String(period).padStart(3)} days: p50 ${fmt(p50, 1)} ms, p95 ${fmt(p95, 1)} ms (${RUNS} runs; target p95 < ${TARGET_MS} ms) ${met ? 'OK' : 'MISSED'}`,
      );
    }
    return ok;
  } finally {
    await bench.close();
  }
}
