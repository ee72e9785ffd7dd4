import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/server/cli.js';
import { loadConfig } from '../../src/server/config.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.js';
import { createLogger } from '../../src/server/logger.js';
import { systemClock } from '../../src/server/clock.js';
import type { Mailer } from '../../src/server/integrations/mailer.js';
import { appJobs } from '../../src/server/jobs/app-jobs.js';
import { JOB_LOCKS } from '../../src/server/jobs/scheduler.js';
import { testConfig } from '../helpers/app.js';
import { formatInZone } from '../../src/server/db/point-in-time.js';
import { listBaseBackups, pruneArchive, segmentName, verifyArchive } from '../../src/server/db/wal-archive.js';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { bundleEntryPoints, freePort, isAlive, readPostmasterPid, startServer, waitForExit, type ServerProcess } from '../helpers/server-process.js';

/**
 * Issue 50, decision 056: recovery to any second on the embedded default. A real app process
 * on a temporary DATA_DIR archives its log and takes its first base backup; bookings are made,
 * the second is noted, one more booking is made and then every booking is deleted (an
 * operator's wrong DELETE); `db restore --at` that second brings back exactly the bookings of
 * then. The CLI's refusals, `db verify`'s gap, and the retention are checked on the way.
 */
const TZ = 'Europe/Rome';
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-pitr-'));
const pgDir = path.join(dataDir, 'postgres');
const archiveDir = path.join(dataDir, 'archive');
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
let server: ServerProcess | undefined;
let cookies: string[];
let days: string[];
/** A bound on a hang, not a speed target. */
const STATE_MS = 45_000;

async function start(): Promise<ServerProcess> {
  const port = String(await freePort());
  server = await startServer(['node', bundle.file('main')], { PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false', TZ_APP: TZ }, 90_000);
  return server;
}

async function stop(): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  process.kill(server.child.pid!, 'SIGTERM');
  expect(await waitForExit(server.child, 60_000)).toBe(0);
}

/** `npm run cli -- …` through the CLI bundled from today's source: its exit code and output. */
function cli(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('node', [bundle.file('cli'), ...args], { env: { ...process.env, DATA_DIR: dataDir, TZ_APP: TZ, LOG_LEVEL: 'warn' } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

/** The cluster as postmaster.pid describes it, and its app database's URL. */
async function databaseUrl(): Promise<string> {
  const { port } = await readPostmasterPid(pgDir);
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/bicielis`;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = STATE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms\n${server?.output().slice(-3000) ?? ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function withDatabase<T>(fn: (db: ReturnType<typeof connectDatabase>['db']) => Promise<T>): Promise<T> {
  const database = connectDatabase(await databaseUrl(), { max: 1 });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

let bookings = 0;
async function book(): Promise<number> {
  const n = bookings++;
  const res = await fetch(`${server!.url}/api/prenotazioni`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server!.url, cookie: cookies[n]! },
    body: JSON.stringify({ dataPrenotazione: days[n], orarioInizio: '09:00', orarioFine: '10:00', destinazione: 'Centro', biciId: 1 + (n % 3) }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const bookingIds = async () =>
  withDatabase(async (db) => (await db.execute<{ id: number }>(sql`select id from prenotazioni order by id`)).rows.map((r) => r.id));

beforeAll(async () => {
  bundle = await bundleEntryPoints('point-in-time');
  await start();
  await withDatabase(async (db) => {
    await db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, 3) g`);
    ({ cookies } = await usersWithSessions(db, 'pitr', 10));
    days = allowedDays(await readServiceDays(db), { now: new Date(), count: 10, windows: [{ orarioInizio: '09:00', orarioFine: '10:00' }] });
  });
}, 180_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await waitForExit(server.child).catch(() => undefined);
  }
  const pid = (await readPostmasterPid(pgDir).catch(() => undefined))?.pid;
  if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
  await fs.rm(dataDir, { recursive: true, force: true });
  await bundle?.remove();
});

