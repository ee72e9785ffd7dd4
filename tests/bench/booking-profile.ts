/**
 * Where a booking's time goes (issue 51): `npm run bench -- booking-profile`.
 *
 * The guard's booking row (50 clients, each request its own user, bike and hour: every answer a
 * 201), on a PostgreSQL of its own started with pg_stat_statements, while a second connection
 * samples `pg_stat_activity` every few milliseconds. It prints:
 * - the rate and the p99, as the guard measures them;
 * - what the app's connections were doing in the samples: running (on a CPU or waiting for one),
 *   waiting for a lock (which), idle in a transaction (waiting for the app: a round trip),
 *   committing (WAL), or idle in the pool;
 * - the statements by total time in PostgreSQL, with their calls and rows (triggers' statements
 *   included: `pg_stat_statements.track = all`).
 * With BENCH_CPU_PROF=1 the app process also writes a V8 CPU profile to .tmp/cpu-prof/.
 * It measures; it sets no target (the guard holds the ratio).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { connectDatabase } from '../../src/server/db/client.js';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { createLogger } from '../../src/server/logger.js';
import { bookingBody, bookingDays } from './bookings.js';
import { sessionsFor } from './guard.js';
import { fmt, load, startBenchServer } from './harness.js';

const CONNECTIONS = 50;
const AMOUNT = Number(process.env.BENCH_BOOKINGS ?? 3000);
const WARMUP = 200;
const SAMPLE_MS = 3;

export async function benchBookingProfile(): Promise<boolean> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-booking-profile-'));
  const embedded = await startEmbeddedPostgres(dir, createLogger('warn'), {
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.track_planning': 'on', track_io_timing: 'on' },
  });
  const database = connectDatabase(embedded.url, { max: 4 });
  const sampler = new pg.Client({ connectionString: embedded.adminUrl });
  try {
    await runMigrations(database.db);
    await sampler.connect();
    await sampler.query(`create extension if not exists pg_stat_statements`);
    const { db } = database;
    await db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, 50) g`);
    const users = await db.execute<{ id: number }>(sql`
      insert into users (nome, cognome, email, password_hash, is_residente)
      select 'Utente', 'P' || g, 'profile' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, ${AMOUNT + WARMUP}::int) g returning id`);
    const cookies = await sessionsFor(db, users.rows.map((r) => r.id));
    const days = await bookingDays(db, AMOUNT + WARMUP);
    const appDb = (await sampler.query<{ datname: string }>(`select current_database() as datname`)).rows[0]!.datname;
    const target = new URL(embedded.url).pathname.slice(1) || appDb;

    const server = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: embedded.url });
    const states = new Map<string, number>();
    let samples = 0;
    let result;
    try {
      const headers = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: server.base };
      const plan = { connections: CONNECTIONS, seconds: 0, method: 'POST', headers, bodyOrder: 'sequence' as const, cookieOrder: 'sequence' as const };
      await load(`${server.base}/api/prenotazioni`, {
        ...plan,
        amount: WARMUP,
        bodies: Array.from({ length: WARMUP }, (_, i) => bookingBody(AMOUNT + i, days)),
        cookies: cookies.slice(AMOUNT, AMOUNT + WARMUP),
      });
      await sampler.query(`select pg_stat_statements_reset()`);
      let sampling = true;
      const sampling$ = (async () => {
        while (sampling) {
          const { rows } = await sampler.query<{ s: string }>(
            `select coalesce(state, '?') || ' | ' || coalesce(wait_event_type || ':' || wait_event, 'running') || ' | ' ||
                    case when state = 'active' then left(regexp_replace(query, '\\s+', ' ', 'g'), 70) else '' end as s
               from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'
                and query not like 'LISTEN%'`,
            [target],
          );
          samples++;
          for (const r of rows) states.set(r.s, (states.get(r.s) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, SAMPLE_MS));
        }
      })();
      result = await load(`${server.base}/api/prenotazioni`, {
        ...plan,
        amount: AMOUNT,
        bodies: Array.from({ length: AMOUNT }, (_, i) => bookingBody(i, days)),
        cookies: cookies.slice(0, AMOUNT),
      });
      sampling = false;
      await sampling$;
    } finally {
      await server.stop();
    }
    console.log(`\n## Booking profile — ${CONNECTIONS} clients, ${fmt(AMOUNT)} bookings, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`\n${fmt(result.requestsPerSec)} bookings/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.non2xx} not 2xx, ${result.errors} errors`);
    console.log(`\n### The app's connections, ${fmt(samples)} samples (mean connections per sample in each state)\n`);
    console.log('| state | wait | statement | mean |\n|---|---|---|--:|');
    for (const [k, n] of [...states].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      const [state, wait, query] = k.split(' | ');
      console.log(`| ${state} | ${wait} | ${(query ?? '').replace(/\|/g, '/')} | ${(n / samples).toFixed(2)} |`);
    }
    const { rows } = await sampler.query<{ calls: string; total: number; mean: number; plan: number; rows: string; q: string; toplevel: boolean }>(
      `select calls, total_exec_time + total_plan_time as total, mean_exec_time as mean, mean_plan_time as plan, rows, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as q
         from pg_stat_statements where dbid = (select oid from pg_database where datname = $1) order by total_exec_time + total_plan_time desc limit 25`,
      [target],
    );
    console.log(`\n### Statements by time in PostgreSQL (per booking: calls and ms)\n`);
    console.log('| statement | top | calls/booking | ms/booking (plan + run) | mean plan ms | mean run ms |\n|---|---|--:|--:|--:|--:|');
    for (const r of rows) {
      console.log(
        `| ${r.q.replace(/\|/g, '/')} | ${r.toplevel ? 'y' : 'trigger'} | ${(Number(r.calls) / AMOUNT).toFixed(2)} | ${(r.total / AMOUNT).toFixed(3)} | ${r.plan.toFixed(3)} | ${r.mean.toFixed(3)} |`,
      );
    }
    return result.non2xx === 0 && result.errors === 0;
  } finally {
    await sampler.end().catch(() => undefined);
    await database.close();
    await embedded.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
