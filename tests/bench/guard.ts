/**
 * The hot paths' guard (issue 33): `npm run bench -- guard` measures, in one run, each hot
 * path against its ceiling on this machine, and compares each ratio with the one recorded in
 * `tests/bench/guard-record.json` (`npm run bench -- guard --record` writes it). It fails when a
 * ratio falls below 0.85× its record: a regression is seen the day it lands. A benchmark, not
 * part of `npm test`: the closing note of every change to a hot path quotes its table.
 *
 * Ceilings, each in a process of its own with the app's compression plugin:
 * - reads and renders: bare Fastify + one indexed PostgreSQL query per request (a pool of 10;
 *   TechEmpower's "single query"), on the same database;
 * - booking: bare Fastify + one insert transaction per request;
 * - `current-user`: bare Fastify answering the same JSON bytes (no database), measured right after the app.
 *
 * Data: the availability benchmark's (50 bikes, 5,000 users, 200,000 past and 3,000 future
 * bookings) with every rule set (hours, two closures, three planned maintenances) and open
 * waitlist offers; booking runs on a database of its own (each request its own user, bike and
 * hour). 50 clients (10 for the page renders and their ceiling), GUARD_SECONDS (5) per call, BENCH_ROUNDS (3) interleaved rounds: the
 * table gives the median ratio of the rounds. `/dashboard`, `/admin` and `/bici/{numero}` need `npm run build`
 * (dist/web, dist/ssr); without it their rows are skipped, and said so.
 *
 * The first taps (tests/bench/first-tap.ts: navigation to a tap that works, Lighthouse's mobile
 * profile) run once on the built app with the demo data, GUARD_TAP_RUNS (5) opens each; their
 * ratio is the target over the median time (1.5 s first open, 0.8 s repeat: 100 % meets it).
 * GUARD_TAPS=0 skips them.
 *
 * GUARD_ONLY=<text> runs only the paths whose name contains it (case-insensitive), e.g.
 * `GUARD_ONLY=current-user`, `GUARD_ONLY=availability`, `GUARD_ONLY=render`, `GUARD_ONLY=tap`:
 * for working on one path. Each app process's peak RSS under the load is printed per round.
 * With `--record` such a run records only its own rows (a change that moves one path on
 * purpose, said in its commit), and the record says when each was taken.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client.js';
import { foldStatsDelta } from '../../src/server/modules/stats/index.js';
import { zonedToday } from '../../src/shared/time.js';
import { ROOT } from '../helpers/server-process.js';
import { growHistory, horizonDays, randomWindows, seedBase, seedFuture, setBenchRules } from './availability.js';
import { bookingBody, bookingDays } from './bookings.js';
import { startBuiltApp } from './built-app.js';
import { FIRST_TAP_PROFILE, FIRST_TAP_TARGETS, measureFirstTaps } from './first-tap.js';
import { benchDatabase, fmt, load, startBenchServer, type BenchServer, type LoadResult } from './harness.js';
import { guardScaleRows } from './scale.js';

const RECORD_FILE = path.join(import.meta.dirname, 'guard-record.json');
const ONLY = process.env.GUARD_ONLY?.toLowerCase();
/** Whether a path runs (GUARD_ONLY). */
const wanted = (name: string) => !ONLY || name.toLowerCase().includes(ONLY);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.GUARD_SECONDS ?? 5);
/** Seconds the app is left idle after its start before its RSS is read (issue 33: 30). GUARD_IDLE_SECONDS=0 skips it. */
const IDLE_SECONDS = Number(process.env.GUARD_IDLE_SECONDS ?? 30);
const CONNECTIONS = 50;
const TZ = 'Europe/Rome';
const SESSIONS = 200;
/**
 * Clients for the page renders (app and ceiling alike): a render is a person opening a page,
 * and one takes about 170 ms alone today, so 50 clients would leave none answered in a call.
 */
const RENDER_CONNECTIONS = 10;
const BOOKINGS_PER_ROUND = 1_000;
/** The bike page the guard opens: bike 7 of the seeded 50 (numero '7'). */
const BIKE_PAGE = '/bici/7';
/** A ratio below this share of its record fails the guard. */
export const GUARD_FLOOR = 0.85;

const JSON_HEADERS = { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'same-origin' };
const HTML_HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' };

