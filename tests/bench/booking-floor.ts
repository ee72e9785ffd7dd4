/**
 * The floor under the booking (issue 51): `npm run bench -- booking-floor`.
 *
 * The guard compares the app's booking with bare Fastify + one insert transaction into a table
 * of one serial column (`guard_ceiling`). Between the two lies the database's own share of a
 * booking: its row in `prenotazioni`, the exclusion constraint (sede, bike, window: GiST), the
 * one-active-booking index, the other indexes, the foreign keys and the triggers. This bench
 * measures that share on its own, under the guard's load (50 clients, each request its own
 * user, bike and hour: every answer a 201), in interleaved rounds on one database:
 *
 * 1. the ceiling: `bare-insert` (the guard's);
 * 2. the floor: `bare-booking`, bare Fastify and one transaction inserting the booking's row,
 *    nothing of the app (no session, no rules, no early read, no bike lock);
 * 3. the floor without the table's triggers (`alter table … disable trigger user`: the
 *    constraints and indexes alone; the foreign keys' checks are PostgreSQL's internal triggers
 *    and stay);
 * 4. the app's booking, as the guard measures it.
 *
 * Each as a share of the ceiling in the same round, with the CPU each answer cost the server
 * process and PostgreSQL's processes (from /proc: the load generator's is left out). If the floor
 * is at the issue's 25 %, no change to the app reaches it while the invariants and the triggers
 * stay in the database. BENCH_FLOOR_WITHOUT=trigger,… adds the floor without each of those
 * triggers of `prenotazioni` in turn: what each costs.
 * It measures; it sets no target.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { bookingBody, bookingDays } from './bookings.js';
import { sessionsFor } from './guard.js';
import { benchDatabase, fmt, load, startBenchServer, type LoadResult } from './harness.js';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** The app's bookings a round (as the guard: a fixed number, each a new user and slot). */
const AMOUNT = Number(process.env.BENCH_BOOKINGS ?? 1500);
const WARMUP = 100;
/** The bare phases run for this long (as the guard's ceiling), after 2 s to warm. */
const SECONDS = 5;
const KINDS = ['ceiling', 'floor', 'floor, no triggers', 'app'] as const;
/** Triggers of `prenotazioni` whose cost is measured one at a time (BENCH_FLOOR_WITHOUT, comma-separated). */
const WITHOUT = (process.env.BENCH_FLOOR_WITHOUT ?? '').split(',').filter((t) => /^[a-z_]+$/.test(t));
/** One user per bare insert (one active booking each): every bare phase's 2 + SECONDS seconds at up to 4,000 a second. */
const FLOOR_USERS = ROUNDS * (2 + WITHOUT.length) * (2 + SECONDS) * 4_000;
type Kind = (typeof KINDS)[number];

/** CPU seconds (user + system) a process has used so far, from /proc (0 once it is gone). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command's name; in clock ticks (100 a second).
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** The CPU seconds of every PostgreSQL process of the machine (the bench's cluster is the only one it starts). */
async function postgresCpuSeconds(): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await fs.readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === 'postgres') total += await cpuSeconds(Number(entry));
  }
  return total;
}

/** A load's result with the CPU it cost per answer: the server process's, PostgreSQL's. */
interface Measured {
  result: LoadResult;
  serverMs: number;
  postgresMs: number;
}

