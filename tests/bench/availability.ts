/**
 * Availability benchmark (issues 4 and 11): POST /api/biciclette/available as real users
 * send it — 2,000 different random windows over the booking horizon, 200 sessions — with
 * 50 bikes, 3,000 future active bookings spread over the horizon and 200,000 past ones,
 * under 50 concurrent clients, `accept-encoding: gzip, br`. Scenarios, each server in its
 * own fresh process, the load generator in another:
 *   (a) the app as deployed, 2,000 random windows: every request queries PostgreSQL (there is
 *       no answer cache), concurrent requests sharing in-flight queries (decision 018);
 *   (b) one window repeated (identical windows in one shared query are asked once);
 *   bare: a bare Fastify process with the same compression plugin answering a constant body
 *   of the median answer's bytes.
 * Rounds are interleaved (BENCH_ROUNDS, default 3) and medians reported. Targets on (a):
 * ≥ 25 % of bare, p99 < 25 ms, no errors, server RSS < 200 MB.
 * Then how the request's database work grows from 1,000 to 1,000,000 bookings (target:
 * < 2×), with the query plan (BENCH_SKIP_GROWTH=1 skips it).
 */
import { seededRandom } from '../../src/server/lib/seeded-random.js';
import { sql } from 'drizzle-orm';
import { systemClock } from '../../src/server/clock.js';
import type { Database } from '../../src/server/db/client.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { availableBikes } from '../../src/server/modules/bookings/service.js';

/** The bench's people live at the install's first sede (an unknown home gives the first open one). */
const FIRST_SEDE = { home: 1 };
import { addDays, zonedToday } from '../../src/shared/time.js';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { bareBaseline, benchDatabase, fmt, load, sqlQuery, startBenchServer, type LoadResult } from './harness.js';

const CONNECTIONS = 50;
const SECONDS = 10;
const TZ = 'Europe/Rome';
const BIKES = 50;
const USERS = 5000;
const SESSIONS = 200;
const WINDOWS = 2000;
const HORIZON = 30;
const HISTORY = 200_000;

export { seededRandom };

const hhmm = (quarter: number) => `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;

export interface BenchWindow {
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
}

/**
 * `count` different windows: a day of `days` (from `horizonDays`), start and end on quarter
 * hours between 06:00 and 23:45, 30 minutes to 4 hours long.
 */
export function randomWindows(days: readonly string[], count: number, random = seededRandom(11)): BenchWindow[] {
  const seen = new Set<string>();
  const out: BenchWindow[] = [];
  while (out.length < count) {
    const day = days[Math.floor(random() * days.length)]!;
    const start = 24 + Math.floor(random() * (95 - 2 - 24 + 1)); // 06:00 .. 23:15
    const quarters = 2 + Math.floor(random() * 15); // 30 min .. 4 h
    if (start + quarters > 95) continue;
    const w = { dataPrenotazione: day, orarioInizio: hhmm(start), orarioFine: hhmm(start + quarters) };
    const key = JSON.stringify(w);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
  }
  return out;
}

/**
 * Every day of the horizon, each allowed by the rules in `database` (tests/helpers/days.ts): the
 * bench fills them all. Its own maintenance is part of what it measures, not a day to skip.
 */
export async function horizonDays(database: Database): Promise<string[]> {
  return allowedDays({ ...(await readServiceDays(database.db)), maintenance: [] }, { now: new Date(), count: HORIZON });
}

export async function seedBase(database: Database) {
  await database.db.execute(sql`
    insert into biciclette (numero, modello)
    select g::text, (array['City Bike', 'Hybrid Sport', 'Mountain Bike'])[1 + g % 3] from generate_series(1, ${BIKES}::int) g`);
  await database.db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', 'N' || g, 'bench' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, ${USERS}::int) g`);
}

