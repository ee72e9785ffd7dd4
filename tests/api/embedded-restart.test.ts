import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/client.js';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { bundleEntryPoints, freePort, isAlive, readPostmasterPid, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

/**
 * Issue 32, decision 037: the embedded PostgreSQL stopping under the app (`npm start`'s
 * default). The app restarts it on the same port and data folder and answers again; when it
 * cannot be started again, the process exits with code 1 and a line that says so.
 */
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-embedded-restart-'));
const pgDir = path.join(dataDir, 'postgres');
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
let server: ServerProcess;
let cookies: string[];
/** A bound on a hang, not a speed target: the numbers measured are printed. */
const READY_AGAIN_MS = 15_000;

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = String(await freePort());
  server = await startServer(['node', bundle.file('main')], {
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: 'false',
    ...env,
  });
  return server;
}

beforeAll(async () => {
  bundle = await bundleEntryPoints('embedded-restart');
  await start();
  const database = connectDatabase((await postmaster()).url, { max: 2 });
  try {
    await database.db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, 3) g`);
    ({ cookies } = await usersWithSessions(database.db, 'pgrestart', 20));
    days = allowedDays(await readServiceDays(database.db), { now: new Date(), count: 20, windows: [{ orarioInizio: '09:00', orarioFine: '10:00' }] });
  } finally {
    await database.close();
  }
}, 180_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    stopGroup(server.child, 'SIGTERM');
    await waitForExit(server.child).catch(() => stopGroup(server.child, 'SIGKILL'));
  }
  // Whatever PostgreSQL is left on the folder (none when the app stopped it) goes with it.
  const left = await postmaster().catch(() => undefined);
  if (left && isAlive(left.pid)) process.kill(left.pid, 'SIGKILL');
  await fs.rm(dataDir, { recursive: true, force: true });
  await bundle?.remove();
});

/** The cluster as postmaster.pid describes it: pid, port, and the app database's URL. */
async function postmaster(): Promise<{ pid: number; port: number; url: string }> {
  const { pid, port } = await readPostmasterPid(pgDir);
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  return { pid, port, url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/bicielis` };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms\n${server.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A live PostgreSQL other than `old` on the folder, as its pid file says. */
const newPostmaster = (old: number) =>
  until(async () => {
    const now = await postmaster();
    return now.pid !== old && isAlive(now.pid) ? now : undefined;
  }, READY_AGAIN_MS, 'a new postmaster');

/** Milliseconds from `since` to the first 200 of GET /api/ready. */
const readyAgain = (since: number) =>
  until(async () => {
    const res = await fetch(`${server.url}/api/ready`, { signal: AbortSignal.timeout(3_000) });
    return res.status === 200 ? performance.now() - since : undefined;
  }, READY_AGAIN_MS, 'GET /api/ready 200');

/** A day of its own for each booking, allowed by the rules (tests/helpers/days.ts). */
let days: string[];
let bookings = 0;
async function book(): Promise<Response> {
  const n = bookings++;
  return fetch(`${server.url}/api/prenotazioni`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, cookie: cookies[n]! },
    body: JSON.stringify({
      dataPrenotazione: days[n],
      orarioInizio: '09:00',
      orarioFine: '10:00',
      destinazione: 'Centro',
      biciId: 1 + (n % 3),
    }),
  });
}

/** Stops the postmaster with `signal`, then checks the app restarts it and answers again. */
/** Bookings asked while the database was away and answered 503 (not stored), by earlier calls. */
let refusedBefore = 0;