async function withCpu(pid: number, run: () => Promise<LoadResult>): Promise<Measured> {
  const [server0, pg0] = [await cpuSeconds(pid), await postgresCpuSeconds()];
  const result = await run();
  const [server1, pg1] = [await cpuSeconds(pid), await postgresCpuSeconds()];
  const per = (s: number) => (result.total > 0 ? (s * 1000) / result.total : 0);
  return { result, serverMs: per(server1 - server0), postgresMs: per(pg1 - pg0) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function benchBookingFloor(): Promise<boolean> {
  const bench = await benchDatabase();
  const { db } = bench.database;
  const appTotal = ROUNDS * (AMOUNT + WARMUP);
  try {
    await db.execute(sql`create table guard_ceiling (id serial primary key, n int not null, at timestamptz not null default now())`);
    await db.execute(sql`create sequence floor_n`);
    await db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, 50) g`);
    // The app's bookers (with sessions), then the bare inserts' (one each: one active booking per user).
    const users = await db.execute<{ id: number }>(sql`
      insert into users (nome, cognome, email, password_hash, is_residente)
      select 'Utente', 'F' || g, 'floor' || g || '@example.it', 'x', true from generate_series(1, ${appTotal}::int) g returning id`);
    const ids = users.rows.map((r) => r.id);
    const floorUsers = await db.execute<{ first: number }>(sql`
      with u as (insert into users (nome, cognome, email, password_hash, is_residente)
                 select 'Utente', 'B' || g, 'bare' || g || '@example.it', 'x', true from generate_series(1, ${FLOOR_USERS}::int) g returning id)
      select min(id)::int as first from u`);
    const cookies = await sessionsFor(db, ids);
    const days = await bookingDays(db, appTotal);
    const results = new Map<string, { app: Measured; ceiling: Measured }[]>(KINDS.map((k) => [k, []]));
    let nextApp = 0;

    async function run(kind: Kind): Promise<Measured> {
      const env: Record<string, string> =
        kind === 'ceiling'
          ? { BENCH_MODE: 'bare-insert', BENCH_BARE_METHOD: 'POST', DATABASE_URL: bench.url }
          : kind === 'app'
            ? { BENCH_MODE: 'app', DATABASE_URL: bench.url }
            : { BENCH_MODE: 'bare-booking', BENCH_BARE_METHOD: 'POST', DATABASE_URL: bench.url, BENCH_FLOOR_FIRST_USER: String(floorUsers.rows[0]!.first) };
      const server = await startBenchServer(env);
      try {
        const headers = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: server.base };
        if (kind !== 'app') {
          // As the guard's ceiling: 2 s to warm, then SECONDS measured.
          const plan = { connections: CONNECTIONS, method: 'POST', headers, body: '{}' };
          await load(`${server.base}/const`, { ...plan, seconds: 2 });
          return await withCpu(server.pid, () => load(`${server.base}/const`, { ...plan, seconds: SECONDS }));
        }
        // As the guard's booking row: each request its own user, bike and hour.
        const first = nextApp;
        nextApp += AMOUNT + WARMUP;
        const ns = Array.from({ length: AMOUNT + WARMUP }, (_, i) => first + i);
        const plan = { connections: CONNECTIONS, seconds: 0, method: 'POST', headers, bodyOrder: 'sequence' as const, cookieOrder: 'sequence' as const };
        const slice = (from: number, to: number) => ({
          amount: to - from,
          bodies: ns.slice(from, to).map((n) => bookingBody(n, days)),
          cookies: ns.slice(from, to).map((n) => cookies[n]!),
        });
        await load(`${server.base}/api/prenotazioni`, { ...plan, ...slice(0, WARMUP) });
        return await withCpu(server.pid, () => load(`${server.base}/api/prenotazioni`, { ...plan, ...slice(WARMUP, AMOUNT + WARMUP) }));
      } finally {
        await server.stop();
      }
    }

    for (let round = 0; round < ROUNDS; round++) {
      const ceiling = await run('ceiling');
      results.get('ceiling')!.push({ app: ceiling, ceiling });
      for (const kind of ['floor', 'app'] as const) results.get(kind)!.push({ app: await run(kind), ceiling });
      await db.execute(sql`alter table prenotazioni disable trigger user`);
      try {
        results.get('floor, no triggers')!.push({ app: await run('floor, no triggers'), ceiling });
      } finally {
        await db.execute(sql`alter table prenotazioni enable trigger user`);
      }
      // BENCH_FLOOR_WITHOUT=trigger,trigger: the floor without each of these triggers in turn (what each costs).
      for (const name of WITHOUT) {
        await db.execute(sql.raw(`alter table prenotazioni disable trigger ${name}`));
        try {
          const without = await run('floor');
          const key = `floor without ${name}`;
          (results.get(key) ?? results.set(key, []).get(key)!).push({ app: without, ceiling });
        } finally {
          await db.execute(sql.raw(`alter table prenotazioni enable trigger ${name}`));
        }
      }
      const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni`);
      console.log(
        `      round ${round + 1} (${fmt(rows[0]!.n)} bookings in the table): ` +
          [...results.keys()].map((k) => {
            const s = results.get(k)!.at(-1)!;
            return `${k} ${fmt(s.app.result.requestsPerSec)} req/s (${fmt((s.app.result.requestsPerSec / s.ceiling.result.requestsPerSec) * 100, 1)} %)`;
          }).join(', '),
      );
    }

    console.log(`\n## The floor under the booking — ${CONNECTIONS} clients, ${ROUNDS} rounds, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(
      '\n| what | req/s | share of the ceiling (median of rounds) | p50 ms | p99 ms | CPU ms per answer: server process | PostgreSQL | not 2xx |\n|---|--:|--:|--:|--:|--:|--:|--:|',
    );
    let clean = true;
    for (const [kind, samples] of results) {
      const non2xx = samples.reduce((n, s) => n + s.app.result.non2xx + s.app.result.errors, 0);
      clean &&= non2xx === 0;
      const m = (f: (s: { app: Measured; ceiling: Measured }) => number) => median(samples.map(f));
      console.log(
        `| ${kind} | ${fmt(m((s) => s.app.result.requestsPerSec))} | ${fmt(m((s) => s.app.result.requestsPerSec / s.ceiling.result.requestsPerSec) * 100, 1)} % | ` +
          `${m((s) => s.app.result.p50Ms)} | ${m((s) => s.app.result.p99Ms)} | ${fmt(m((s) => s.app.serverMs), 2)} | ${fmt(m((s) => s.app.postgresMs), 2)} | ${non2xx} |`,
      );
    }
    return clean;
  } finally {
    await bench.close();
  }
}
