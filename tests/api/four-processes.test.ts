import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { burstAttempts, burstBikes, burstDay, burstInvariants, countByMessage, countByStatus, quantile, runBurst, sampleRss, startFlags } from '../helpers/booking-burst.js';
import { createTestDatabase } from '../helpers/db.js';
import { bundleEntryPoints, freePort, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

/**
 * Issue 50, "the burst holds at four processes": four real app processes (today's source,
 * bundled as `npm run build` bundles it, started with `npm start`'s flags) on one database,
 * 20,000 booking attempts sent at once on 3 bikes from 400 people. Only 201, 409 and a
 * 503 that says when to come back; PostgreSQL's invariants hold; no process goes over 200 MB
 * of resident memory, read from outside every 100 ms. `npm run bench -- burst` prints the same
 * burst's figures (docs/reliability.md).
 */
const PROCESSES = 4;
const ATTEMPTS = 20_000;
const BIKES = 3;
const USERS = 400;
const RSS_LIMIT_MB = 200;
/**
 * The 20,000 are sent at once, each process reached over at most 500 kept-alive connections, as
 * the reverse proxy in front of them does (OPERATING.md §4). 5,000 new connections at one
 * process overflow its listen queue (511): the kernel drops some, and a client whose connection
 * it dropped after the handshake is reset with no answer, whatever the app does. That shape is
 * measured by `npm run bench -- burst` (docs/reliability.md), not held here.
 */
const CONNECTIONS_PER_PROCESS = 500;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  bundle = await bundleEntryPoints('four-processes', { 'burst-client': 'tests/helpers/burst-client.ts' });
  const flags = startFlags();
  // One after the other: four starts at once on two cores only measure the machine.
  for (let i = 0; i < PROCESSES; i++) {
    const port = String(await freePort());
    servers.push(
      await startServer(['node', ...flags, bundle.file('main')], {
        PORT: port,
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        DATA_DIR: path.join(bundle.dir, `data-${i}`),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      }),
    );
  }
}, 180_000);

afterAll(async () => {
  for (const s of servers) {
    stopGroup(s.child, 'SIGTERM');
    await waitForExit(s.child).catch(() => stopGroup(s.child, 'SIGKILL'));
  }
  await database?.drop();
  await bundle?.remove();
});

describe('20,000 booking attempts at four processes at once (issue 50)', () => {
  it('answers only 201, 409 and 503 with Retry-After; SQL finds no overlap and no one with two; no process over 200 MB', { timeout: 240_000 }, async () => {
    const bikeIds = await burstBikes(database.db, 'FP', BIKES);
    const { cookies } = await usersWithSessions(database.db, 'fp', USERS);
    const attempts = burstAttempts({ count: ATTEMPTS, cookies, bikeIds, day: await burstDay(database.db) });

    const pids = servers.map((s) => s.child.pid!);
    const rss = sampleRss(pids);
    const idle = await Promise.all(pids.map((pid) => rss.rssMb(pid)));
    const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
    const loadBefore = load();
    let burst;
    try {
      burst = await runBurst({
        clientScript: bundle.file('burst-client'),
        servers: servers.map((s) => s.url),
        attempts,
        clients: 2,
        workDir: bundle.dir,
        connectionsPerServer: CONNECTIONS_PER_PROCESS,
      });
    } finally {
      rss.stop();
    }
    const { answers, seconds } = burst;
    const byStatus = countByStatus(answers.map((a) => a.status));
    const answered = answers.filter((a) => a.status !== 0).map((a) => a.ms);
    const peaks = await Promise.all(pids.map(async (pid) => ({ sampled: rss.peakMb(pid), hwm: await rss.hwmMb(pid) })));
    console.log(
      `      ${ATTEMPTS.toLocaleString('en-US')} attempts at ${PROCESSES} processes in ${seconds.toFixed(1)} s (${Math.round(ATTEMPTS / seconds)}/s): ` +
        `${byStatus.map(([s, n]) => `${n}× ${s}`).join(', ')}; answered p50 ${Math.round(quantile(answered, 0.5))} ms, ` +
        `p99 ${Math.round(quantile(answered, 0.99))} ms; peak RSS ${peaks.map((p) => `${p.sampled.toFixed(0)} MB (VmHWM ${p.hwm.toFixed(0)})`).join(', ')}; ` +
        `load average ${loadBefore} → ${load()}`,
    );
    console.log(`      idle RSS before the burst ${idle.map((m) => `${m.toFixed(0)} MB`).join(', ')}; refusals: ` +
      countByMessage(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.message ?? a.error ?? ''}`)));

    const errors = servers.map((s) => s.output().split('\n').filter((l) => l.includes('"level":50')).slice(0, 3).join('\n')).join('\n');
    const unanswered = answers.flatMap((a, i) => (a.status === 0 ? [{ process: i % PROCESSES, ms: Math.round(a.ms), error: a.error }] : []));
    expect(unanswered.slice(0, 10), `${unanswered.length} connections got no answer`).toEqual([]);
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503).slice(0, 5), errors).toEqual([]);
    expect(byStatus.map(([s]) => s).filter((s) => ![201, 409, 503].includes(s))).toEqual([]);
    expect(answers.filter((a) => a.status === 503 && !/^\d+$/.test(a.retryAfter ?? '')).slice(0, 5), '503 without Retry-After').toEqual([]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.message).toMatch(/^[A-ZÈ][^\n]{5,}$/);
    expect(byStatus.find(([s]) => s === 201)?.[1] ?? 0).toBeGreaterThan(0);

    // PostgreSQL's invariants: no bike booked twice at once, no one holding two; every 201 is a booking and nothing else is.
    const after = await burstInvariants(database.db);
    expect(after).toEqual({ overlaps: 0, doubles: 0, active: byStatus.find(([s]) => s === 201)?.[1] });

    for (const [i, p] of peaks.entries()) expect(p.sampled, `process ${i} (pid ${pids[i]}) peak VmRSS`).toBeLessThan(RSS_LIMIT_MB);
    // Every process still serves.
    for (const s of servers) expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });
});