type Ceiling = 'bare + one query' | 'bare + one insert transaction' | 'bare JSON';

interface Sample {
  app: LoadResult;
  ceiling: LoadResult;
}

interface PathResult {
  path: string;
  ceiling: Ceiling;
  samples: Sample[];
}

export interface GuardRecord {
  recordedAt: string;
  commit: string;
  machine: string;
  ratios: Record<string, number>;
  /** Rows recorded since by a run of some paths only (GUARD_ONLY with --record): path → "date commit". */
  updated?: Record<string, string>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ratioOf = (s: Sample) => s.app.requestsPerSec / s.ceiling.requestsPerSec;

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export async function sessionsFor(db: Database['db'], userIds: number[]): Promise<string[]> {
  const tokens = userIds.map(() => randomBytes(32).toString('base64url'));
  const rows = tokens.map((t, i) => ({ h: createHash('sha256').update(t).digest('hex'), u: userIds[i]! }));
  await db.execute(sql`
    insert into sessions (token_hash, user_id, kind, created_at, last_seen_at, expires_at)
    select r.h, r.u, 'session', now(), now(), now() + interval '30 days'
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(h text, u int)`);
  return tokens.map((t) => `bicielis_session=${t}`);
}

/**
 * The reads' data of the guard (and of `npm run bench -- explain`): 50 bikes, 5,000 users,
 * 200,000 past and 3,000 future bookings, every rule, open offers; the horizon's days it filled.
 */
export async function seedGuardReads(database: Database, today: string): Promise<string[]> {
  await seedBase(database);
  const days = await horizonDays(database);
  await seedFuture(database, days);
  await growHistory(database, 0, 200_000);
  await setBenchRules(database, today);
  await seedOffers(database, days);
  // The statistics' pending deltas folded, as the app's `stats-fold` job leaves them every minute
  // (the bench's app process runs no jobs): the seed's 1,033 rows of deltas (one a day) left unfolded had
  // every /admin render sum them twice, 0.8 ms of PostgreSQL each, a state that lasts a minute
  // in production. The scale bench seeds its rollup folded already.
  await foldStatsDelta(database.db);
  // And the dead rows the fold leaves vacuumed away, as autovacuum does for a table this busy.
  await database.db.execute(sql`vacuum analyze stats_delta, contatori_delta`);
  return days;
}

/** Waitlist offers holding bikes in some windows (issue 21), so that the read meets them (before the seeded bookings' hours). */
async function seedOffers(database: Database, days: readonly string[]) {
  await database.db.execute(sql`
    with w as (
      insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
      select 3999 + g, d::date, '05:00', '05:45', (d::date + time '05:00') at time zone ${TZ}, (d::date + time '05:45') at time zone ${TZ}, 'offerta'
        from unnest(${`{${days.slice(2, 12).join(',')}}`}::text[]) with ordinality as x(d, g)
      returning id, user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine)
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, attesa_id, offerta_scade_at)
    select w.user_id, 1 + (w.user_id % 50), w.data_prenotazione, w.orario_inizio, w.orario_fine, w.inizio, w.fine, 'offerta', w.id, now() + interval '1 day'
      from w`);
}

/** Runs `fn` on a fresh server process started with `env`, stopping it after. */
async function withServer<T>(env: Record<string, string>, fn: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await startBenchServer(env);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/** A load with a 2 s warm-up first (JIT, prepared statements, pool, caches). */
async function measured(url: string, plan: Parameters<typeof load>[1]): Promise<LoadResult> {
  await load(url, { ...plan, seconds: 2, amount: undefined });
  return load(url, plan);
}

function check(name: string, r: LoadResult) {
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} answers not 2xx`);
  if (r.total === 0) throw new Error(`${name}: no answer completed in ${r.seconds} s`);
}

export async function benchGuard(): Promise<boolean> {
  const recording = process.argv.includes('--record');
  const web = existsSync(path.join(ROOT, 'dist', 'web', 'index.html')) && existsSync(path.join(ROOT, 'dist', 'ssr', 'entry-server.js'));
  console.log(`\n## Guard: each hot path against its ceiling (issue 33) — ${machine()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (!web) console.log('      (no build in dist/: the /dashboard and /admin renders are skipped; run `npm run build` first)');

  const reads = await benchDatabase();
  const writes = await benchDatabase();
  try {
    const today = zonedToday(new Date(), TZ);
    const days = await seedGuardReads(reads.database, today);
    const cookies = await sessionsFor(reads.database.db, Array.from({ length: SESSIONS }, (_, i) => 3001 + i));
    const admin = await reads.database.db.execute<{ id: number }>(sql`
      insert into users (nome, cognome, email, password_hash, ruolo) values ('Ada', 'Admin', 'guard-admin@example.it', 'x', 'admin') returning id`);
    const [adminCookie] = await sessionsFor(reads.database.db, [admin.rows[0]!.id]);
    const resident = cookies.find((_, i) => (3001 + i) % 2 === 0)!;
    const windows = randomWindows(days, 2000).map((w) => JSON.stringify(w));

    const bookingUsers = ROUNDS * BOOKINGS_PER_ROUND + 500;
    await writes.database.db.execute(sql`
      insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, 50) g`);
    const inserted = await writes.database.db.execute<{ id: number }>(sql`
      insert into users (nome, cognome, email, password_hash, is_residente)
      select 'Utente', 'G' || g, 'guard' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, ${bookingUsers}::int) g returning id`);
    const bookingCookies = await sessionsFor(writes.database.db, inserted.rows.map((r) => r.id));
    const writeDays = await bookingDays(writes.database.db, ROUNDS * (BOOKINGS_PER_ROUND + 100));
    await writes.database.db.execute(sql`create table guard_ceiling (id serial primary key, n int not null, at timestamptz not null default now())`);

    const allPaths: PathResult[] = [
      { path: 'availability, one window', ceiling: 'bare + one query', samples: [] },
      { path: 'availability, 2,000 random windows', ceiling: 'bare + one query', samples: [] },
      { path: 'booking', ceiling: 'bare + one insert transaction', samples: [] },
      { path: 'GET /api/current-user', ceiling: 'bare JSON', samples: [] },
      ...(web
        ? [
            { path: 'render /dashboard', ceiling: 'bare + one query' as const, samples: [] },
            { path: 'render /admin', ceiling: 'bare + one query' as const, samples: [] },
            { path: 'render /bici/{numero}', ceiling: 'bare + one query' as const, samples: [] },
          ]
        : []),
    ];
    const results = allPaths.filter((r) => wanted(r.path));
    if (ONLY) console.log(`      GUARD_ONLY=${ONLY}: ${results.map((r) => r.path).join(', ') || 'no load path'}`);
    const byPath = (p: string) => results.find((r) => r.path === p);
    const rss: { idle?: number; peaks: Record<string, number[]> } = { peaks: {} };
    const runs = (p: string) => byPath(p) !== undefined;
    const base = { connections: CONNECTIONS, seconds: SECONDS };

    for (let round = 0; round < ROUNDS; round++) {
      const availability = runs('availability, one window') || runs('availability, 2,000 random windows');
      const renders = runs('render /dashboard') || runs('render /admin') || runs('render /bici/{numero}');
      const ceilingPost = availability
        ? await withServer({ BENCH_MODE: 'bare-query', BENCH_BARE_METHOD: 'POST', DATABASE_URL: reads.url }, (s) =>
            measured(`${s.base}/const`, { ...base, method: 'POST', headers: JSON_HEADERS, body: '{}' }),
          )
        : undefined;
      const ceilingGet = renders
        ? await withServer({ BENCH_MODE: 'bare-query', BENCH_BARE_METHOD: 'GET', DATABASE_URL: reads.url }, (s) =>
            measured(`${s.base}/const`, { ...base, connections: RENDER_CONNECTIONS, method: 'GET', headers: HTML_HEADERS }),
          )
        : undefined;
      if (availability || renders || runs('GET /api/current-user')) await withServer({ BENCH_MODE: 'app', DATABASE_URL: reads.url, ...(web ? { BENCH_WEB: '1' } : {}) }, async (s) => {
        const headers = { ...JSON_HEADERS, origin: s.base };
        // Issue 33: the app's RSS 30 s after its start, idle (once: the first round).
        if (round === 0 && IDLE_SECONDS > 0) {
          await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
          rss.idle = await s.rssMb();
          console.log(`      the app's RSS ${IDLE_SECONDS} s after its start, idle: ${fmt(rss.idle)} MB`);
        }
        const peakAfter = (name: string) => {
          const mb = s.peakRssMb();
          (rss.peaks[name] ??= []).push(mb);
          return mb;
        };
        if (runs('availability, one window')) {
          const one = await measured(`${s.base}/api/biciclette/available`, { ...base, method: 'POST', headers, body: windows[0], cookies });
          check('availability, one window', one);
          byPath('availability, one window')!.samples.push({ app: one, ceiling: ceilingPost! });
        }
        if (runs('availability, 2,000 random windows')) {
          const random = await measured(`${s.base}/api/biciclette/available`, { ...base, method: 'POST', headers, bodies: windows, cookies });
          check('availability, random windows', random);
          byPath('availability, 2,000 random windows')!.samples.push({ app: random, ceiling: ceilingPost! });
          peakAfter('availability');
        }
        if (runs('GET /api/current-user')) {
          // Its ceiling, bare Fastify sending the same bytes, is measured right after it, in a
          // process started beside the app before the load: both in the same minute of a
          // shared machine's noise (it varied the ratio by ±30 % when 15 s apart).
          const body = await (await fetch(`${s.base}/api/current-user`, { headers: { cookie: resident } })).text();
          const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-guard-'));
          try {
            await fs.writeFile(path.join(dir, 'body.json'), body);
            await withServer({ BENCH_MODE: 'bare', BENCH_BARE_METHOD: 'GET', BENCH_BARE_BODY: path.join(dir, 'body.json') }, async (bare) => {
              // Each client one resident's session, its request built once as the ceiling's is.
              const me = await measured(`${s.base}/api/current-user`, { ...base, method: 'GET', headers: { 'accept-encoding': 'gzip, br' }, cookies, cookieOrder: 'connection' });
              check('current-user', me);
              peakAfter('current-user');
              const ceiling = await measured(`${bare.base}/const`, { ...base, method: 'GET', headers: { 'accept-encoding': 'gzip, br' } });
              byPath('GET /api/current-user')!.samples.push({ app: me, ceiling });
            });
          } finally {
            await fs.rm(dir, { recursive: true, force: true });
          }
        }
        if (renders) {
          // Each page answers 200 with its HTML before it is loaded (a redirect would measure nothing).
          for (const [page, cookie] of [['/dashboard', resident], ['/admin', adminCookie!], [BIKE_PAGE, resident]] as const) {
            const t = performance.now();
            const res = await fetch(`${s.base}${page}`, { headers: { accept: 'text/html', cookie }, redirect: 'manual' });
            const html = await res.text();
            if (round === 0) console.log(`      ${page}: ${res.status}, ${fmt(html.length)} bytes, ${Math.round(performance.now() - t)} ms alone`);
            if (res.status !== 200) throw new Error(`${page}: ${res.status} ${html.slice(0, 200)}`);
          }
          const pages = { ...base, connections: RENDER_CONNECTIONS, method: 'GET' };
          if (runs('render /dashboard')) {
            const dashboard = await measured(`${s.base}/dashboard`, { ...pages, headers: { ...HTML_HEADERS, cookie: resident } });
            check('render /dashboard', dashboard);
            byPath('render /dashboard')!.samples.push({ app: dashboard, ceiling: ceilingGet! });
          }
          if (runs('render /admin')) {
            const adminPage = await measured(`${s.base}/admin`, { ...pages, headers: { ...HTML_HEADERS, cookie: adminCookie! } });
            check('render /admin', adminPage);
            byPath('render /admin')!.samples.push({ app: adminPage, ceiling: ceilingGet! });
          }
          if (runs('render /bici/{numero}')) {
            // The page a bike's QR code opens (issue 34), by a resident: the built page, whose
            // screen reads the bike and the person's booking of it once in the browser.
            const bikePage = await measured(`${s.base}${BIKE_PAGE}`, { ...pages, headers: { ...HTML_HEADERS, cookie: resident } });
            check('render /bici/{numero}', bikePage);
            byPath('render /bici/{numero}')!.samples.push({ app: bikePage, ceiling: ceilingGet! });
          }
        }
        console.log(`      round ${round + 1}: the app's peak RSS under these loads ${fmt(peakAfter('every load'))} MB`);
      });

      if (runs('booking')) {
        const ceilingInsert = await withServer({ BENCH_MODE: 'bare-insert', BENCH_BARE_METHOD: 'POST', DATABASE_URL: writes.url }, (s) =>
          measured(`${s.base}/const`, { ...base, method: 'POST', headers: JSON_HEADERS, body: '{}' }),
        );
        // Each booking its own user, bike and hour: request n of the round is user n, slot n.
        const first = round * BOOKINGS_PER_ROUND;
        const booking = await withServer({ BENCH_MODE: 'app', DATABASE_URL: writes.url }, async (s) => {
          const warm = ROUNDS * BOOKINGS_PER_ROUND + round * 100;
          const headers = { ...JSON_HEADERS, origin: s.base };
          await load(`${s.base}/api/prenotazioni`, {
            connections: CONNECTIONS,
            seconds: 0,
            amount: 100,
            method: 'POST',
            headers,
            bodies: Array.from({ length: 100 }, (_, i) => bookingBody(warm + i, writeDays)),
            bodyOrder: 'sequence',
            cookies: bookingCookies.slice(warm, warm + 100),
            cookieOrder: 'sequence',
          });
          return load(`${s.base}/api/prenotazioni`, {
            connections: CONNECTIONS,
            seconds: 0,
            amount: BOOKINGS_PER_ROUND,
            method: 'POST',
            headers,
            bodies: Array.from({ length: BOOKINGS_PER_ROUND }, (_, i) => bookingBody(first + i, writeDays)),
            bodyOrder: 'sequence',
            cookies: bookingCookies.slice(first, first + BOOKINGS_PER_ROUND),
            cookieOrder: 'sequence',
          });
        });
        check('booking', booking);
        byPath('booking')!.samples.push({ app: booking, ceiling: ceilingInsert });
      }
      console.log(
        `      round ${round + 1}: ` + results.map((r) => `${r.path} ${fmt(ratioOf(r.samples.at(-1)!) * 100, 1)} %`).join(', '),
      );
    }

    // The first taps: target over time, so that a slower tap is a lower ratio, as elsewhere.
    const taps: { path: string; ratio: number; detail: string }[] = [];
    if (web && process.env.GUARD_TAPS !== '0' && wanted('first tap')) {
      const built = await startBuiltApp('guard-taps');
      try {
        const result = await measureFirstTaps(
          built.base,
          {
            resident: await built.sessionOf('residente@bicielis.demo', 'residente-demo-2026'),
            admin: await built.sessionOf('admin@bicielis.demo', 'admin-demo-2026'),
          },
          Number(process.env.GUARD_TAP_RUNS ?? 5),
        );
        for (const page of ['dashboard', 'admin'] as const) {
          for (const open of ['first', 'repeat'] as const) {
            const ms = result[page][open];
            taps.push({ path: `first tap /${page}, ${open} open`, ratio: FIRST_TAP_TARGETS[open] / ms, detail: `${fmt(ms)} ms (target ${fmt(FIRST_TAP_TARGETS[open])} ms)` });
          }
        }
      } finally {
        await built.close();
      }
    }

    const record = existsSync(RECORD_FILE) ? (JSON.parse(await fs.readFile(RECORD_FILE, 'utf8')) as GuardRecord) : undefined;
    const ratios: Record<string, number> = {};
    let ok = true;
    console.log('\n| path | ceiling | app req/s | ceiling req/s | ratio (median of rounds) | app p99 / ceiling p99 ms | record | vs record |');
    console.log('|---|---|--:|--:|--:|--:|--:|--:|');
    for (const r of results) {
      const ratio = median(r.samples.map(ratioOf));
      ratios[r.path] = ratio;
      const recorded = record?.ratios[r.path];
      const versus = recorded ? ratio / recorded : undefined;
      if (versus !== undefined && versus < GUARD_FLOOR) ok = false;
      console.log(
        `| ${r.path} | ${r.ceiling} | ${fmt(median(r.samples.map((s) => s.app.requestsPerSec)))} | ${fmt(median(r.samples.map((s) => s.ceiling.requestsPerSec)))} | ` +
          `**${fmt(ratio * 100, 1)} %** | ${median(r.samples.map((s) => s.app.p99Ms))} / ${median(r.samples.map((s) => s.ceiling.p99Ms))} | ` +
          `${recorded ? `${fmt(recorded * 100, 1)} %` : '—'} | ${versus ? `${fmt(versus, 2)}×${versus < GUARD_FLOOR ? ' **FAIL**' : ''}` : '—'} |`,
      );
    }
    for (const t of taps) {
      ratios[t.path] = t.ratio;
      const recorded = record?.ratios[t.path];
      const versus = recorded ? t.ratio / recorded : undefined;
      if (versus !== undefined && versus < GUARD_FLOOR) ok = false;
      console.log(
        `| ${t.path} | target (${FIRST_TAP_PROFILE}) | ${t.detail} | | **${fmt(t.ratio * 100, 1)} %** | | ` +
          `${recorded ? `${fmt(recorded * 100, 1)} %` : '—'} | ${versus ? `${fmt(versus, 2)}×${versus < GUARD_FLOOR ? ' **FAIL**' : ''}` : '—'} |`,
      );
    }
    // Issue 51's scale rows (tests/bench/scale.ts; seeds 1× and 10×, 10–30 minutes): GUARD_SCALE=1.
    if (process.env.GUARD_SCALE === '1') ok = (await guardScaleRows(ratios, record?.ratios, GUARD_FLOOR)) && ok;
    if (record) console.log(`      record: ${record.recordedAt}, ${record.commit.slice(0, 7)}, ${record.machine}`);
    for (const [p, when] of Object.entries(record?.updated ?? {})) console.log(`      record of ${p}: ${when}`);

    // Issue 33's own targets, beside the guard's comparison with the record (which alone decides its exit).
    const target = (name: string, value: string, goal: string, met: boolean | undefined) =>
      met === undefined ? undefined : console.log(`| ${name} | ${value} | ${goal} | ${met ? 'met' : '**missed**'} |`);
    console.log('\n| issue 33 target | measured | target | |\n|---|--:|--:|--|');
    const random = byPath('availability, 2,000 random windows');
    if (random) {
      const ratio = median(random.samples.map(ratioOf));
      const p99 = median(random.samples.map((x) => x.app.p99Ms / x.ceiling.p99Ms));
      target('availability, random windows, of bare + one query', `${fmt(ratio * 100, 1)} %`, '≥ 80 %', ratio >= 0.8);
      target('  its p99 over the ceiling\'s p99', `${fmt(p99, 2)}×`, '≤ 1.25×', p99 <= 1.25);
    }
    const me = byPath('GET /api/current-user');
    if (me) target('GET /api/current-user, of bare JSON', `${fmt(median(me.samples.map(ratioOf)) * 100, 1)} %`, '≥ 60 %', median(me.samples.map(ratioOf)) >= 0.6);
    if (rss.idle !== undefined) target(`RSS ${IDLE_SECONDS} s after start, idle`, `${fmt(rss.idle)} MB`, '≤ 150 MB', rss.idle <= 150);
    for (const [load, peaks] of Object.entries(rss.peaks)) {
      const mb = median(peaks);
      // Issue 33's load is availability and current-user at 50 clients; issue 51's is the heaviest, the renders after them.
      if (load === 'availability' || load === 'current-user') target(`RSS, peak up to the ${load} load`, `${fmt(mb)} MB`, '≤ 200 MB', mb <= 200);
      else target('RSS, peak with the page renders too (issue 51)', `${fmt(mb)} MB`, '≤ 200 MB', mb <= 200);
    }
    for (const t of taps) target(t.path, t.detail.split(' (')[0]!, t.detail.split('target ')[1]?.replace(')', '') ?? '', t.ratio >= 1);

    if (recording) {
      const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
      const at = new Date().toISOString();
      // A run of some paths only (GUARD_ONLY) records those rows and keeps the others as they were.
      const next: GuardRecord =
        ONLY && record
          ? {
              ...record,
              ratios: { ...record.ratios, ...ratios },
              updated: { ...record.updated, ...Object.fromEntries(Object.keys(ratios).map((p) => [p, `${at} ${commit.slice(0, 7)}`])) },
            }
          : { recordedAt: at, commit, machine: machine(), ratios };
      await fs.writeFile(RECORD_FILE, `${JSON.stringify(next, null, 2)}\n`);
      console.log(`      recorded in ${path.relative(ROOT, RECORD_FILE)}`);
    }
    console.log(ok ? `PASS  every ratio at least ${GUARD_FLOOR}× its record` : `FAIL  a ratio fell below ${GUARD_FLOOR}× its record`);
    return ok;
  } finally {
    await reads.close();
    await writes.close();
  }
}
