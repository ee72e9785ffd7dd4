/**
 * Flat cost at ten times the data (issue 51): `npm run bench -- scale` measures the four hot
 * paths against their ceilings, as the guard does (tests/bench/guard.ts), on two databases
 * seeded side by side, and says how each ratio moved from today's size to ten times it:
 *
 * - **1×**, today's: 1 sede, 50 bikes, 5,000 users, 200,000 past and 3,000 future bookings;
 * - **10×**: 10 sedi of 50 bikes each (500), 50,000 users, 2,000,000 past and 30,000 future.
 *
 * The history spans the same ~2.7 years at both sizes (ten sedi book ten times as much a day,
 * they do not have ten times the past), and the future bookings fill every bike's horizon the
 * same way (one in the morning, one at midday, per bike and day), so that 10× is today's
 * college ten times over. Every ceiling is measured on its own size's database in the same
 * round, and the rounds alternate 1× and 10× back to back: a shared machine's noise falls on
 * both. Paths (the guard's): availability for one sede (2,000 random windows, each session
 * asking its own home sede), the booking (50 clients, distinct bikes, each request a 201, on
 * the seeded database itself), `GET /api/current-user`, the `/admin` render (needs `npm run
 * build`; without it the row is skipped, and said so). The target: each 10× ratio ≥ 0.85× the
 * 1× ratio (within 15 %).
 *
 * Then, sequentially and in this process, the reads behind those paths (the fleet's picture,
 * each read of the `/admin` render), median time at each size: what grows with the data shows
 * here first, and `EXPLAIN (ANALYZE, BUFFERS)` of it says why.
 *
 * BENCH_ROUNDS (3) rounds, GUARD_SECONDS (5) seconds a load, after a 2 s warm-up.
 * SCALE_ONLY=10 seeds and measures 10× alone (no ratio of ratios).
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { systemClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/client.js';
import { adminBookings, adminDamages, adminOverdue, adminSummary } from '../../src/server/modules/admin/index.js';
import { fleetPictureStatement } from '../../src/server/modules/bookings/availability.js';
import { listTickets } from '../../src/server/modules/interventi/index.js';
import { adminWaitlist } from '../../src/server/modules/waitlist/index.js';
import { adminBookingsQuerySchema } from '../../src/shared/schemas/admin.js';
import { zonedToday } from '../../src/shared/time.js';
import { ROOT } from '../helpers/server-process.js';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { horizonDays, randomWindows, setBenchRules } from './availability.js';
import { sessionsFor } from './guard.js';
import { benchDatabase, fmt, load, startBenchServer, type BenchDb, type BenchServer, type LoadResult } from './harness.js';

const TZ = 'Europe/Rome';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.GUARD_SECONDS ?? 5);
const CONNECTIONS = 50;
/** The guard's: a render is a person opening a page. */
const RENDER_CONNECTIONS = 10;
const SESSIONS = 200;
const BOOKINGS_PER_ROUND = 1_000;
const WARM_BOOKINGS = 100;
/** Hourly slots a bike is booked in by the bench, 18:00–23:00: the seeded bookings end by 17:15. */
const BOOKING_HOURS = [18, 19, 20, 21, 22];
/** A 10× ratio below this share of the 1× ratio misses the target. */
export const SCALE_FLOOR = 0.85;

const JSON_HEADERS = { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'same-origin' };
const HTML_HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' };

export interface ScaleSize {
  name: '1×' | '10×';
  sedi: number;
  bikes: number;
  users: number;
  past: number;
  future: number;
}

export const SIZES: readonly ScaleSize[] = [
  { name: '1×', sedi: 1, bikes: 50, users: 5_000, past: 200_000, future: 3_000 },
  { name: '10×', sedi: 10, bikes: 500, users: 50_000, past: 2_000_000, future: 30_000 },
];

/** A sede's bikes: bike g stands at sede 1 + (g − 1) div 50. */
const BIKES_PER_SEDE = 50;
const sedeOfBike = (bike: number) => 1 + Math.floor((bike - 1) / BIKES_PER_SEDE);

const PATHS = ['availability, one sede', 'booking', 'GET /api/current-user', 'render /admin'] as const;
type PathName = (typeof PATHS)[number];

interface Sample {
  app: LoadResult;
  ceiling: LoadResult;
}

