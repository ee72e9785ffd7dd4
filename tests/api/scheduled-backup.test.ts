import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/clock.js';
import { ConfigError } from '../../src/server/config.js';
import { readBackupHeader } from '../../src/server/db/backup.js';
import type { Mailer, MailMessage } from '../../src/server/integrations/mailer.js';
import { appJobs } from '../../src/server/jobs/app-jobs.js';
import { backupFileName, BACKUP_CRON, pruneBackups } from '../../src/server/jobs/backup-job.js';
import { JOB_LOCKS, runOccurrence } from '../../src/server/jobs/scheduler.js';
import { connectDatabase } from '../../src/server/db/client.js';
import { createLogger } from '../../src/server/logger.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { createUser } from '../helpers/factories.js';
import { bundleEntryPoints, ROOT } from '../helpers/server-process.js';

/** Issue 24: the nightly backup (job `db-backup`, decision 033). */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-scheduled-backup-'));
  await database.pool.query(`insert into biciclette (numero, modello) values ('SB-1', 'City'), ('SB-2', 'Mountain')`);
});
afterAll(async () => {
  await database.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A mailer that keeps what it is asked to send. */
function capturingMailer(sent: MailMessage[]): Mailer {
  return {
    send: async (m) => {
      sent.push(m);
      return { messageId: `<${sent.length}@test>`, delivery: { kind: 'smtp' } };
    },
    sendInBackground: (m) => void sent.push(m),
    idle: async () => undefined,
    close: async () => undefined,
  };
}

/** The app's own job list (app-jobs.ts) with this configuration; the `db-backup` job when there is one. */
function jobsWith(env: Record<string, string>, sent: MailMessage[] = [], logLines: string[] = []) {
  const config = testConfig(env);
  const log = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const jobs = appJobs({ database, clock: new ManualClock(new Date('2026-11-26T02:15:00Z')), mailer: capturingMailer(sent), config, log });
  return { config, jobs, backup: jobs.find((j) => j.name === 'db-backup') };
}

describe('configuration', () => {
  it('BACKUP_DIR is optional (no job without it), resolved from the working folder; BACKUP_KEEP defaults to 14, at least 1', () => {
    expect(jobsWith({}).backup).toBeUndefined();
    const { config, backup } = jobsWith({ BACKUP_DIR: 'backups/notte' });
    expect(config.backup).toEqual({ dir: path.resolve('backups/notte'), keep: 14 });
    expect(backup).toMatchObject({ pattern: BACKUP_CRON, lock: JOB_LOCKS.backup });
    expect(testConfig({ BACKUP_DIR: '/srv/b', BACKUP_KEEP: '1' }).backup).toEqual({ dir: '/srv/b', keep: 1 });
    expect(() => testConfig({ BACKUP_DIR: '/srv/b', BACKUP_KEEP: '0' })).toThrow(ConfigError);
    expect(() => testConfig({ BACKUP_KEEP: 'molti' })).toThrow(/BACKUP_KEEP/);
    // Every lock id of the scheduler is its own.
    expect(new Set(Object.values(JOB_LOCKS)).size).toBe(Object.keys(JOB_LOCKS).length);
  });
});

describe('the nightly backup', () => {
  it('creates its folder (0700), writes one file named after the occurrence (0600), through .partial', async () => {
    const target = path.join(dir, 'new', 'nightly');
    const { backup } = jobsWith({ BACKUP_DIR: target });
    const at = new Date('2026-11-26T02:15:00Z');
    await backup!.run(at);
    expect(await fs.readdir(target)).toEqual(['bicielis-2026-11-26T021500Z.bicielis.gz']);
    expect(backupFileName(at)).toBe('bicielis-2026-11-26T021500Z.bicielis.gz');
    expect((await fs.stat(target)).mode & 0o777).toBe(0o700);
    const file = path.join(target, backupFileName(at));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const header = await readBackupHeader(file);
    expect(header.tables.find((t) => t.name === 'biciclette')?.rows).toBe(2);
  });

  it('keeps exactly BACKUP_KEEP of its own files, the newest, and leaves every other file alone', async () => {
    const target = path.join(dir, 'retention');
    await fs.mkdir(path.join(target, 'archivio'), { recursive: true });
    const older = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'].map((d) => `bicielis-${d}T021500Z.bicielis.gz`);
    const foreign = [
      'note.txt',
      '2026-11-20.bicielis.gz',
      'bicielis-manuale.bicielis.gz',
      'bicielis-2026-11-01T021500Z.bicielis.gz.old',
      'copia-bicielis-2026-11-02T021500Z.bicielis.gz',
    ];
    for (const name of [...older, ...foreign]) await fs.writeFile(path.join(target, name), name);
    // A run that crashed mid-write left this behind.
    await fs.writeFile(path.join(target, 'bicielis-2026-11-19T021500Z.bicielis.gz.partial'), 'cut');
    const { backup } = jobsWith({ BACKUP_DIR: target, BACKUP_KEEP: '3' });
    await backup!.run(new Date('2026-11-25T02:15:00Z'));
    expect((await fs.readdir(target)).sort()).toEqual(
      [
        ...foreign,
        'archivio',
        'bicielis-2026-11-23T021500Z.bicielis.gz',
        'bicielis-2026-11-24T021500Z.bicielis.gz',
        'bicielis-2026-11-25T021500Z.bicielis.gz',
      ].sort(),
    );
    // The foreign files' contents are untouched.
    for (const name of foreign) expect(await fs.readFile(path.join(target, name), 'utf8')).toBe(name);
    // BACKUP_KEEP=1: only the newest.
    expect(await pruneBackups(target, 1)).toEqual(['bicielis-2026-11-23T021500Z.bicielis.gz', 'bicielis-2026-11-24T021500Z.bicielis.gz']);
    expect((await fs.readdir(target)).filter((n) => n.startsWith('bicielis-2026-11-2'))).toEqual(['bicielis-2026-11-25T021500Z.bicielis.gz']);
  });

  it('a failure is logged, emailed once to each active admin, and the run is recorded as failed', async () => {
    const admins = [
      await createUser(database.db, { ruolo: 'admin', email: 'capo@collegio.it' }),
      await createUser(database.db, { ruolo: 'admin', email: 'vice@collegio.it' }),
    ];
    await createUser(database.db, { ruolo: 'admin', email: 'ex@collegio.it', attiva: false });
    await createUser(database.db, { email: 'utente@example.it' });
    // BACKUP_DIR is a file: the folder cannot be made.
    const notADir = path.join(dir, 'un-file');
    await fs.writeFile(notADir, 'non una cartella');
    const sent: MailMessage[] = [];
    const logLines: string[] = [];
    const { backup } = jobsWith({ BACKUP_DIR: notADir }, sent, logLines);
    const at = new Date('2026-11-27T02:15:00Z');
    await expect(runOccurrence(database.pool, backup!, at)).rejects.toThrow(/EEXIST|ENOTDIR/);

    const { rows } = await database.pool.query<{ error: string | null; finished: boolean }>(
      `select error, finished_at is not null as finished from job_runs where job = 'db-backup' and scheduled_at = $1`,
      [at],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.finished).toBe(true);
    expect(rows[0]!.error).toMatch(/EEXIST|ENOTDIR/);

    expect(sent.map((m) => m.to).sort()).toEqual(admins.map((a) => a.email).sort());
    for (const m of sent) {
      expect(m.subject).toBe('BiciElis: backup notturno non riuscito');
      expect(m.text).toMatch(/Il backup notturno del database non è riuscito: .*(EEXIST|ENOTDIR)/);
      expect(m.text).toContain('bicielis-2026-11-27T021500Z.bicielis.gz');
    }
    const failures = logLines.filter((l) => l.includes('"nightly backup failed"'));
    expect(failures).toHaveLength(1);
    // No secret in it: not the database's address (with its password), nor the SMTP URL.
    expect(failures[0]).not.toContain(database.url);
    expect(failures[0]).not.toMatch(/postgres:\/\//);
    // Another process asking for the same occurrence does not run it (nor email again).
    expect(await runOccurrence(database.pool, backup!, at)).toBe(false);
    expect(sent).toHaveLength(2);
  });
});

describe('two processes, one BACKUP_DIR', () => {
  it('a process asking for an occurrence after another has run it does not back up again (the job_runs claim)', async () => {
    const target = path.join(dir, 'claimed');
    const { backup } = jobsWith({ BACKUP_DIR: target });
    // A second "process": a pool of its own on the same database; its timer fires once the
    // first run is over and its advisory lock is free (a late timer, a clock a little behind).
    const other = connectDatabase(database.url, { max: 2 });
    try {
      const at = new Date('2026-11-28T02:15:00Z');
      expect(await runOccurrence(database.pool, backup!, at)).toBe(true);
      const first = await fs.stat(path.join(target, backupFileName(at)));
      expect(await runOccurrence(other.pool, backup!, at)).toBe(false);
      expect(await fs.readdir(target)).toEqual([backupFileName(at)]);
      // The file was not written a second time.
      expect((await fs.stat(path.join(target, backupFileName(at)))).mtimeMs).toBe(first.mtimeMs);
    } finally {
      await other.close();
    }
  });

  it('two job runners firing for the same occurrences write one file per occurrence, each by one runner', { timeout: 120_000 }, async () => {
    const bundle = await bundleEntryPoints('scheduled-backup', { 'job-runner': 'tests/helpers/job-runner.ts' });
    const target = path.join(dir, 'shared');
    try {
      // Both runners' timers fire at the same instants (croner's schedule is absolute), every
      // 4 s: croner skips a tick while the process's previous run goes on, and a backup on this
      // busy machine can outlast a second, which would leave no occurrence contested.
      const startAt = Date.now() + 4000;
      const runners = ['r1', 'r2'].map((name) => {
        const child = spawn('node', [bundle.file('job-runner')], {
          cwd: ROOT,
          env: {
            ...process.env,
            NODE_ENV: 'test',
            DATABASE_URL: database.url,
            DATA_DIR: path.join(bundle.dir, `jobs-${name}`),
            PUBLIC_URL: 'http://127.0.0.1:1',
            BACKUP_DIR: target,
            BACKUP_KEEP: '100',
            JOBS: 'db-backup',
            JOB_NOW: '2026-11-26T02:15:00Z',
            START_AT: String(startAt),
            JOB_PATTERN: '*/4 * * * * *',
            RUN_MS: '9000',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        return { name, pid: child.pid!, done: new Promise<number | null>((r) => child.on('exit', r)), output: () => out };
      });
      for (const r of runners) expect(await r.done, r.output()).toBe(0);

      const ticks = new Map<string, string[]>();
      const written: string[] = [];
      for (const r of runners) {
        for (const line of r.output().split('\n')) {
          if (line.includes('"job tick"')) {
            const { scheduledAt, ran } = JSON.parse(line) as { scheduledAt: string; ran: boolean };
            ticks.set(scheduledAt, [...(ticks.get(scheduledAt) ?? []), ran ? r.name : '-']);
          }
          if (line.includes('"nightly backup written"')) written.push(path.basename((JSON.parse(line) as { file: string }).file));
        }
      }
      // Both runners' timers fired for the same occurrences…
      const contested = [...ticks.values()].filter((t) => t.length === 2);
      expect(contested.length, JSON.stringify([...ticks])).toBeGreaterThanOrEqual(1);
      // …and each occurrence was run by one of them only.
      for (const [at, t] of ticks) expect(t.filter((x) => x !== '-').length, at).toBeLessThanOrEqual(1);
      const ranAt = [...ticks].filter(([, t]) => t.some((x) => x !== '-')).map(([at]) => backupFileName(new Date(at)));
      expect(ranAt.length).toBeGreaterThanOrEqual(1);
      // One backup written per occurrence run, one file for each, nothing else in the folder.
      expect(written.sort()).toEqual(ranAt.sort());
      expect((await fs.readdir(target)).sort()).toEqual(ranAt.sort());
      const pids = runners.map((r) => String(r.pid));
      const { rows } = await database.pool.query<{ n: number; failed: number }>(
        `select count(*)::int as n, count(error)::int as failed from job_runs
          where job = 'db-backup' and split_part(runner, ':', 2) = any($1::text[])`,
        [pids],
      );
      expect(rows[0]).toEqual({ n: ticks.size, failed: ticks.size - ranAt.length });
    } finally {
      await bundle.remove();
    }
  });
});
