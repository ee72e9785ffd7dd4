/**
 * Availability benchmark (issue 4): POST /api/biciclette/available with 50 bikes and
 * 200,000 historical bookings under 50 concurrent clients, against a bare Fastify route on
 * the same machine (target: ≥ 20 % of it, p99 < 50 ms); and how the request's database work
 * grows from 1,000 to 1,000,000 bookings (target: < 2×), with the query plan.
 */
import { sql } from 'drizzle-orm';
import { systemClock } from '../../src/server/clock.js';
import type { Database } from '../../src/server/db/client.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { availableBikes, invalidateAvailability } from '../../src/server/modules/bookings/service.js';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { bareBaseline, benchDatabase, fmt, listenApp, load, sqlQuery } from './harness.js';

const CONNECTIONS = 50;
const SECONDS = 10;
const TZ = 'Europe/Rome';

async function seedBase(database: Database) {
  await database.db.execute(sql`
    insert into biciclette (numero, modello)
    select g::text, (array['City Bike', 'Hybrid Sport', 'Mountain Bike'])[1 + g % 3] from generate_series(1, 50) g`);
  await database.db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', 'N' || g, 'bench' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, 5000) g`);
}

/** Adds historical bookings (completed or cancelled, in the past) up to `total`. */
async function growHistory(database: Database, from: number, total: number) {
  if (total <= from) return;
  await database.db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
    select 1 + g % 5000, 1 + g % 50, (t - interval '1 hour')::date, '10:00', '11:00', t - interval '1 hour', t,
           case when g % 10 = 0 then 'cancellata' else 'completata' end, t - interval '1 day'
      from (select g, now() - interval '2 hours' - (g * interval '7 minutes') as t
              from generate_series(${from + 1}::int, ${total}::int) g) s`);
  await database.db.execute(sql`vacuum analyze prenotazioni`);
}

/** Future active bookings, as on a busy day: 40 of the 50 bikes taken somewhere tomorrow. */
async function seedActive(database: Database, day: string) {
  await database.db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
    select 4000 + g, g, ${day}::date, '09:00', '12:00',
           (${day}::date + time '09:00') at time zone ${TZ}, (${day}::date + time '12:00') at time zone ${TZ}, 'attiva'
      from generate_series(1, 40) g`);
}

async function timeRequests(database: Database, body: { dataPrenotazione: string; orarioInizio: string; orarioFine: string }, n: number) {
  const deps = { db: database.db, clock: systemClock, config: { timeZone: TZ, bookingHorizonDays: 30, paymentHoldMinutes: 30, stripe: undefined } };
  // The one-second answer cache is emptied before each call: this measures the database work.
  for (let i = 0; i < 50; i++) {
    invalidateAvailability(database.db);
    await availableBikes(deps, body); // warm up
  }
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    invalidateAvailability(database.db);
    const t = performance.now();
    await availableBikes(deps, body);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(n / 2)]!, p95: samples[Math.floor(n * 0.95)]! };
}

export async function benchAvailability(): Promise<boolean> {
  const bench = await benchDatabase();
  const { database } = bench;
  try {
    const tomorrow = addDays(zonedToday(new Date(), TZ), 1);
    const body = { dataPrenotazione: tomorrow, orarioInizio: '10:00', orarioFine: '11:00' };
    await seedBase(database);
    await seedActive(database, tomorrow);
    await growHistory(database, 0, 200_000);

    const { app, base } = await listenApp(database, bench.url);
    const { token } = await createSession(database.db, 1, 'session', new Date());
    const check = await fetch(`${base}/api/biciclette/available`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `bicielis_session=${token}` },
      body: JSON.stringify(body),
    });
    const answer = await check.text();
    const free = JSON.parse(answer) as unknown[];
    if (check.status !== 200 || free.length !== 10) throw new Error(`unexpected answer ${check.status}: ${free.length} bikes`);

    const real = await load(`${base}/api/biciclette/available`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', cookie: `bicielis_session=${token}` },
    });
    await app.close();
    const bare = await bareBaseline(CONNECTIONS, SECONDS, 'POST', answer);
    const ratio = real.requestsPerSec / bare.requestsPerSec;

    console.log(`\n## Availability: POST /api/biciclette/available (50 bikes, 200,000 bookings, ${CONNECTIONS} clients, ${SECONDS} s)`);
    console.log(`      app:  ${fmt(real.requestsPerSec)} req/s, p50 ${real.p50Ms} ms, p99 ${real.p99Ms} ms, non-2xx ${real.non2xx}, errors ${real.errors}`);
    console.log(`      bare route sending the same ${answer.length} bytes as a constant:`);
    console.log(`      bare: ${fmt(bare.requestsPerSec)} req/s, p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms`);
    const okRatio = ratio >= 0.2;
    const okP99 = real.p99Ms < 50;
    const okErrors = real.non2xx === 0 && real.errors === 0;
    console.log(`${okRatio ? 'PASS' : 'FAIL'}  throughput ratio app/bare: ${fmt(ratio * 100, 1)} % (target ≥ 20 %)`);
    console.log(`${okP99 ? 'PASS' : 'FAIL'}  p99: ${real.p99Ms} ms (target < 50 ms)`);
    console.log(`${okErrors ? 'PASS' : 'FAIL'}  every answer 200`);

    console.log('\n## Availability: growth with the number of bookings (life-cycle probe + query, uncached, 500 sequential calls)');
    const sizes = [1_000, 10_000, 100_000, 1_000_000];
    await database.db.execute(sql`delete from prenotazioni where stato <> 'attiva'`);
    await database.db.execute(sql`vacuum analyze prenotazioni`);
    let have = 0;
    const timings: { size: number; median: number; p95: number }[] = [];
    for (const size of sizes) {
      await growHistory(database, have, size);
      have = size;
      const t = await timeRequests(database, body, 500);
      timings.push({ size, ...t });
      console.log(`      ${fmt(size).padStart(9)} bookings: median ${t.median.toFixed(3)} ms, p95 ${t.p95.toFixed(3)} ms`);
    }
    const growth = timings.at(-1)!.median / timings[0]!.median;
    const okGrowth = growth < 2;
    console.log(`${okGrowth ? 'PASS' : 'FAIL'}  growth 1,000 → 1,000,000 bookings: ${growth.toFixed(2)}× (target < 2×)`);

    const plan = await sqlQuery(
      bench.url,
      `explain (analyze, costs off, timing off, summary on)
       select b.* from biciclette b
        where b.stato in ('disponibile', 'prenotata')
          and not exists (select 1 from prenotazioni p
                           where p.bici_id = b.id and p.stato = 'attiva'
                             and tstzrange(p.inizio, p.fine, '[)') && tstzrange(('${tomorrow}'::date + time '10:00') at time zone '${TZ}', ('${tomorrow}'::date + time '11:00') at time zone '${TZ}', '[)'))`,
    );
    console.log('      EXPLAIN ANALYZE of the availability query at 1,000,000 bookings:');
    for (const row of plan.rows as { 'QUERY PLAN': string }[]) console.log(`        ${row['QUERY PLAN']}`);
    return okRatio && okP99 && okErrors && okGrowth;
  } finally {
    await bench.close();
  }
}