/** One size's database, seeded, with what the loads need. */
interface Seeded {
  size: ScaleSize;
  bench: BenchDb;
  cookies: string[];
  adminCookie: string;
  windows: string[];
  bookingCookies: string[];
  bookingDays: string[];
  seedSeconds: number;
  samples: Record<PathName, Sample[]>;
  reads: Record<string, number>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ratioOf = (s: Sample) => s.app.requestsPerSec / s.ceiling.requestsPerSec;
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/**
 * Seeds `size` set-based (generate_series; the history with the row triggers off, below): sedi,
 * bikes, users (each at a sede), the bench's rules (the guard's), the future bookings (through
 * the triggers, as the app writes them), the history, and `bookers` more users
 * with no booking yet, who book during the bench. Returns the horizon's days.
 */
export async function seedScale(database: Database, size: ScaleSize, today: string, bookers: number): Promise<string[]> {
  const { db } = database;
  await db.execute(sql`insert into sedi (nome) select 'Sede ' || g from generate_series(2, ${size.sedi}::int) g`);
  await db.execute(sql`
    insert into biciclette (numero, modello, sede_id)
    select g::text, (array['City Bike', 'Hybrid Sport', 'Mountain Bike'])[1 + g % 3], 1 + (g - 1) / ${BIKES_PER_SEDE}::int
      from generate_series(1, ${size.bikes}::int) g`);
  // Residents and externals alternate; people spread over the sedi.
  await db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente, sede_id)
    select 'Utente', 'N' || g, 'scale' || g || '@example.it', 'x', g % 2 = 0, 1 + g % ${size.sedi}::int
      from generate_series(1, ${size.users + bookers}::int) g`);
  await setBenchRules(database, today);
  const days = await horizonDays(database);
  // Per bike and day, one booking starting 07:00–08:45 (30 min–2 h 30) and one 12:00–13:45
  // (30 min–3 h 30): never overlapping, all ended by 17:15. One per user, users 1…future.
  await db.execute(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
    select row_number() over (order by d.i, b, h), b, d.day::date, to_char(s, 'HH24:MI'), to_char(e, 'HH24:MI'),
           (d.day::date + s) at time zone ${TZ}, (d.day::date + e) at time zone ${TZ}, 'attiva'
      from unnest(${`{${days.join(',')}}`}::text[]) with ordinality as d(day, i)
     cross join generate_series(1, ${size.bikes}::int) b
     cross join generate_series(0, 1) h
     cross join lateral (select time '00:00' + ((case h when 0 then 28 else 48 end) + (b * 7 + d.i::int * 13 + h * 5) % 8) * interval '15 minutes' as s) st
     cross join lateral (select st.s + (2 + (b * 5 + d.i::int * 3 + h) % (case h when 0 then 9 else 13 end)) * interval '15 minutes' as e) en
     order by d.i, b, h
     limit ${size.future}::int`);
  await db.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
    select p.id, 'simulated', 'sim_scale_' || p.id, 250, 'completed', now()
      from prenotazioni p join users u on u.id = p.user_id
     where p.stato = 'attiva' and not u.is_residente`);
  // The history: one booking every 7 minutes per sede, over the same span at both sizes. Its rows
  // are written with the triggers off (their sede and resident mark given, as the BEFORE triggers
  // would set them) and the statistics' rollup filled in one statement after, as migration 0024
  // does: the per-row triggers made 2,000,000 rows take ~9 minutes on a shared machine.
  const step = 420 / size.sedi;
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (let from = 0; from < size.past; from += 500_000) {
      const to = Math.min(size.past, from + 500_000);
      await tx.execute(sql`
        insert into prenotazioni (user_id, bici_id, sede_id, residente, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
        select u, b, 1 + (b - 1) / ${BIKES_PER_SEDE}::int, u % 2 = 0, (t - interval '1 hour')::date, '10:00', '11:00', t - interval '1 hour', t,
               case when g % 10 = 0 then 'cancellata' else 'completata' end, t - interval '1 day'
          from (select g, 1 + g % ${size.users}::int as u, 1 + g % ${size.bikes}::int as b,
                       now() - interval '2 hours' - (g * ${step}::float8 * interval '1 second') as t
                  from generate_series(${from + 1}::int, ${to}::int) g) s`);
    }
    await tx.execute(sql`
      insert into stats_giornaliere as s (day, kind, key, rides, cancellations, seconds)
      select p.data_prenotazione, d.kind, d.key, count(*) filter (where p.stato = 'completata'), count(*) filter (where p.stato = 'cancellata'),
             coalesce(sum(round(extract(epoch from p.fine - p.inizio))::bigint) filter (where p.stato = 'completata'), 0)
        from prenotazioni p
       cross join lateral (values ('bike', p.bici_id), ('day', 0), ('hour', left(p.orario_inizio, 2)::int),
                                  ('res', case when p.residente then 1 else 0 end), ('sede', p.sede_id)) d(kind, key)
       where p.stato in ('completata', 'cancellata')
       group by 1, 2, 3
          on conflict (kind, day, key) do update
         set rides = s.rides + excluded.rides, cancellations = s.cancellations + excluded.cancellations, seconds = s.seconds + excluded.seconds`);
    // The rollup's totals (decision 065), which its triggers, off here, would have kept.
    await tx.execute(sql`
      insert into contatori (nome, valore)
      select 'corse', coalesce(sum(rides), 0) from stats_giornaliere where kind = 'day'
      union all select 'cancellazioni', coalesce(sum(cancellations), 0) from stats_giornaliere where kind = 'day'
          on conflict (nome) do update set valore = excluded.valore`);
  });
  await db.execute(sql`vacuum analyze`);
  return days;
}

/** The request body of booking n: bike 1 + n mod bikes, the (n div bikes)-th of the bench's evening slots. */
function bookingBody(n: number, size: ScaleSize, days: readonly string[]): string {
  const slot = Math.floor(n / size.bikes);
  const day = days[Math.floor(slot / BOOKING_HOURS.length)];
  if (!day) throw new Error('more bookings than evening slots in the horizon');
  const hour = BOOKING_HOURS[slot % BOOKING_HOURS.length]!;
  return JSON.stringify({ dataPrenotazione: day, orarioInizio: `${hour}:00`, orarioFine: `${hour + 1}:00`, destinazione: 'Centro', biciId: 1 + (n % size.bikes) });
}

async function prepare(size: ScaleSize, today: string): Promise<Seeded> {
  const bench = await benchDatabase();
  const { db } = bench.database;
  const bookings = ROUNDS * (BOOKINGS_PER_ROUND + WARM_BOOKINGS);
  const t = performance.now();
  const days = await seedScale(bench.database, size, today, bookings);
  const seedSeconds = (performance.now() - t) / 1000;
  // 200 sessions of people with a booking ahead, spread over the sedi (user g's home is 1 + g mod sedi).
  const cookies = await sessionsFor(db, Array.from({ length: SESSIONS }, (_, i) => 1 + i * Math.floor(size.future / SESSIONS)));
  const admin = await db.execute<{ id: number }>(sql`
    insert into users (nome, cognome, email, password_hash, ruolo) values ('Ada', 'Admin', 'scale-admin@example.it', 'x', 'admin') returning id`);
  const [adminCookie] = await sessionsFor(db, [admin.rows[0]!.id]);
  // Booking n is made by user users + 1 + n, at the sede of the bike it books.
  await db.execute(sql`
    update users set sede_id = 1 + ((id - ${size.users}::int - 1) % ${size.bikes}::int) / ${BIKES_PER_SEDE}::int
     where id > ${size.users}::int and ruolo <> 'admin'`);
  const bookingCookies = await sessionsFor(db, Array.from({ length: bookings }, (_, n) => size.users + 1 + n));
  const service = await readServiceDays(db);
  const bookingDays = allowedDays(service, {
    now: new Date(),
    count: Math.ceil(bookings / size.bikes / BOOKING_HOURS.length),
    windows: [{ orarioInizio: '18:00', orarioFine: '19:00' }, { orarioInizio: '22:00', orarioFine: '23:00' }],
  });
  await db.execute(sql`create table guard_ceiling (id serial primary key, n int not null, at timestamptz not null default now())`);
  if (sedeOfBike(size.bikes) !== size.sedi) throw new Error('bikes and sedi do not match');
  return {
    size,
    bench,
    cookies,
    adminCookie: adminCookie!,
    windows: randomWindows(days, 2000).map((w) => JSON.stringify(w)),
    bookingCookies,
    bookingDays,
    seedSeconds,
    samples: Object.fromEntries(PATHS.map((p) => [p, []])) as unknown as Record<PathName, Sample[]>,
    reads: {},
  };
}

async function withServer<T>(env: Record<string, string>, fn: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await startBenchServer(env);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

async function measured(url: string, plan: Parameters<typeof load>[1]): Promise<LoadResult> {
  await load(url, { ...plan, seconds: 2, amount: undefined });
  return load(url, plan);
}

function check(name: string, r: LoadResult) {
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} answers not 2xx`);
  if (r.total === 0) throw new Error(`${name}: no answer completed in ${r.seconds} s`);
}