async function survives(signal: NodeJS.Signals, logged: string) {
  const before = await postmaster();
  expect((await book()).status).toBe(201);
  const from = server.output().length;
  process.kill(before.pid, signal);
  const stoppedAt = performance.now();
  // A booking asked while it is away waits for it (issue 32, decision 038), or is told 503.
  const during = book();
  const after = await newPostmaster(before.pid);
  const restartedMs = performance.now() - stoppedAt;
  const readyMs = await readyAgain(stoppedAt);
  console.log(`      ${signal} of the postmaster: new postmaster in ${Math.round(restartedMs)} ms, /api/ready 200 after ${Math.round(readyMs)} ms`);

  expect(server.child.exitCode).toBeNull();
  const duringStatus = (await during).status;
  expect([201, 503]).toContain(duringStatus);
  expect(isAlive(before.pid)).toBe(false);
  expect(after.port).toBe(before.port);
  expect(readyMs).toBeLessThan(READY_AGAIN_MS);
  const log = server.output().slice(from);
  expect(log).toContain(`PostgreSQL incorporato terminato inaspettatamente (${logged}): lo riavvio sulla porta ${before.port}`);
  expect(log).toContain(`PostgreSQL incorporato riavviato sulla porta ${before.port}`);
  // The app writes again on the restarted cluster.
  const res = await book();
  expect(res.status, await res.clone().text()).toBe(201);
  const database = connectDatabase(after.url, { max: 1 });
  try {
    const rows = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni`);
    // Every booking answered 201 is there; the one told 503 while the database was away is not.
    expect(rows.rows[0]!.n).toBe(bookings - (duringStatus === 503 ? 1 : 0) - refusedBefore);
  } finally {
    await database.close();
  }
  if (duringStatus === 503) refusedBefore++;
}

describe('the embedded PostgreSQL stopping under the app (decision 037)', () => {
  it('kill -9 of the postmaster: restarted on the same port, the app answers again', { timeout: 90_000 }, async () => {
    await survives('SIGKILL', 'segnale SIGKILL');
  });

  it('a fast shutdown of the postmaster (pg_ctl stop -m fast): restarted as well', { timeout: 90_000 }, async () => {
    await survives('SIGINT', 'codice 0');
  });

  it('a cluster that cannot start again: the process exits with code 1 and says why', { timeout: 120_000 }, async () => {
    const before = await postmaster();
    const from = server.output().length;
    process.kill(before.pid, 'SIGKILL');
    // The data folder no longer looks like one: every start fails at once.
    await fs.rename(path.join(pgDir, 'PG_VERSION'), path.join(dataDir, 'PG_VERSION.moved'));
    const stoppedAt = performance.now();
    const code = await waitForExit(server.child, 90_000);
    const exitMs = performance.now() - stoppedAt;
    console.log(`      unstartable cluster: the process exited with ${code} after ${Math.round(exitMs)} ms`);
    const log = server.output().slice(from);
    expect(code, log).toBe(1);
    expect(log).toMatch(/PostgreSQL incorporato terminato e non riavviabile \(5 tentativi falliti in [\d.]+ s; ultimo errore: PostgreSQL è uscito subito/);
    expect(log).toContain('il processo esce con codice 1 perché il supervisore lo riavvii');
    // The stops of the tests above came less than a minute before: each restarted cluster that
    // stopped again so soon counts as a failed attempt of the same outage (a crash loop).
    expect(log.match(/riavvio di PostgreSQL incorporato non riuscito \(tentativo \d\)/g)?.length).toBeGreaterThanOrEqual(1);
    // Within the policy's budget (60 s), and no PostgreSQL of it left running.
    expect(exitMs).toBeLessThan(60_000);
    const left = await postmaster().catch(() => undefined);
    expect(left === undefined || !isAlive(left.pid)).toBe(true);
  });
  it('after that exit, the next start (what a supervisor does) finds the cluster and answers', { timeout: 90_000 }, async () => {
    await fs.rename(path.join(dataDir, 'PG_VERSION.moved'), path.join(pgDir, 'PG_VERSION'));
    await start();
    const res = await book();
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it('the app stopped during a restart (SIGTERM): it exits 0, no PostgreSQL is started after it', { timeout: 90_000 }, async () => {
    const before = await postmaster();
    const from = server.output().length;
    process.kill(before.pid, 'SIGKILL');
    // The pid file of the killed one is removed right before the new PostgreSQL is spawned: the
    // signal then comes while that one starts (its crash recovery).
    await until(async () => (server.output().slice(from).includes('removing stale postmaster.pid') ? true : undefined), READY_AGAIN_MS, 'the restart begun');
    process.kill(server.child.pid!, 'SIGTERM');
    const code = await waitForExit(server.child);
    const log = server.output().slice(from);
    expect(code, log).toBe(0);
    expect(log).not.toContain('non riavviabile');
    // What the restart had started was stopped with the app: no PostgreSQL runs on the folder.
    const left = await postmaster().catch(() => undefined);
    expect(left === undefined || !isAlive(left.pid)).toBe(true);
  });

  it('Ctrl+C (SIGINT to the whole process group, PostgreSQL included) is a stop, not a crash', { timeout: 90_000 }, async () => {
    // With a drain, PostgreSQL's fast shutdown ends long before the app asks it to stop.
    await start({ DRAIN_DELAY_MS: '1000' });
    const from = server.output().length;
    stopGroup(server.child, 'SIGINT');
    const code = await waitForExit(server.child);
    const log = server.output().slice(from);
    expect(code, log).toBe(0);
    expect(log).not.toContain('PostgreSQL incorporato terminato inaspettatamente');
    const left = await postmaster().catch(() => undefined);
    expect(left === undefined || !isAlive(left.pid)).toBe(true);
  });
});
