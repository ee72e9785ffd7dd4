import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/db/embedded.js';
import { startScheduler, type JobSpec } from '../../src/server/jobs/scheduler.js';
import { createLogger } from '../../src/server/logger.js';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { bundleEntryPoints, freePort, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';
import { loadDays, slotBooking, until } from '../helpers/booking-load.js';
import { allowedDay, readServiceDays, type ServiceDays } from '../helpers/days.js';

/**
 * Issue 32: the database may restart. Two app processes reach one PostgreSQL through
 * `DATABASE_URL`, as a deployment with a database server of its own does, under a booking
 * load from 16 clients. Then every backend of the apps is terminated (`pg_terminate_backend`),
 * and later the cluster is restarted (a fast shutdown, then a start on the same port). Both
 * processes stay up; no answer is 500 or a dropped connection; a 503 (with Retry-After) comes
 * only while the database is away; bookings are taken again within 2 s of its return; every
 * acknowledged booking is there once; a rules change made by the other process right after
 * the return is seen. A job scheduled every second, whose tick falls in the outage, runs that
 * occurrence once when the database is back, even when the outage begins under a run.
 */
const TZ = 'Europe/Rome';
const BIKES = 50;
const USERS = 3000;
const log = createLogger('silent');

let dir: string;
let port: number;
let cluster: EmbeddedDatabase;
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
let apps: ServerProcess[] = [];
let database: Database;
let cookies: string[];
let adminCookie: string;
/** The rules before the test changes them, and the days the load books under them (tests/helpers/days.ts). */
let service: ServiceDays;
let days: string[];

async function startApp(): Promise<ServerProcess> {
  const appPort = String(await freePort());
  return startServer(['node', bundle.file('main')], {
    PORT: appPort,
    HOST: '127.0.0.1',
    DATABASE_URL: cluster.url,
    DATA_DIR: path.join(dir, `app-${appPort}`),
    PUBLIC_URL: `http://127.0.0.1:${appPort}`,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
  });
}

/** A fast shutdown of the cluster (what `pg_ctl restart -m fast` does), then a start on the same port. */
async function restartCluster(downForMs = 0) {
  await cluster.stop();
  const stoppedAt = performance.now();
  if (downForMs > 0) await new Promise((resolve) => setTimeout(resolve, downForMs));
  cluster = await startEmbeddedPostgres(dir, log, { port });
  return { stoppedAt, upAt: performance.now() };
}

beforeAll(async () => {
  bundle = await bundleEntryPoints('db-restart');
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-db-restart-'));
  port = await freePort();
  cluster = await startEmbeddedPostgres(dir, log, { port });
  apps = [await startApp()];
  apps.push(await startApp());
  database = connectDatabase(cluster.url, { max: 2 });
  await database.db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, ${BIKES}::int) g`);
  ({ cookies } = await usersWithSessions(database.db, 'riavvio', USERS));
  const token = randomBytes(32).toString('base64url');
  await database.db.execute(sql`
    with a as (insert into users (nome, cognome, email, password_hash, ruolo) values ('Ada', 'Admin', 'admin-riavvio@example.it', 'x', 'admin') returning id)
    insert into sessions (token_hash, user_id, kind, expires_at)
    select ${createHash('sha256').update(token).digest('hex')}, a.id, 'session', now() + interval '1 day' from a`);
  adminCookie = `bicielis_session=${token}`;
  service = await readServiceDays(database.db);
  days = await loadDays(database.db, USERS, BIKES);
}, 240_000);

afterAll(async () => {
  for (const app of apps) {
    stopGroup(app.child, 'SIGTERM');
    await waitForExit(app.child).catch(() => stopGroup(app.child, 'SIGKILL'));
  }
  await database?.close();
  await cluster?.stop();
  await bundle?.remove();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number | 'error';
  id?: number;
  retryAfter?: string | null;
  sentAt: number;
  at: number;
}

/** Booking n: a bike, day and hour of its own, so that every attempt may succeed. */
const bookingBody = (n: number) => slotBooking(n, days, BIKES);

/** 16 clients, every second one on the other process, each user booking once. */
function bookingLoad(first: number, count: number) {
  const outcomes: Outcome[] = [];
  let next = first;
  let stopped = false;
  const worker = async (w: number) => {
    const target = apps[w % 2]!;
    while (!stopped && next < first + count) {
      const n = next++;
      const sentAt = performance.now();
      try {
        const res = await fetch(`${target.url}/api/prenotazioni`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: target.url, cookie: cookies[n]! },
          body: JSON.stringify(bookingBody(n)),
        });
        const body = (await res.json().catch(() => ({}))) as { id?: number };
        outcomes.push({ status: res.status, id: body.id, retryAfter: res.headers.get('retry-after'), sentAt, at: performance.now() });
      } catch {
        outcomes.push({ status: 'error', sentAt, at: performance.now() });
      }
    }
  };
  const done = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
  return {
    outcomes,
    created: () => outcomes.filter((o) => o.status === 201).length,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

const call = (app: ServerProcess, method: string, url: string, cookie: string, body?: unknown) =>
  fetch(`${app.url}${url}`, {
    method,
    headers: { origin: app.url, cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('the database restarts under a booking load from two processes', () => {
  it('terminated backends, then a cluster restart: no exit, no 500, 503 only while away, bookings within 2 s, nothing lost or doubled', { timeout: 180_000 }, async () => {
    const load = bookingLoad(0, USERS);
    await until(() => load.created() >= 40);

    // 1. Every backend of the apps ends at once: pools, LISTEN connections, lock sessions.
    const terminatedAt = performance.now();
    const { rows } = await database.db.execute<{ n: number }>(sql`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2);
    const createdAtTermination = load.created();
    await until(() => load.created() >= createdAtTermination + 40);

    // 2. The cluster restarts; the other process changes the rules as soon as it is back.
    const { stoppedAt, upAt } = await restartCluster();
    const rules = (await (await call(apps[1]!, 'GET', '/api/admin/regole', adminCookie)).json()) as Record<string, unknown>;
    const { updatedAt: _u, updatedBy: _b, ...current } = rules;
    const changed = await call(apps[1]!, 'PUT', '/api/admin/regole', adminCookie, { ...current, orizzonteGiorni: 10 });
    expect(changed.status, await changed.clone().text()).toBe(200);
    // Both processes LISTEN again (one connection each), within 2 s of the return.
    await until(async () => {
      const { rows: listening } = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where application_name = 'bicielis-listener' and datname = current_database()`,
      );
      return listening[0]!.n === 2;
    }, 10_000);
    const listeningAgainMs = performance.now() - upAt;
    const readyAgainMs = await (async () => {
      await until(async () => (await fetch(`${apps[0]!.url}/api/ready`)).status === 200, 10_000);
      return performance.now() - upAt;
    })();
    const createdAtUp = load.created();
    await until(() => load.created() >= createdAtUp + 40);
    await load.stop();

    // Both processes ran through it.
    for (const app of apps) {
      expect(app.child.exitCode, app.output().slice(-3000)).toBeNull();
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    }
    const { outcomes } = load;
    const byStatus = new Map<string, number>();
    for (const o of outcomes) byStatus.set(String(o.status), (byStatus.get(String(o.status)) ?? 0) + 1);
    const unavailable = outcomes.filter((o) => o.status === 503);
    const firstAfterUp = Math.min(...outcomes.filter((o) => o.status === 201 && o.sentAt >= upAt).map((o) => o.at - upAt));
    console.log(
      `      answers ${JSON.stringify(Object.fromEntries(byStatus))}; cluster down ${Math.round(upAt - stoppedAt)} ms; ` +
        `first booking sent after the return answered in ${Math.round(firstAfterUp)} ms; /api/ready 200 again after ${Math.round(readyAgainMs)} ms, LISTEN again after ${Math.round(listeningAgainMs)} ms`,
    );
    // Only 201, and 503 with Retry-After while the database was away: no 500, no 409 (an
    // attempt applied twice would meet the one-active-booking rule), no dropped connection.
    expect([...byStatus.keys()].filter((s) => s !== '201' && s !== '503')).toEqual([]);
    for (const o of unavailable) {
      expect(o.retryAfter).toBe('2');
      const duringTermination = o.sentAt <= terminatedAt + 1_000 && o.at >= terminatedAt;
      const duringRestart = o.at >= stoppedAt - 1_000 && o.sentAt <= upAt + 500;
      expect(duringTermination || duringRestart, JSON.stringify({ o, terminatedAt, stoppedAt, upAt })).toBe(true);
    }
    expect(firstAfterUp).toBeLessThan(2_000);
    expect(listeningAgainMs).toBeLessThan(2_000);

    // Every 201 is in the database, once; nothing else was booked by the load's users.
    const ids = outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    expect(new Set(ids).size).toBe(ids.length);
    const stored = await database.db.execute<{ n: number; found: number }>(sql`
      select count(*)::int as n, count(*) filter (where p.id = any(${`{${ids.join(',')}}`}::int[]))::int as found
        from prenotazioni p join users u on u.id = p.user_id where u.email like 'riavvio%' and p.stato = 'attiva'`);
    expect(stored.rows[0]).toEqual({ n: ids.length, found: ids.length });

    // The rules changed on the other process right after the return: this one sees them.
    // A day the rules allowed before (20 days ahead) is beyond the horizon now (10 days).
    const far = { ...bookingBody(USERS - 1), dataPrenotazione: allowedDay(service, { now: new Date(), from: 20 }) };
    const refused = await call(apps[0]!, 'POST', '/api/prenotazioni', cookies[USERS - 1]!, far);
    expect(refused.status).toBe(400);
  });

  it('a job whose tick falls in the outage runs that occurrence once when the database is back', { timeout: 60_000 }, async () => {
    const jobs = connectDatabase(cluster.url, { max: 3 });
    const runs: Date[] = [];
    const ranAt: number[] = [];
    const job: JobSpec = {
      name: 'prova-ogni-secondo',
      pattern: '* * * * * *',
      lock: 4_209_001,
      run: async (scheduledAt) => {
        runs.push(scheduledAt!);
        ranAt.push(Date.now());
      },
    };
    const scheduler = startScheduler(jobs.pool, TZ, [job], log);
    try {
      await until(() => runs.length >= 2);
      // Down for 2.5 s: two or three ticks fall in the outage.
      const { stoppedAt, upAt } = await restartCluster(2_500);
      const stoppedWall = Date.now() - (performance.now() - stoppedAt);
      const upWall = Date.now() - (performance.now() - upAt);
      await until(() => runs.some((r) => r.getTime() > upWall + 1_000), 15_000);
      const during = runs.filter((r) => r.getTime() >= stoppedWall && r.getTime() <= upWall);
      expect(during.length, JSON.stringify({ runs, ranAt, stoppedWall, upWall })).toBe(1);
      const stored = await jobs.db.execute<{ n: number; distinct: number }>(sql`
        select count(*)::int as n, count(distinct scheduled_at)::int as distinct from job_runs where job = ${job.name}`);
      expect(stored.rows[0]!.n).toBe(stored.rows[0]!.distinct);
      expect(new Set(runs.map((r) => r.getTime())).size).toBe(runs.length);
    } finally {
      await scheduler.stop();
      await jobs.close();
    }
  });
  it('a run the outage cuts before its end is recorded: the ticks it swallowed still run once, as the latest of them', { timeout: 60_000 }, async () => {
    // The race CI met once: a tick ran a moment before the cluster went down, its end not yet
    // recorded. It waited for the database, and its timer skipped the ticks meanwhile
    // (croner's protect): the whole outage ran nothing. Here the run itself holds until the
    // cluster is down, so the race happens every time.
    const jobs = connectDatabase(cluster.url, { max: 3 });
    const runs: Date[] = [];
    let hold: Promise<void> | undefined;
    let held: Date | undefined;
    const job: JobSpec = {
      name: 'prova-interrotta',
      pattern: '* * * * * *',
      lock: 4_209_002,
      run: async (scheduledAt) => {
        runs.push(scheduledAt!);
        if (hold && !held) {
          held = scheduledAt!;
          await hold;
        }
      },
    };
    const scheduler = startScheduler(jobs.pool, TZ, [job], log);
    try {
      await until(() => runs.length >= 1);
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      await until(() => held !== undefined);
      await cluster.stop();
      release();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      cluster = await startEmbeddedPostgres(dir, log, { port });
      const upWall = Date.now();
      await until(() => runs.some((r) => r.getTime() > upWall + 1_000), 15_000);
      const after = runs.filter((r) => r.getTime() > held!.getTime() && r.getTime() <= upWall);
      expect(after.length, JSON.stringify({ held, runs, upWall })).toBe(1);
      // The latest of the swallowed ticks: the one the return falls in, or the one before it.
      expect(upWall - after[0]!.getTime()).toBeLessThan(2_000);
      expect(new Set(runs.map((r) => r.getTime())).size).toBe(runs.length);
    } finally {
      await scheduler.stop();
      await jobs.close();
    }
  });
});