/** Adds historical bookings (completed or cancelled, in the past) up to `total`. */
export async function growHistory(database: Database, from: number, total: number) {
  if (total <= from) return;
  await database.db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
    select 1 + g % ${USERS}::int, 1 + g % ${BIKES}::int, (t - interval '1 hour')::date, '10:00', '11:00', t - interval '1 hour', t,
           case when g % 10 = 0 then 'cancellata' else 'completata' end, t - interval '1 day'
      from (select g, now() - interval '2 hours' - (g * interval '7 minutes') as t
              from generate_series(${from + 1}::int, ${total}::int) g) s`);
  await database.db.execute(sql`vacuum analyze prenotazioni`);
}

/**
 * 3,000 future active bookings over the horizon: on every bike and day one in the morning
 * (starting 07:00–10:45) and one in the afternoon (15:00–19:45), 30 minutes to 4 hours
 * each, so they never overlap on a bike; one per user (users 1–3,000). The externals'
 * bookings are paid (a completed payment each).
 */
export async function seedFuture(database: Database, days: readonly string[]) {
  const random = seededRandom(7);
  const rows: { u: number; b: number; d: string; s: string; e: string }[] = [];
  let user = 1;
  for (const day of days) {
    for (let bike = 1; bike <= BIKES; bike++) {
      for (const [first, starts] of [
        [28, 16],
        [60, 20],
      ] as const) {
        const start = first + Math.floor(random() * starts);
        const end = start + 2 + Math.floor(random() * 15);
        rows.push({ u: user++, b: bike, d: day, s: hhmm(start), e: hhmm(end) });
      }
    }
  }
  await database.db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
    select r.u, r.b, r.d::date, r.s, r.e, (r.d::date + r.s::time) at time zone ${TZ}, (r.d::date + r.e::time) at time zone ${TZ}, 'attiva'
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(u int, b int, d text, s text, e text)`);
  await database.db.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
    select p.id, 'simulated', 'sim_bench_' || p.id, 250, 'completed', now()
      from prenotazioni p join users u on u.id = p.user_id
     where p.stato = 'attiva' and not u.is_residente`);
  return rows.length;
}

async function timeRequests(database: Database, body: BenchWindow, n: number) {
  const deps = { db: database.db, clock: systemClock, config: { timeZone: TZ, bookingHorizonDays: HORIZON, paymentHoldMinutes: 30, stripe: undefined } };
  // Sequential calls, so each is one query of its own: this measures the database work.
  for (let i = 0; i < 50; i++) await availableBikes(deps, body, true, FIRST_SEDE); // warm up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await availableBikes(deps, body, true, FIRST_SEDE);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(n / 2)]!, p95: samples[Math.floor(n * 0.95)]! };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export interface Row {
  scenario: string;
  runs: (LoadResult & { rssMb?: number; ratio?: number })[];
}

/** Medians over the rounds, as a Markdown table (scenario | req/s | p50 | p99 | errors/non-2xx | % of bare | RSS). */
export function printTable(rows: Row[]) {
  console.log('| scenario | req/s | p50 ms | p99 ms | errors/non-2xx | % of bare | server RSS MB |');
  console.log('|---|--:|--:|--:|--:|--:|--:|');
  for (const { scenario, runs } of rows) {
    const ratios = runs.map((r) => r.ratio).filter((r): r is number => r !== undefined);
    const rss = runs.map((r) => r.rssMb).filter((r): r is number => r !== undefined);
    console.log(
      `| ${scenario} | ${fmt(median(runs.map((r) => r.requestsPerSec)))} | ${median(runs.map((r) => r.p50Ms))} | ${median(runs.map((r) => r.p99Ms))} | ` +
        `${runs.reduce((n, r) => n + r.errors, 0)}/${runs.reduce((n, r) => n + r.non2xx, 0)} | ` +
        `${ratios.length ? `${fmt(median(ratios) * 100, 1)} %` : '—'} | ${rss.length ? fmt(Math.max(...rss)) : '—'} |`,
    );
  }
}

/** The rules of scenario (c): see benchAvailability. */
export async function setBenchRules(database: Database, today: string) {
  const hours = JSON.stringify(Array.from({ length: 7 }, () => ({ apertura: '06:00', chiusura: '23:59' })));
  await database.db.execute(sql`
    update regole set orari = ${hours}::jsonb, durata_massima_minuti = 300, prenotazioni_settimanali_max = 10,
                      sospensione_soglia = 3, sospensione_finestra_giorni = 30, sospensione_giorni = 7 where id = 1`);
  // Closures past the horizon, which no booking reaches: the rules' check reads them, no window meets them.
  /* eslint-disable test-days/no-day-offset */
  await database.db.execute(sql`
    insert into chiusure (dal, al, motivo) values
      (${addDays(today, HORIZON + 5)}::date, ${addDays(today, HORIZON + 9)}::date, 'Chiusura di prova'),
      (${addDays(today, HORIZON + 20)}::date, ${addDays(today, HORIZON + 20)}::date, 'Festa del collegio')`);
  /* eslint-enable test-days/no-day-offset */
  await database.db.execute(sql`
    insert into manutenzioni (bici_id, inizio, fine, motivo)
    select g, (${today}::date + (2 + g * 3) + time '08:00') at time zone ${TZ}, (${today}::date + (2 + g * 3) + time '18:00') at time zone ${TZ}, 'Revisione'
      from generate_series(1, 3) g`);
}

export async function benchAvailability(): Promise<boolean> {
  const bench = await benchDatabase();
  const { database } = bench;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  try {
    const today = zonedToday(new Date(), TZ);
    await seedBase(database);
    const days = await horizonDays(database);
    const tomorrow = days[0]!;
    const future = await seedFuture(database, days);
    await growHistory(database, 0, HISTORY);
    const cookies: string[] = [];
    for (let u = 0; u < SESSIONS; u++) {
      const { token } = await createSession(database.db, 3001 + u, 'session', new Date());
      cookies.push(`bicielis_session=${token}`);
    }
    const windows = randomWindows(days, WINDOWS);
    const bodies = windows.map((w) => JSON.stringify(w));

    // Correctness first: a sample of answers, against the same question asked of SQL directly.
    const server = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: bench.url });
    const sizes: number[] = [];
    let sample = '';
    for (const [i, w] of windows.slice(0, 40).entries()) {
      const res = await fetch(`${server.base}/api/biciclette/available`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookies[i]! },
        body: JSON.stringify(w),
      });
      const text = await res.text();
      const free = (JSON.parse(text) as { id: number }[]).map((b) => b.id).sort((a, b) => a - b);
      const expected = await database.db.execute<{ id: number }>(sql`
        select b.id from biciclette b
         where not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato = 'attiva'
                             and p.inizio < (${w.dataPrenotazione}::date + ${w.orarioFine}::time) at time zone ${TZ}
                             and p.fine > (${w.dataPrenotazione}::date + ${w.orarioInizio}::time) at time zone ${TZ})
         order by b.id`);
      if (res.status !== 200 || JSON.stringify(free) !== JSON.stringify(expected.rows.map((r) => r.id))) {
        throw new Error(`wrong answer for ${JSON.stringify(w)}: ${res.status} ${text.slice(0, 200)}`);
      }
      sizes.push(text.length);
      if (!sample || Math.abs(text.length - median(sizes)) < Math.abs(sample.length - median(sizes))) sample = text;
    }
    await server.stop();

    const headers = {
      'content-type': 'application/json',
      'accept-encoding': 'gzip, br',
      'sec-fetch-site': 'same-origin',
    };
    const options = { connections: CONNECTIONS, seconds: SECONDS, method: 'POST', headers };
    const runApp = async (plan: Parameters<typeof load>[1]) => {
      const s = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: bench.url });
      try {
        // Warm-up: JIT, prepared statements, pool connections, sessions cached.
        await load(`${s.base}/api/biciclette/available`, { ...plan, seconds: 2, headers: { ...plan.headers, origin: s.base } });
        s.resetPeakRss();
        const r = await load(`${s.base}/api/biciclette/available`, { ...plan, headers: { ...plan.headers, origin: s.base } });
        return { ...r, rssMb: s.peakRssMb() };
      } finally {
        await s.stop();
      }
    };
    const rows: Row[] = [
      { scenario: '(a) app, 2,000 random windows (every request queries PostgreSQL)', runs: [] },
      { scenario: '(b) app, one window repeated', runs: [] },
      { scenario: `bare Fastify + same compression, constant ${sample.length}-byte answer`, runs: [] },
    ];
    for (let round = 0; round < rounds; round++) {
      const bare = await bareBaseline({ ...options, method: 'POST', bodies, cookies, headers }, sample);
      const a = await runApp({ ...options, bodies, cookies });
      const b = await runApp({ ...options, bodies: [JSON.stringify({ dataPrenotazione: tomorrow, orarioInizio: '10:00', orarioFine: '11:00' })], cookies });
      rows[0]!.runs.push({ ...a, ratio: a.requestsPerSec / bare.requestsPerSec });
      rows[1]!.runs.push({ ...b, ratio: b.requestsPerSec / bare.requestsPerSec });
      rows[2]!.runs.push({ ...bare, ratio: 1 });
      console.log(
        `      round ${round + 1}: (a) ${fmt(a.requestsPerSec)} (b) ${fmt(b.requestsPerSec)} bare ${fmt(bare.requestsPerSec)} req/s; ` +
          `p99 (a) ${a.p99Ms} (b) ${b.p99Ms} ms`,
      );
    }

    // Issue 20: the same windows with the service's rules set — opening hours every day
    // (06:00–23:59, so every window stays valid), 2 closures (after the windows' days, so each
    // answer is still a 200 and every request checks them) and 3 planned maintenances inside
    // the horizon (bikes 1–3, which the answers leave out inside their periods).
    if (process.env.BENCH_SKIP_RULES !== '1') {
      await setBenchRules(database, today);
      const server2 = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: bench.url });
      try {
        for (const [i, w] of windows.slice(0, 40).entries()) {
          const res = await fetch(`${server2.base}/api/biciclette/available`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: cookies[i]!, origin: server2.base },
            body: JSON.stringify(w),
          });
          const free = ((await res.json()) as { id: number }[]).map((b) => b.id).sort((a, b) => a - b);
          const expected = await database.db.execute<{ id: number }>(sql`
            select b.id from biciclette b
             where not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato = 'attiva'
                                 and p.inizio < (${w.dataPrenotazione}::date + ${w.orarioFine}::time) at time zone ${TZ}
                                 and p.fine > (${w.dataPrenotazione}::date + ${w.orarioInizio}::time) at time zone ${TZ})
               and not exists (select 1 from manutenzioni m where m.bici_id = b.id
                                 and m.inizio < (${w.dataPrenotazione}::date + ${w.orarioFine}::time) at time zone ${TZ}
                                 and m.fine > (${w.dataPrenotazione}::date + ${w.orarioInizio}::time) at time zone ${TZ})
             order by b.id`);
          if (res.status !== 200 || JSON.stringify(free) !== JSON.stringify(expected.rows.map((r) => r.id))) {
            throw new Error(`wrong answer with rules for ${JSON.stringify(w)}: ${res.status}`);
          }
        }
      } finally {
        await server2.stop();
      }
      rows.push({ scenario: '(c) app, the same 2,000 windows, rules set (hours, 2 closures, 3 maintenances)', runs: [] });
      for (let round = 0; round < rounds; round++) {
        const c = await runApp({ ...options, bodies, cookies });
        rows[3]!.runs.push({ ...c, ratio: c.requestsPerSec / rows[2]!.runs[round]!.requestsPerSec });
        console.log(`      round ${round + 1} with rules: (c) ${fmt(c.requestsPerSec)} req/s; p99 ${c.p99Ms} ms`);
      }
    }

    console.log(
      `\n## Availability: POST /api/biciclette/available — ${BIKES} bikes, ${fmt(future)} future active bookings, ${fmt(HISTORY)} past; ` +
        `${fmt(WINDOWS)} windows, ${SESSIONS} sessions, ${CONNECTIONS} clients, ${SECONDS} s, accept-encoding gzip, br; median of ${rounds} rounds`,
    );
    console.log(`      answers: ${Math.min(...sizes)}–${Math.max(...sizes)} bytes before compression (median ${median(sizes)})\n`);
    printTable(rows);
    const a = rows[0]!.runs;
    const ratio = median(a.map((r) => r.ratio!));
    const p99 = median(a.map((r) => r.p99Ms));
    const rss = Math.max(...a.map((r) => r.rssMb!), ...rows[1]!.runs.map((r) => r.rssMb!));
    const okRatio = ratio >= 0.25;
    const okP99 = p99 < 25;
    const okErrors = rows.every((row) => row.runs.every((r) => r.errors === 0 && r.non2xx === 0));
    const okRss = rss < 200;
    let okRules = true;
    if (rows[3]) {
      const withRules = median(rows[3].runs.map((r) => r.requestsPerSec));
      const without = median(a.map((r) => r.requestsPerSec));
      const p99Rules = median(rows[3].runs.map((r) => r.p99Ms));
      okRules = withRules >= 0.9 * without && rows[3].runs.every((r) => r.errors === 0 && r.non2xx === 0);
      console.log(
        `${okRules ? 'PASS' : 'FAIL'}  (c) with rules: ${fmt(withRules)} req/s, ${fmt((withRules / without) * 100, 1)} % of (a) ` +
          `(target ≥ 90 %), p99 ${p99Rules} ms against ${p99} ms`,
      );
    }
    console.log(`\n${okRatio ? 'PASS' : 'FAIL'}  (a) throughput: ${fmt(ratio * 100, 1)} % of bare (target ≥ 25 %)`);
    console.log(`${okP99 ? 'PASS' : 'FAIL'}  (a) p99: ${p99} ms (target < 25 ms)`);
    console.log(`${okErrors ? 'PASS' : 'FAIL'}  every answer 200, no errors`);
    console.log(`${okRss ? 'PASS' : 'FAIL'}  server RSS under load: ${fmt(rss)} MB (target < 200 MB)`);
    if (process.env.BENCH_SKIP_GROWTH === '1') return okRatio && okP99 && okErrors && okRss && okRules;

    console.log('\n## Availability: growth with the number of bookings (query + life-cycle probe, 500 sequential calls)');
    const body = { dataPrenotazione: tomorrow, orarioInizio: '10:00', orarioFine: '11:00' };
    const growthSizes = [1_000, 10_000, 100_000, 1_000_000];
    await database.db.execute(sql`delete from prenotazioni where stato <> 'attiva'`);
    await database.db.execute(sql`vacuum analyze prenotazioni`);
    let have = 0;
    const timings: { size: number; median: number; p95: number }[] = [];
    for (const size of growthSizes) {
      await growHistory(database, have, size);
      have = size;
      const t = await timeRequests(database, body, 500);
      timings.push({ size, ...t });
      console.log(`      ${fmt(size).padStart(9)} past bookings: median ${t.median.toFixed(3)} ms, p95 ${t.p95.toFixed(3)} ms`);
    }
    const growth = timings.at(-1)!.median / timings[0]!.median;
    const okGrowth = growth < 2;
    console.log(`${okGrowth ? 'PASS' : 'FAIL'}  growth 1,000 → 1,000,000 bookings: ${growth.toFixed(2)}× (target < 2×)`);

    const from = `('${tomorrow}'::date + time '10:00') at time zone '${TZ}'`;
    const to = `('${tomorrow}'::date + time '11:00') at time zone '${TZ}'`;
    // The bikes part of the prepared statement (service.ts, prepareAvailable) for one window.
    const plan = await sqlQuery(
      bench.url,
      `explain (analyze, costs off, timing off, summary on)
       select b.* from biciclette b
        where b.stato in ('disponibile', 'prenotata')
          and b.id <> all (array(select p.bici_id from prenotazioni p
                                  where p.stato = 'attiva'
                                    and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${from}, ${to}, '[)')))`,
    );
    console.log('      EXPLAIN ANALYZE of the availability query at 1,000,000 past bookings:');
    for (const row of plan.rows as { 'QUERY PLAN': string }[]) console.log(`        ${row['QUERY PLAN']}`);
    return okRatio && okP99 && okErrors && okRss && okRules && okGrowth;
  } finally {
    await bench.close();
  }
}
