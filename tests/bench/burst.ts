/**
 * `npm run bench -- burst` (issue 50): four app processes (today's source bundled as `npm run
 * build` bundles it, started with `npm start`'s flags) on one fresh embedded PostgreSQL, and
 * 20,000 booking attempts in flight at once on 3 bikes from 400 people, from two client
 * processes (tests/helpers/burst-client.ts) — the burst of tests/api/four-processes.test.ts.
 * Prints the counts by status, p50/p99 of the answered requests, each process's peak RSS (read
 * from outside every 100 ms, and the kernel's high-water mark), the duration, the load average
 * and where it ran: the figures of docs/reliability.md's "Four processes, 20,000 attempts".
 * BURST_ATTEMPTS, BURST_PROCESSES change the scale.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { burstAttempts, burstBikes, burstDay, burstInvariants, countByStatus, quantile, runBurst, sampleRss, startFlags } from '../helpers/booking-burst.js';
import { bundleEntryPoints, freePort, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';
import { benchDatabase, fmt } from './harness.js';

const RSS_LIMIT_MB = 200;

export async function benchBurst(): Promise<boolean> {
  const processes = Number(process.env.BURST_PROCESSES ?? 4);
  const attemptsCount = Number(process.env.BURST_ATTEMPTS ?? 20_000);
  const bench = await benchDatabase();
  const bundle = await bundleEntryPoints('bench-burst', { 'burst-client': 'tests/helpers/burst-client.ts' });
  const servers: ServerProcess[] = [];
  try {
    const { db } = bench.database;
    for (let i = 0; i < processes; i++) {
      const port = String(await freePort());
      servers.push(
        await startServer(['node', ...startFlags(), bundle.file('main')], {
          PORT: port,
          HOST: '127.0.0.1',
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          DATABASE_URL: bench.url,
          DATA_DIR: path.join(bundle.dir, `data-${i}`),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
        }),
      );
    }
    const bikeIds = await burstBikes(db, 'B', 3);
    const { cookies } = await usersWithSessions(db, 'burst', 400);
    const attempts = burstAttempts({ count: attemptsCount, cookies, bikeIds, day: await burstDay(db) });
    const pids = servers.map((s) => s.child.pid!);
    const rss = sampleRss(pids);
    const idle = await Promise.all(pids.map((pid) => rss.rssMb(pid)));
    const loadBefore = os.loadavg();
    let burst;
    try {
      burst = await runBurst({ clientScript: bundle.file('burst-client'), servers: servers.map((s) => s.url), attempts, clients: 2, workDir: bundle.dir });
    } finally {
      rss.stop();
    }
    const loadAfter = os.loadavg();
    const { answers, seconds } = burst;
    const byStatus = countByStatus(answers.map((a) => a.status));
    const answered = answers.filter((a) => a.status !== 0).map((a) => a.ms);
    const served = answers.filter((a) => a.status === 201 || a.status === 409).map((a) => a.ms);
    const peaks = await Promise.all(pids.map(async (pid) => ({ sampled: rss.peakMb(pid), hwm: await rss.hwmMb(pid) })));
    const sql = await burstInvariants(db);
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const cpu = os.cpus()[0]?.model ?? '?';

    const allowed = byStatus.every(([s]) => s === 201 || s === 409 || s === 503);
    const retryAfter = answers.every((a) => a.status !== 503 || /^\d+$/.test(a.retryAfter ?? ''));
    const invariants = sql.overlaps === 0 && sql.doubles === 0 && sql.active === (byStatus.find(([s]) => s === 201)?.[1] ?? 0);
    const underLimit = peaks.every((p) => p.sampled < RSS_LIMIT_MB);

    console.log(`\n## Four processes, ${fmt(attemptsCount)} attempts — ${processes} processes, 3 bikes, 400 people, all in flight at once\n`);
    console.log(`machine: ${os.cpus().length} × ${cpu}, ${fmt(os.totalmem() / 2 ** 30, 1)} GB; commit ${commit}; ${new Date().toISOString()}`);
    console.log(`load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}\n`);
    console.log('| figure | value |');
    console.log('|---|--:|');
    console.log(`| answers | ${byStatus.map(([s, n]) => `${fmt(n)} × ${s === 0 ? 'no answer' : s}`).join(', ')} |`);
    console.log(`| duration | ${fmt(seconds, 1)} s (${fmt(attemptsCount / seconds)} attempts/s) |`);
    console.log(`| answered: p50 / p99 | ${fmt(quantile(answered, 0.5))} / ${fmt(quantile(answered, 0.99))} ms |`);
    console.log(`| 201 and 409 only: p50 / p99 | ${fmt(quantile(served, 0.5))} / ${fmt(quantile(served, 0.99))} ms |`);
    console.log(`| idle RSS before | ${idle.map((m) => `${fmt(m)} MB`).join(', ')} |`);
    console.log(`| peak RSS (100 ms samples) | ${peaks.map((p) => `${fmt(p.sampled)} MB`).join(', ')} |`);
    console.log(`| peak RSS (VmHWM) | ${peaks.map((p) => `${fmt(p.hwm)} MB`).join(', ')} |`);
    console.log(`| SQL: overlaps, people with two, active = 201s | ${sql.overlaps}, ${sql.doubles}, ${sql.active} |`);
    console.log('');
    console.log(`${allowed ? 'PASS' : 'FAIL'}  only 201, 409 and 503 (every connection answered)`);
    console.log(`${retryAfter ? 'PASS' : 'FAIL'}  every 503 carries Retry-After`);
    console.log(`${invariants ? 'PASS' : 'FAIL'}  no overlap, no one with two, every 201 a booking`);
    console.log(`${underLimit ? 'PASS' : 'FAIL'}  no process over ${RSS_LIMIT_MB} MB`);
    return allowed && retryAfter && invariants && underLimit;
  } finally {
    for (const s of servers) {
      stopGroup(s.child, 'SIGTERM');
      await waitForExit(s.child).catch(() => stopGroup(s.child, 'SIGKILL'));
    }
    await bench.close();
    await bundle.remove();
  }
}