/** One round of the four paths on one size, each with its ceiling. */
async function round(s: Seeded, index: number, web: boolean) {
  const url = s.bench.url;
  const base = { connections: CONNECTIONS, seconds: SECONDS };
  const ceilingPost = await withServer({ BENCH_MODE: 'bare-query', BENCH_BARE_METHOD: 'POST', DATABASE_URL: url }, (srv) =>
    measured(`${srv.base}/const`, { ...base, method: 'POST', headers: JSON_HEADERS, body: '{}' }),
  );
  const ceilingGet = web
    ? await withServer({ BENCH_MODE: 'bare-query', BENCH_BARE_METHOD: 'GET', DATABASE_URL: url }, (srv) =>
        measured(`${srv.base}/const`, { ...base, connections: RENDER_CONNECTIONS, method: 'GET', headers: HTML_HEADERS }),
      )
    : undefined;
  await withServer({ BENCH_MODE: 'app', DATABASE_URL: url, ...(web ? { BENCH_WEB: '1' } : {}) }, async (app) => {
    const headers = { ...JSON_HEADERS, origin: app.base };
    const availability = await measured(`${app.base}/api/biciclette/available`, { ...base, method: 'POST', headers, bodies: s.windows, cookies: s.cookies });
    check(`${s.size.name} availability`, availability);
    s.samples['availability, one sede'].push({ app: availability, ceiling: ceilingPost });

    const body = await (await fetch(`${app.base}/api/current-user`, { headers: { cookie: s.cookies[0]! } })).text();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-scale-'));
    try {
      await fs.writeFile(path.join(dir, 'body.json'), body);
      await withServer({ BENCH_MODE: 'bare', BENCH_BARE_METHOD: 'GET', BENCH_BARE_BODY: path.join(dir, 'body.json') }, async (bare) => {
        const me = await measured(`${app.base}/api/current-user`, { ...base, method: 'GET', headers: { 'accept-encoding': 'gzip, br' }, cookies: s.cookies, cookieOrder: 'connection' });
        check(`${s.size.name} current-user`, me);
        const ceiling = await measured(`${bare.base}/const`, { ...base, method: 'GET', headers: { 'accept-encoding': 'gzip, br' } });
        s.samples['GET /api/current-user'].push({ app: me, ceiling });
      });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }

    if (web && ceilingGet) {
      const res = await fetch(`${app.base}/admin`, { headers: { accept: 'text/html', cookie: s.adminCookie }, redirect: 'manual' });
      const html = await res.text();
      if (res.status !== 200 || !html.includes('data-prerendered="server"')) throw new Error(`${s.size.name} /admin: ${res.status}, not rendered on the server`);
      const page = await measured(`${app.base}/admin`, { ...base, connections: RENDER_CONNECTIONS, method: 'GET', headers: { ...HTML_HEADERS, cookie: s.adminCookie } });
      check(`${s.size.name} render /admin`, page);
      s.samples['render /admin'].push({ app: page, ceiling: ceilingGet });
    }
  });

  const ceilingInsert = await withServer({ BENCH_MODE: 'bare-insert', BENCH_BARE_METHOD: 'POST', DATABASE_URL: url }, (srv) =>
    measured(`${srv.base}/const`, { ...base, method: 'POST', headers: JSON_HEADERS, body: '{}' }),
  );
  // Each booking its own user, bike and evening hour: request n of the round is booker n, slot n.
  const first = index * (BOOKINGS_PER_ROUND + WARM_BOOKINGS);
  const booking = await withServer({ BENCH_MODE: 'app', DATABASE_URL: url }, async (app) => {
    const headers = { ...JSON_HEADERS, origin: app.base };
    const run = (from: number, amount: number) =>
      load(`${app.base}/api/prenotazioni`, {
        connections: CONNECTIONS,
        seconds: 0,
        amount,
        method: 'POST',
        headers,
        bodies: Array.from({ length: amount }, (_, i) => bookingBody(from + i, s.size, s.bookingDays)),
        bodyOrder: 'sequence',
        cookies: s.bookingCookies.slice(from, from + amount),
        cookieOrder: 'sequence',
      });
    const warm = await run(first + BOOKINGS_PER_ROUND, WARM_BOOKINGS);
    check(`${s.size.name} booking warm-up`, warm);
    return run(first, BOOKINGS_PER_ROUND);
  });
  check(`${s.size.name} booking`, booking);
  s.samples.booking.push({ app: booking, ceiling: ceilingInsert });
  console.log(
    `      round ${index + 1}, ${s.size.name} (load average ${loadAverage()}): ` +
      PATHS.filter((p) => s.samples[p].length > index).map((p) => `${p} ${fmt(ratioOf(s.samples[p][index]!) * 100, 1)} %`).join(', '),
  );
}

