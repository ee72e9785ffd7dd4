import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/client.js';
import { LISTENER_APPLICATION_NAME } from '../../src/server/db/notifications.js';
import { createLogger } from '../../src/server/logger.js';
import { loadDays, slotBooking, until } from '../helpers/booking-load.js';
import { allowedDay, readServiceDays } from '../helpers/days.js';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { ReplicaPair, waitFor } from '../helpers/replica-pair.js';
import { bundleEntryPoints, freePort, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

/**
 * Issue 50, "a fail-over loses nothing acknowledged": a primary with a synchronous standby,
 * both from the embedded binaries, behind a relay that is the one address the app knows
 * (tests/helpers/replica-pair.ts). Two app processes under a booking load from 16 clients;
 * three times: the primary is killed (`kill -9`), the relay moves to the standby while it is
 * still in recovery, the standby is promoted, and a fresh standby is made for the next run.
 *
 * What must hold: both processes stay up; no answer is 500 (a write that reaches the server
 * in recovery is the database away: 503 with Retry-After, or retried); `/api/ready` answers
 * 503 while the address leads to the server in recovery and 200 after the promotion;
 * bookings are taken again within 5 s; every booking answered 201 is on the last primary.
 */
const BIKES = 100;
const USERS = 8_000;
const RUNS = 3;
/** Bookings answered 201 on each primary before it is killed: the load is flowing. */
const BOOKED_PER_RUN = 30;
/** The bound of issue 50: bookings taken again this soon after the address leads to a primary. */
const BOOKING_AGAIN_MS = 5_000;
const log = createLogger('silent');

let pair: ReplicaPair;
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
const apps: ServerProcess[] = [];
let cookies: string[];
/** The load's users' ids: attempt n is user `userIds[n]`'s, with `cookies[n]`. */
let userIds: number[];
let days: string[];
/** A day 20 days ahead, which the rules allow until the test shortens the horizon to 10. */
let farDay: string;
let adminCookie: string;

async function startApp(name: string): Promise<ServerProcess> {
  const port = String(await freePort());
  return startServer(['node', bundle.file('main')], {
    PORT: port,
    HOST: '127.0.0.1',
    DATABASE_URL: pair.url,
    DATA_DIR: path.join(bundle.dir, `data-${name}`),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: 'false',
  });
}

beforeAll(async () => {
  bundle = await bundleEntryPoints('fail-over');
  pair = await ReplicaPair.start(log);
  await pair.addStandby();
  // The apps migrate the database through the relay, each commit waiting for the standby.
  apps.push(await startApp('a'));
  apps.push(await startApp('b'));
  const database = connectDatabase(pair.primaryUrl, { max: 2 });
  try {
    await database.db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, ${BIKES}::int) g`);
    ({ cookies, ids: userIds } = await usersWithSessions(database.db, 'failover', USERS));
    days = await loadDays(database.db, USERS, BIKES);
    farDay = allowedDay(await readServiceDays(database.db), { now: new Date(), from: 20 });
    const token = randomBytes(32).toString('base64url');
    await database.db.execute(sql`
      with a as (insert into users (nome, cognome, email, password_hash, ruolo) values ('Ada', 'Admin', 'admin-failover@example.it', 'x', 'admin') returning id)
      insert into sessions (token_hash, user_id, kind, expires_at)
      select ${createHash('sha256').update(token).digest('hex')}, a.id, 'session', now() + interval '1 day' from a`);
    adminCookie = `bicielis_session=${token}`;
  } finally {
    await database.close();
  }
}, 180_000);

afterAll(async () => {
  for (const app of apps) {
    stopGroup(app.child, 'SIGTERM');
    await waitForExit(app.child).catch(() => stopGroup(app.child, 'SIGKILL'));
  }
  await pair?.stop();
  await bundle?.remove();
});

interface Outcome {
  n: number;
  status: number | 'error';
  id?: number;
  code?: string;
  retryAfter?: string | null;
  sentAt: number;
  at: number;
}

/** 16 clients, every second one on the other process, each user booking once (a bike, day and hour of its own). */
function bookingLoad() {
  const outcomes: Outcome[] = [];
  let next = 0;
  let stopped = false;
  const worker = async (w: number) => {
    const app = apps[w % 2]!;
    while (!stopped && next < USERS) {
      const n = next++;
      const sentAt = performance.now();
      try {
        const res = await fetch(`${app.url}/api/prenotazioni`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: app.url, cookie: cookies[n]! },
          body: JSON.stringify(slotBooking(n, days, BIKES)),
        });
        const body = (await res.json().catch(() => ({}))) as { id?: number; code?: string };
        outcomes.push({ n, status: res.status, id: body.id, code: body.code, retryAfter: res.headers.get('retry-after'), sentAt, at: performance.now() });
      } catch {
        outcomes.push({ n, status: 'error', sentAt, at: performance.now() });
      }
    }
  };
  const done = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
  return {
    outcomes,
    created: () => outcomes.filter((o) => o.status === 201).length,
    exhausted: () => next >= USERS,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

interface ReadyAnswer {
  app: number;
  status: number | 'error';
  /** The answer's `db` (`down`, `read-only`, `ok`). */
  db?: string;
  sentAt: number;
  at: number;
}

/** GET /api/ready on both processes, every 50 ms, until stopped: what a load balancer's check sees. */
function readinessWatch() {
  const answers: ReadyAnswer[] = [];
  let stopped = false;
  const watch = async (app: number) => {
    while (!stopped) {
      const sentAt = performance.now();
      try {
        const res = await fetch(`${apps[app]!.url}/api/ready`, { signal: AbortSignal.timeout(5_000) });
        const body = (await res.json().catch(() => ({}))) as { db?: string };
        answers.push({ app, status: res.status, db: body.db, sentAt, at: performance.now() });
      } catch {
        answers.push({ app, status: 'error', sentAt, at: performance.now() });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const done = Promise.all(apps.map((_, i) => watch(i)));
  return {
    answers,
    /** The answers to checks sent from `from` on (and before `to`, when given). */
    sent: (from: number, to = Infinity) => answers.filter((a) => a.sentAt >= from && a.at <= to),
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** The app processes' LISTEN connections on the current primary. */
async function listeners(): Promise<number> {
  const database = connectDatabase(pair.primaryUrl, { max: 1 });
  try {
    const { rows } = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    return rows[0]!.n;
  } finally {
    await database.close();
  }
}

/** One fail-over's times, in ms from the kill: the relay moved, the promotion asked and done, /api/ready 200 on both, the first 201 after the promotion, both LISTEN; then the fresh standby's duration. */
interface RunNumbers {
  run: number;
  movedMs: number;
  promoteAskedMs: number;
  promotedMs: number;
  readyAgainMs: number;
  firstBookingMs: number;
  listenersMs: number;
  standbyMs: number;
  /** /api/ready answers while the relay led to the server in recovery. */
  readyInRecovery: string;
  load: string;
}

const ms = (x: number) => Math.round(x);

describe('a fail-over to a synchronous standby under a booking load from two processes (issue 50)', () => {
  it(`${RUNS} runs of kill -9 of the primary, relay moved, standby promoted: no 500, ready 503 in recovery, bookings within 5 s, every 201 kept`, { timeout: 240_000 }, async () => {
    const load = bookingLoad();
    const ready = readinessWatch();
    const numbers: RunNumbers[] = [];
    try {
      for (let run = 1; run <= RUNS; run++) {
        const createdBefore = load.created();
        await until(() => load.created() >= createdBefore + BOOKED_PER_RUN, 30_000);
        expect(load.exhausted(), 'the load ran out of users before the fail-over').toBe(false);
        expect(await pair.replication(), `run ${run}: the standby is synchronous`).toEqual([
          expect.objectContaining({ application_name: pair.standby!.name, state: 'streaming', sync_state: 'sync' }),
        ]);
        const standby = pair.standby!;

        // 1. The primary dies.
        const killedAt = performance.now();
        await pair.killPrimary();
        // 2. The address moves to the standby, still in recovery (read-only).
        pair.relay.moveTo(standby.db.port);
        const movedAt = performance.now();
        // The state to see before promoting: both processes have reached the server in recovery
        // through the new address, and say so on /api/ready twice each after that.
        const reachedAt = await waitFor(() => ((pair.relay.opened.get(standby.db.port) ?? 0) >= 2 ? performance.now() : undefined), 10_000, `run ${run}: the apps reach ${standby.name} through the relay`);
        await waitFor(
          () => (apps.every((_, i) => ready.sent(reachedAt).filter((a) => a.app === i).length >= 2) ? true : undefined),
          10_000,
          `run ${run}: /api/ready asked twice of each process while the relay leads to the server in recovery`,
        );
        expect(await pair.standbyInRecovery()).toBe(true);
        // 3. The standby is promoted.
        const promoteAskedAt = performance.now();
        await pair.promote();
        const promotedAt = performance.now();
        const inRecovery = ready.sent(movedAt, promoteAskedAt);

        // Bookings taken again, readiness back, LISTEN on the new primary.
        const firstBooking = await waitFor(() => load.outcomes.find((o) => o.status === 201 && o.at >= promotedAt), BOOKING_AGAIN_MS * 3, `run ${run}: a booking answered 201 after the promotion`);
        const readyAgain = await waitFor(
          () => {
            const after = apps.map((_, i) => ready.sent(promotedAt).find((a) => a.app === i && a.status === 200));
            return after.every(Boolean) ? Math.max(...after.map((a) => a!.at)) : undefined;
          },
          15_000,
          `run ${run}: /api/ready 200 on both processes after the promotion`,
        );
        const listenersAt = await waitFor(async () => ((await listeners()) === apps.length ? performance.now() : undefined), 15_000, `run ${run}: both processes LISTEN on ${standby.name}`);
        for (const app of apps) expect(app.child.exitCode, app.output().slice(-3000)).toBeNull();

        // 4. A fresh standby for the next run, synchronous again.
        const standbyFrom = performance.now();
        const { phases } = await pair.addStandby();
        const standbyMs = performance.now() - standbyFrom;
        // Requests in flight at the kill, answered after it: they rode through the fail-over.
        const inFlight = load.outcomes.filter((o) => o.sentAt < killedAt && o.at > killedAt);

        const statuses = new Map<string, number>();
        for (const a of inRecovery) statuses.set(String(a.status), (statuses.get(String(a.status)) ?? 0) + 1);
        const saying = new Map<string, number>();
        for (const a of inRecovery) saying.set(String(a.db), (saying.get(String(a.db)) ?? 0) + 1);
        const [one, five, fifteen] = os.loadavg().map((l) => l.toFixed(2));
        const done: RunNumbers = {
          run,
          movedMs: ms(movedAt - killedAt),
          promoteAskedMs: ms(promoteAskedAt - killedAt),
          promotedMs: ms(promotedAt - killedAt),
          readyAgainMs: ms(readyAgain - killedAt),
          firstBookingMs: ms(firstBooking.at - killedAt),
          listenersMs: ms(listenersAt - killedAt),
          standbyMs: ms(standbyMs),
          readyInRecovery: JSON.stringify(Object.fromEntries(statuses)),
          load: `${one} ${five} ${fifteen}`,
        };
        numbers.push(done);
        console.log(
          `      run ${run}: kill → relay moved ${done.movedMs} ms, promote asked ${done.promoteAskedMs} ms, promoted ${done.promotedMs} ms, ` +
            `first 201 ${done.firstBookingMs} ms (${ms(firstBooking.at - promotedAt)} ms after the promotion), /api/ready 200 ${done.readyAgainMs} ms, ` +
            `LISTEN ${done.listenersMs} ms; /api/ready in recovery ${done.readyInRecovery} (db ${JSON.stringify(Object.fromEntries(saying))}); fresh standby in ${done.standbyMs} ms ` +
            `(copy ${ms(phases.copyMs)}, start ${ms(phases.startMs)}, sync ${ms(phases.syncMs)}); in flight at the kill ${inFlight.length} ` +
            `(${inFlight.filter((o) => o.status === 201).length}× 201); load average ${done.load}`,
        );

        // /api/ready said 503 while the address led to a server in recovery: a load balancer
        // sends nothing there. At least two answers per process were seen (waited for above).
        // Soft: every run's numbers are printed and each failed check is reported, run by run.
        expect(inRecovery.length).toBeGreaterThanOrEqual(4);
        expect.soft(done.readyInRecovery, `run ${run}: /api/ready while the relay led to the server in recovery`).toBe(JSON.stringify({ 503: inRecovery.length }));
        expect.soft(firstBooking.at - promotedAt, `run ${run}: first 201 after the promotion`).toBeLessThan(BOOKING_AGAIN_MS);
        expect.soft(readyAgain - promotedAt, `run ${run}: /api/ready 200 on both processes`).toBeLessThan(BOOKING_AGAIN_MS);
        expect.soft(listenersAt - promotedAt, `run ${run}: LISTEN again`).toBeLessThan(BOOKING_AGAIN_MS);
      }
      const createdAfter = load.created();
      await until(() => load.created() >= createdAfter + BOOKED_PER_RUN, 30_000);
    } finally {
      await load.stop();
      await ready.stop();
    }

    // Both processes ran through it.
    for (const app of apps) {
      expect(app.child.exitCode, app.output().slice(-3000)).toBeNull();
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    }
    const { outcomes } = load;
    const byStatus = new Map<string, number>();
    for (const o of outcomes) byStatus.set(String(o.status), (byStatus.get(String(o.status)) ?? 0) + 1);
    const ids = outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    const database = connectDatabase(pair.primaryUrl, { max: 1 });
    let stored: { n: number; found: number };
    let held: Set<number>;
    try {
      // Every booking the load's users hold on the last primary, and how many of the 201s are among them.
      const result = await database.db.execute<{ n: number; found: number }>(sql`
        select count(*)::int as n, count(*) filter (where p.id = any(${`{${ids.join(',')}}`}::int[]))::int as found
          from prenotazioni p join users u on u.id = p.user_id where u.email like 'failover%' and p.stato = 'attiva'`);
      stored = result.rows[0]!;
      const holders = await database.db.execute<{ user_id: number }>(sql`
        select p.user_id from prenotazioni p join users u on u.id = p.user_id where u.email like 'failover%' and p.stato = 'attiva'`);
      held = new Set(holders.rows.map((r) => r.user_id));
    } finally {
      await database.close();
    }
    const others = outcomes.filter((o) => o.status !== 201);
    // A 409 has one explanation only: that user's booking is there already (an attempt whose
    // answer was lost landed, and the one asked again met it). Every user books once.
    const unexplained409 = others.filter((o) => o.status === 409 && !held.has(userIds[o.n]!));
    const unanswered = outcomes.filter((o) => o.status !== 201 && held.has(userIds[o.n]!));
    console.log(
      `      answers ${JSON.stringify(Object.fromEntries(byStatus))}; ${ids.length} bookings answered 201, ${stored.found} of them on the last primary; ` +
        `${stored.n - stored.found} stored without a 201 (${unanswered.map((o) => o.status).join(', ') || 'none'})`,
    );
    // No 500, no dropped connection: only 201, 503 with Retry-After, and explained 409s.
    const errorLines = apps.flatMap((app) => app.output().split('\n').filter((l) => l.includes('"level":50')).slice(0, 2));
    expect([...byStatus.keys()].filter((s) => !['201', '503', '409'].includes(s)), `${JSON.stringify(others.slice(0, 5))}\n${errorLines.join('\n')}`).toEqual([]);
    for (const o of outcomes.filter((x) => x.status === 503)) expect(o.retryAfter, JSON.stringify(o)).toBe('2');
    expect(unexplained409, 'a 409 for a user who holds no booking').toEqual([]);
    // Nothing acknowledged is lost, nothing is doubled.
    expect(new Set(ids).size).toBe(ids.length);
    expect(stored.found).toBe(ids.length);
    expect(numbers).toHaveLength(RUNS);

    // Caches follow: the rules changed on one process after the fail-overs are obeyed by the
    // other at once (its cache dropped on NOTIFY from the new primary). The far day is
    // taken first on that other process, so its cache holds the old horizon.
    const book = (app: ServerProcess, n: number) =>
      fetch(`${app.url}/api/prenotazioni`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.url, cookie: cookies[n]! },
        body: JSON.stringify({ ...slotBooking(n, days, BIKES), dataPrenotazione: farDay }),
      });
    const before = await book(apps[0]!, USERS - 2);
    expect(before.status, await before.clone().text()).toBe(201);
    const admin = { origin: apps[1]!.url, cookie: adminCookie };
    const { updatedAt: _u, updatedBy: _b, ...rules } = (await (await fetch(`${apps[1]!.url}/api/admin/regole`, { headers: admin })).json()) as Record<string, unknown>;
    const changed = await fetch(`${apps[1]!.url}/api/admin/regole`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ ...rules, orizzonteGiorni: 10 }),
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const changedAt = performance.now();
    // The other process's cache, as GET /api/regole shows it, drops within a bound (NOTIFY on the new primary).
    await waitFor(async () => {
      const seen = (await (await fetch(`${apps[0]!.url}/api/regole`, { headers: { cookie: cookies[USERS - 3]! } })).json()) as { orizzonteGiorni?: number | null };
      return seen.orizzonteGiorni === 10 ? true : undefined;
    }, 5_000, 'the other process sees the rules changed after the fail-overs');
    console.log(`      rules changed on one process after the fail-overs: the other saw it after ${ms(performance.now() - changedAt)} ms`);
    const after = await book(apps[0]!, USERS - 1);
    expect(after.status, await after.clone().text()).toBe(400);
    expect(((await after.json()) as { code: string }).code).toBe('BEYOND_HORIZON');
  });
});