describe('db restore --at: the embedded database back to a second (issue 50)', () => {
  let kept: number[];
  let target: string;

  it('the app archives its log and takes the first base backup after it listens', async () => {
    const [first] = await until(async () => {
      const found = await listBaseBackups(archiveDir);
      return found.length > 0 ? found : undefined;
    }, 'the first base backup');
    expect(first!.timeline).toBe(1);
    // The segment the backup ends in was archived before pg_backup_stop returned.
    await fs.access(path.join(archiveDir, 'wal', `${first!.stopWalFile}.gz`));
    const metrics = await (await fetch(`${server!.url}/metrics`)).text();
    expect(metrics).toMatch(/^bicielis_wal_archive_age_seconds \d+(\.\d+)?$/m);
    expect(metrics).toMatch(/^bicielis_wal_archive_failures 0$/m);
  });

  it('bookings made, the second noted, one more, then all deleted', async () => {
    kept = [];
    for (let i = 0; i < 4; i++) kept.push(await book());
    // The noted second starts after every commit above, by the database's clock: wait for its
    // clock to pass a second boundary (a state, read from the database).
    const boundary = await withDatabase(async (db) => {
      const { rows } = await db.execute<{ next: string }>(sql`select to_json(date_trunc('second', clock_timestamp()) + interval '1 second')#>>'{}' as next`);
      const next = new Date(rows[0]!.next);
      await until(async () => {
        const r = await db.execute<{ past: boolean }>(sql`select clock_timestamp() > ${next.toISOString()}::timestamptz as past`);
        return r.rows[0]!.past ? true : undefined;
      }, 'the database clock past the second');
      return next;
    });
    target = formatInZone(boundary, TZ);
    const later = await book();
    expect(kept).not.toContain(later);
    // The users are external: each booking holds a pending payment, deleted with it.
    await withDatabase((db) => db.transaction(async (tx) => {
      await tx.execute(sql`delete from pagamenti`);
      await tx.execute(sql`delete from prenotazioni`);
    }));
    expect(await bookingIds()).toEqual([]);
  });

  it('refused while the app runs', async () => {
    const { code, out } = await cli('db', 'restore', '--at', target);
    expect(code, out).toBe(1);
    expect(out).toMatch(/Ripristino rifiutato, nessuna modifica: Il database è in uso \(PostgreSQL pid \d+/);
  });

  it('a time before the oldest base backup, or in the future, is refused naming what is possible', async () => {
    await stop();
    const [oldest] = await listBaseBackups(archiveDir);
    const possible = formatInZone(new Date(Math.ceil(Date.parse(oldest!.finishedAt) / 1000) * 1000), TZ);
    const early = await cli('db', 'restore', '--at', '2020-01-01 00:00:00');
    expect(early.code, early.out).toBe(1);
    expect(early.out).toContain(`Non si può tornare a 2020-01-01 00:00:00 (${TZ})`);
    expect(early.out).toContain(`L'istante più vecchio possibile è ${possible} (${TZ}).`);
    const future = await cli('db', 'restore', '--at', formatInZone(new Date(Date.now() + 3_600_000), TZ));
    expect(future.code, future.out).toBe(1);
    expect(future.out).toMatch(/è nel futuro: adesso sono le/);
    const bad = await cli('db', 'restore', '--at', '2026-13-01 10:00:00');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('Istante non valido');
    // Nothing was touched.
    expect((await fs.readdir(dataDir)).filter((n) => n.startsWith('postgres.before-restore-'))).toEqual([]);
  });

  it('restored to that second: exactly the bookings that existed then', { timeout: 120_000 }, async () => {
    const started = performance.now();
    const { code, out } = await cli('db', 'restore', '--at', target);
    const seconds = (performance.now() - started) / 1000;
    console.log(`      db restore --at: ${seconds.toFixed(1)} s (load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    expect(code, out).toBe(0);
    expect(out).toContain(`Ripristino completato: il database è come alle ${target} (${TZ})`);
    const before = /Il database di prima è in (\S+): /.exec(out)?.[1];
    expect(before).toMatch(/postgres\.before-restore-\d{4}-\d{2}-\d{2}T\d{6}Z$/);
    await fs.access(path.join(before!, 'PG_VERSION'));
    // The new timeline's history was archived by the recovered server as it stopped.
    await fs.access(path.join(archiveDir, 'wal', '00000002.history.gz'));
    // Before any base backup on the new timeline, the check follows the history across it.
    const across = await cli('db', 'verify');
    expect(across.code, across.out).toBe(0);
    expect(across.out).toMatch(/segmenti, da 00000001\w+ a 00000002\w+ \(timeline 2\)/);

    await start();
    expect(await bookingIds()).toEqual(kept);
    // The first start after a restore takes a base backup on the new timeline.
    await until(async () => ((await listBaseBackups(archiveDir)).some((b) => b.timeline === 2) ? true : undefined), 'a base backup on timeline 2');
  });

  it('db base-backup by hand, with the app running: a new base backup, the newest', async () => {
    const before = await listBaseBackups(archiveDir);
    const { code, out } = await cli('db', 'base-backup');
    expect(code, out).toBe(0);
    expect(out).toMatch(/^Copia di base (\S+) in .*: [\d.]+ MB, [\d.]+ s \(dalle .* alle .* Europe\/Rome, timeline 2\)\.$/m);
    const after = await listBaseBackups(archiveDir);
    expect(after).toHaveLength(before.length + 1);
    expect(out).toContain(`Copia di base ${after.at(-1)!.name} in `);
  });

  it('db verify: the archive whole from the newest base backup, then a segment removed from the middle reported', async () => {
    // The segments below are archived by a PostgreSQL the app restarted after a kill -9
    // (decision 037): the archive's descriptor outlives the server it was first given to.
    const old = (await readPostmasterPid(pgDir)).pid;
    process.kill(old, 'SIGKILL');
    await until(async () => {
      const { pid } = await readPostmasterPid(pgDir);
      return pid !== old && isAlive(pid) && (await fetch(`${server!.url}/api/ready`)).status === 200 ? true : undefined;
    }, 'the postmaster restarted by the app');
    // Three more segments, each closed and archived (a state: pg_stat_archiver names it).
    for (let i = 0; i < 3; i++) {
      await withDatabase(async (db) => {
        await db.execute(sql`insert into biciclette (numero, modello) values (${`V${i}`}, 'City Bike')`);
        const { rows } = await db.execute<{ file: string }>(sql`select pg_walfile_name(pg_switch_wal()) as file`);
        await until(async () => {
          const r = await db.execute<{ last: string | null }>(sql`select last_archived_wal as last from pg_stat_archiver`);
          return r.rows[0]!.last !== null && r.rows[0]!.last >= rows[0]!.file ? true : undefined;
        }, `segment ${rows[0]!.file} archived`);
      });
    }
    const sizes = await Promise.all(
      (await fs.readdir(path.join(archiveDir, 'wal'))).filter((n) => /^[0-9A-F]{24}\.gz$/.test(n)).map(async (n) => (await fs.stat(path.join(archiveDir, 'wal', n))).size),
    );
    const base = (await listBaseBackups(archiveDir)).at(-1)!;
    console.log(
      `      archive: ${sizes.length} segments, ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024).toFixed(0)} kB each on average gzipped ` +
        `(largest ${(Math.max(...sizes) / 1024).toFixed(0)} kB); base backup ${base.name}: ${((Date.parse(base.finishedAt) - Date.parse(base.startedAt)) / 1000).toFixed(1)} s`,
    );
    const whole = await cli('db', 'verify');
    expect(whole.code, whole.out).toBe(0);
    expect(whole.out).toMatch(/Archivio del log completo dalla copia di base \S+ .*: \d+ segmenti, da 00000002\w+ a 00000002\w+ \(timeline 2\)/);

    const check = await verifyArchive(archiveDir);
    expect(check.present).toBeGreaterThanOrEqual(3);
    const first = Number.parseInt(check.first!.slice(16), 16) + Number.parseInt(check.first!.slice(8, 16), 16) * 256;
    const middle = segmentName(2, first + 1);
    const file = path.join(archiveDir, 'wal', `${middle}.gz`);
    await fs.rename(file, `${file}.aside`);
    try {
      const gap = await cli('db', 'verify');
      expect(gap.code, gap.out).toBe(1);
      expect(gap.out).toContain('Archivio del log INCOMPLETO');
      expect(gap.out).toContain(`mancano 1 file`);
      expect(gap.out).toContain(`  ${middle}`);
    } finally {
      await fs.rename(`${file}.aside`, file);
    }
    await stop();
  });

  it('a second after the last transaction: the log replayed to its end, which is that second\'s state', { timeout: 90_000 }, async () => {
    // The app is stopped: no transaction ends after the next second boundary of this clock.
    const next = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    await until(async () => (Date.now() > next ? true : undefined), 'the clock past the second');
    const { code, out } = await cli('db', 'restore', '--at', formatInZone(new Date(next), TZ));
    expect(code, out).toBe(0);
    expect(out).toContain('Il log finisce prima di');
    expect(out).toContain('Ripristino completato');
    // The cluster alone (no app, no archiving): what it holds.
    const cluster = await startEmbeddedPostgres(dataDir, createLogger('silent'));
    try {
      expect(await bookingIds()).toEqual(kept);
      const bikes = await withDatabase(async (db) => (await db.execute<{ numero: string }>(sql`select numero from biciclette where numero like 'V%' order by 1`)).rows);
      expect(bikes.map((b) => b.numero)).toEqual(['V0', 'V1', 'V2']);
    } finally {
      await cluster.stop();
    }
  });
});

describe('the nightly base backup', () => {
  it('is a job at 03:30 TZ_APP under a lock of its own, only when the embedded database hands it its cluster', async () => {
    const deps = { database: {} as Database, clock: systemClock, mailer: {} as Mailer, config: testConfig(), log: createLogger('silent') };
    expect(appJobs(deps).map((j) => j.name)).not.toContain('db-base-backup');
    let taken = 0;
    const baseBackups = { take: async () => ({ n: ++taken }) as never, ensureOnTimeline: async () => undefined };
    const job = appJobs({ ...deps, baseBackups }).find((j) => j.name === 'db-base-backup');
    expect(job).toMatchObject({ pattern: '30 3 * * *', lock: JOB_LOCKS.baseBackup });
    await job!.run(new Date());
    expect(taken).toBe(1);
    // After the 03:15 logical backup; every job's lock its own.
    expect(job!.pattern > appJobs({ ...deps, config: testConfig({ BACKUP_DIR: '/tmp/x' }) }).find((j) => j.name === 'db-backup')!.pattern).toBe(true);
    expect(new Set(Object.values(JOB_LOCKS)).size).toBe(Object.values(JOB_LOCKS).length);
  });
});

describe('with DATABASE_URL the archive is the provider\'s', () => {
  it('db restore --at and db base-backup say so; db verify without a file stays a usage error', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://unused@localhost/unused', TZ_APP: TZ });
    const lines: string[] = [];
    const ctx = { config, database: {} as Database, out: (line: string) => lines.push(line) };
    expect(await runCommand(['db', 'restore', '--at', '2026-12-01 10:15:30'], ctx)).toBe(1);
    expect(await runCommand(['db', 'base-backup'], ctx)).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^Con DATABASE_URL il log e le copie di base sono compito del fornitore/), expect.stringMatching(/^Con DATABASE_URL/)]);
    lines.length = 0;
    expect(await runCommand(['db', 'verify'], ctx)).toBe(2);
    expect(lines[0]).toMatch(/^Serve un solo argomento: il file di backup/);
  });
});

describe('the archive\'s retention (WAL_RETENTION_DAYS)', () => {
  let dir: string;
  const now = new Date('2026-12-10T12:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();

  async function backup(name: string, finishedDaysAgo: number, startSegno: number) {
    await fs.mkdir(path.join(dir, 'base', name, 'data'), { recursive: true });
    const info = { label: name, startLsn: `0/${(startSegno * 0x1000000 + 0x28).toString(16)}`, startWalFile: segmentName(1, startSegno), stopLsn: '0/0', stopWalFile: segmentName(1, startSegno), timeline: 1, startedAt: daysAgo(finishedDaysAgo), finishedAt: daysAgo(finishedDaysAgo), serverVersion: 18 };
    await fs.writeFile(path.join(dir, 'base', name, 'backup.json'), JSON.stringify(info));
  }

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-retention-'));
    await fs.mkdir(path.join(dir, 'wal'), { recursive: true });
    for (let s = 1; s <= 12; s++) await fs.writeFile(path.join(dir, 'wal', `${segmentName(1, s)}.gz`), gzipSync(Buffer.alloc(16)));
    await fs.writeFile(path.join(dir, 'wal', `${segmentName(1, 2)}.00000028.backup.gz`), gzipSync('x'));
    await fs.writeFile(path.join(dir, 'wal', '00000002.history.gz'), gzipSync('1\t0/9000000\tno recovery target specified\n'));
    await backup('a', 10, 2);
    await backup('b', 8, 5);
    await backup('c', 1, 9);
    // A backup cut by a crash.
    await fs.mkdir(path.join(dir, 'base', 'd.partial'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('keeps the backup that covers the period\'s first second and every segment from its start; histories stay', async () => {
    const pruned = await pruneArchive(dir, 7, now);
    expect(pruned.backups).toEqual(['a']);
    expect((await fs.readdir(path.join(dir, 'base'))).sort()).toEqual(['b', 'c']);
    const wal = (await fs.readdir(path.join(dir, 'wal'))).sort();
    expect(wal).toContain('00000002.history.gz');
    // b starts in segment 5: 1–4 (and the .backup file of segment 2) are gone, 5–12 kept.
    expect(wal.filter((n) => n !== '00000002.history.gz')).toEqual([5, 6, 7, 8, 9, 10, 11, 12].map((s) => `${segmentName(1, s)}.gz`));
    expect(pruned.segments).toBe(5);
  });

  it('all backups past the period: the newest is kept, with what it needs', async () => {
    const pruned = await pruneArchive(dir, 7, new Date(now.getTime() + 30 * 86_400_000));
    expect(pruned.backups).toEqual(['b']);
    expect(await fs.readdir(path.join(dir, 'base'))).toEqual(['c']);
    expect((await fs.readdir(path.join(dir, 'wal'))).filter((n) => n.endsWith('0.gz') || /[0-9A-F]{24}\.gz$/.test(n)).sort()).toEqual(
      [9, 10, 11, 12].map((s) => `${segmentName(1, s)}.gz`),
    );
  });
});