/** The reads behind the paths, one after another in this process: median ms of `n` calls each. */
async function timeReads(s: Seeded, n = 15): Promise<Record<string, number>> {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: s.bench.url, PUBLIC_URL: 'http://127.0.0.1' });
  const { db } = s.bench.database;
  const deps = { db, clock: systemClock, config };
  const minutes = { hold: 30, noShow: 30 };
  // One sede's picture (decision 064): the first sede's, as a request for it reads.
  const sede = (await db.execute<{ id: number }>(sql`select min(id)::int as id from sedi`)).rows[0]!.id;
  const reads: Record<string, () => Promise<unknown>> = {
    'fleet picture of one sede (availability, on a change)': () => {
      const now = new Date();
      return db.execute(fleetPictureStatement(sede, now.toISOString(), minutes, new Date(now.getTime() - 15 * 60_000).toISOString()));
    },
    '/admin: adminSummary': () => adminSummary(deps),
    '/admin: adminBookings, page 1': () => adminBookings(deps, adminBookingsQuerySchema.parse({ stato: 'tutti', page: '1', pageSize: '50' })),
    '/admin: adminOverdue': () => adminOverdue(deps),
    '/admin: adminDamages': () => adminDamages(deps),
    '/admin: adminWaitlist': () => adminWaitlist(deps),
    '/admin: listTickets': () => listTickets(db, null, { stato: 'aperti' }),
  };
  const out: Record<string, number> = {};
  for (const [name, read] of Object.entries(reads)) {
    for (let i = 0; i < 3; i++) await read();
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await read();
      times.push(performance.now() - t);
    }
    out[name] = median(times);
  }
  return out;
}

export interface ScaleResult {
  /** Per path: the median ratio to its ceiling at each size, and 10× over 1×. */
  rows: { path: PathName; ratio1: number | undefined; ratio10: number; change: number | undefined }[];
  ok: boolean;
}

/**
 * Seeds both sizes and measures them (BENCH_ROUNDS rounds, 1× then 10× in each); prints the
 * tables. The guard's "scale rows" (GUARD_SCALE=1) are its `rows`.
 */
export async function measureScale(): Promise<ScaleResult> {
  const web = existsSync(path.join(ROOT, 'dist', 'web', 'index.html')) && existsSync(path.join(ROOT, 'dist', 'ssr', 'entry-server.js'));
  const sizes = process.env.SCALE_ONLY === '10' ? SIZES.filter((s) => s.name === '10×') : SIZES;
  const today = zonedToday(new Date(), TZ);
  console.log(`\n## Scale: the hot paths at today's size and at ten times it (issue 51) — load average ${loadAverage()}`);
  if (!web) console.log('      (no build in dist/: the /admin render is skipped; run `npm run build` first)');
  const seeded: Seeded[] = [];
  try {
    for (const size of sizes) {
      const s = await prepare(size, today);
      seeded.push(s);
      console.log(
        `      ${size.name}: ${size.sedi} sed${size.sedi === 1 ? 'e' : 'i'}, ${fmt(size.bikes)} bikes, ${fmt(size.users)} users (+${fmt(s.bookingCookies.length)} who book), ` +
          `${fmt(size.past)} past and ${fmt(size.future)} future bookings, seeded in ${fmt(s.seedSeconds, 1)} s`,
      );
    }
    for (let r = 0; r < ROUNDS; r++) for (const s of seeded) await round(s, r, web);
    for (const s of seeded) s.reads = await timeReads(s);

    console.log(`\n| path | size | app req/s | ceiling req/s | ratio (median of ${ROUNDS}) | app p99 / ceiling p99 ms |`);
    console.log('|---|---|--:|--:|--:|--:|');
    for (const p of PATHS) {
      for (const s of seeded) {
        const samples = s.samples[p];
        if (samples.length === 0) continue;
        console.log(
          `| ${p} | ${s.size.name} | ${fmt(median(samples.map((x) => x.app.requestsPerSec)))} | ${fmt(median(samples.map((x) => x.ceiling.requestsPerSec)))} | ` +
            `${fmt(median(samples.map(ratioOf)) * 100, 1)} % | ${median(samples.map((x) => x.app.p99Ms))} / ${median(samples.map((x) => x.ceiling.p99Ms))} |`,
        );
      }
    }
    const one = seeded.find((s) => s.size.name === '1×');
    const ten = seeded.find((s) => s.size.name === '10×')!;
    const rows: ScaleResult['rows'] = [];
    let ok = true;
    console.log(`\n| path | 1× ratio | 10× ratio | 10× / 1× | target ≥ ${SCALE_FLOOR} |\n|---|--:|--:|--:|--|`);
    for (const p of PATHS) {
      if (ten.samples[p].length === 0) continue;
      const ratio10 = median(ten.samples[p].map(ratioOf));
      const ratio1 = one ? median(one.samples[p].map(ratioOf)) : undefined;
      const change = ratio1 ? ratio10 / ratio1 : undefined;
      if (change !== undefined && change < SCALE_FLOOR) ok = false;
      rows.push({ path: p, ratio1, ratio10, change });
      console.log(
        `| ${p} | ${ratio1 ? `${fmt(ratio1 * 100, 1)} %` : '—'} | ${fmt(ratio10 * 100, 1)} % | ` +
          `${change ? `**${fmt(change, 2)}×**` : '—'} | ${change === undefined ? '' : change >= SCALE_FLOOR ? 'met' : '**missed**'} |`,
      );
    }
    console.log(`\n| read (sequential, median of 15) | ${seeded.map((s) => `${s.size.name} ms`).join(' | ')} | 10× / 1× |`);
    console.log(`|---|${seeded.map(() => '--:|').join('')}--:|`);
    for (const name of Object.keys(ten.reads)) {
      const ms = seeded.map((s) => s.reads[name]!);
      console.log(`| ${name} | ${ms.map((m) => m.toFixed(2)).join(' | ')} | ${one ? `${fmt(ten.reads[name]! / one.reads[name]!, 2)}×` : '—'} |`);
    }
    console.log(`      load average at the end ${loadAverage()}`);
    return { rows, ok };
  } finally {
    for (const s of seeded) await s.bench.close();
  }
}

export async function benchScale(): Promise<boolean> {
  const { ok } = await measureScale();
  console.log(ok ? `PASS  every path at 10× within ${Math.round((1 - SCALE_FLOOR) * 100)} % of its ratio at 1×` : 'FAIL  a path lost more than 15 % of its ratio at 10×');
  return ok;
}

/**
 * The guard's scale rows (GUARD_SCALE=1 `npm run bench -- guard`): each path's 10× ratio over its
 * 1× ratio, as rows of the guard's table, put into `ratios` (so `--record` keeps them) and
 * compared with `recorded` like every row. False when one misses its own target (≥ 0.85) or falls
 * below `floor`× its record. It seeds both sizes: ~10 minutes on a quiet machine, 20–30 on a
 * shared one.
 */
export async function guardScaleRows(ratios: Record<string, number>, recorded: Record<string, number> | undefined, floor: number): Promise<boolean> {
  const { rows, ok } = await measureScale();
  let fine = ok;
  for (const r of rows) {
    if (r.change === undefined) continue;
    const name = `scale 10× / 1×: ${r.path}`;
    ratios[name] = r.change;
    const versus = recorded?.[name] ? r.change / recorded[name] : undefined;
    if (versus !== undefined && versus < floor) fine = false;
    console.log(
      `| ${name} | its ratio at 1× | ${fmt(r.ratio10 * 100, 1)} % (10×) | ${fmt(r.ratio1! * 100, 1)} % (1×) | **${fmt(r.change * 100, 1)} %** | | ` +
        `${recorded?.[name] ? `${fmt(recorded[name] * 100, 1)} %` : '—'} | ${versus ? `${fmt(versus, 2)}×${versus < floor ? ' **FAIL**' : ''}` : '—'} |`,
    );
  }
  return fine;
}
