import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createMetrics } from '../metrics.js';
import { formatInZone, parseRecoveryTarget } from './point-in-time.js';
import { ARCHIVE_COMMAND, lsnSegment, parseHistory, parseSegmentName, RESTORE_COMMAND, segmentName, timelineOfSegment, verifyArchive } from './wal-archive.js';

describe('segment arithmetic (16 MiB segments)', () => {
  it('a name is a timeline, a log id and a segment; the segment number runs across log ids', () => {
    expect(parseSegmentName('000000010000000000000002')).toEqual({ timeline: 1, segno: 2 });
    expect(parseSegmentName('00000003000000A0000000FF')).toEqual({ timeline: 3, segno: 0xa0 * 256 + 0xff });
    expect(segmentName(1, 255)).toBe('0000000100000000000000FF');
    expect(segmentName(1, 256)).toBe('000000010000000100000000');
    expect(segmentName(0x1b, 0xa0 * 256 + 0xff)).toBe('0000001B000000A0000000FF');
    for (const segno of [0, 1, 255, 256, 257, 65_535, 2 ** 32 + 7]) expect(parseSegmentName(segmentName(2, segno))).toEqual({ timeline: 2, segno });
  });

  it('refuses what is not a segment', () => {
    expect(parseSegmentName('00000001000000000000010')).toBeUndefined();
    expect(parseSegmentName('000000010000000000000100')).toBeUndefined(); // no 257th segment in a log id
    expect(parseSegmentName('00000002.history')).toBeUndefined();
    expect(parseSegmentName('00000001000000000000000a')).toBeUndefined(); // PostgreSQL writes capitals
  });

  it('an LSN lies in segment (high × 256) + low / 16 MiB', () => {
    expect(lsnSegment('0/3000000')).toBe(3);
    expect(lsnSegment('0/2FFFFFF')).toBe(2);
    expect(lsnSegment('16/B374D848')).toBe(0x16 * 256 + 0xb3);
    expect(lsnSegment('1/0')).toBe(256);
    expect(() => lsnSegment('nonsense')).toThrow();
  });

  it('the timeline a recovery reads each segment from: the segment holding a switch belongs to the new one', () => {
    const history = parseHistory('1\t0/5000098\tbefore 2026-12-01 10:15:30+00\n\n2\t0/8FFFFF0\tno recovery target specified\n');
    expect(history).toEqual([
      { parent: 1, switchLsn: '0/5000098' },
      { parent: 2, switchLsn: '0/8FFFFF0' },
    ]);
    expect([3, 4, 5, 6, 7, 8, 9, 10].map((s) => timelineOfSegment(s, 3, history))).toEqual([1, 1, 2, 2, 2, 3, 3, 3]);
    expect(timelineOfSegment(4, 1, [])).toBe(1);
  });
});

describe('db verify: the path a recovery follows, across a restore\'s timeline switch', () => {
  let dir: string;
  const put = (name: string, text = name) => fs.writeFile(path.join(dir, 'wal', `${name}.gz`), gzipSync(text));
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-verify-'));
    await fs.mkdir(path.join(dir, 'wal'), { recursive: true });
    await fs.mkdir(path.join(dir, 'base', 'b1'), { recursive: true });
    const info = { startWalFile: segmentName(1, 3), startLsn: '0/3000028', stopLsn: '0/3000100', stopWalFile: segmentName(1, 3), timeline: 1, startedAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T00:00:02Z', serverVersion: 18, label: 'b1' };
    await fs.writeFile(path.join(dir, 'base', 'b1', 'backup.json'), JSON.stringify(info));
    // Timeline 1 ran on to segment 9; a restore branched timeline 2 off it in segment 6.
    for (const s of [1, 3, 4, 5, 6, 7, 8, 9]) await put(segmentName(1, s));
    await put(`${segmentName(1, 6)}.partial`);
    await put('00000002.history', '1\t0/6000200\tbefore 2026-12-01 10:15:30+00\n');
    for (const s of [6, 7, 8]) await put(segmentName(2, s));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('whole: timeline 1 up to the switch, timeline 2 from its segment on; the abandoned segments are not asked for', async () => {
    const check = await verifyArchive(dir);
    expect(check).toMatchObject({ ok: true, latestTimeline: 2, first: segmentName(1, 3), last: segmentName(2, 8), present: 6, missing: [] });
  });

  it('a segment of the new timeline missing is a gap, though the old timeline has one of that number', async () => {
    await fs.rename(path.join(dir, 'wal', `${segmentName(2, 7)}.gz`), path.join(dir, 'wal', 'aside'));
    try {
      expect(await verifyArchive(dir)).toMatchObject({ ok: false, missing: [segmentName(2, 7)], last: segmentName(2, 8) });
    } finally {
      await fs.rename(path.join(dir, 'wal', 'aside'), path.join(dir, 'wal', `${segmentName(2, 7)}.gz`));
    }
  });

  it('the newest timeline\'s history missing is a gap too', async () => {
    await fs.rename(path.join(dir, 'wal', '00000002.history.gz'), path.join(dir, 'wal', 'aside'));
    try {
      const check = await verifyArchive(dir);
      expect(check.ok).toBe(false);
      expect(check.missing).toContain('00000002.history');
    } finally {
      await fs.rename(path.join(dir, 'wal', 'aside'), path.join(dir, 'wal', '00000002.history.gz'));
    }
  });
});

describe('the archive and restore commands, as PostgreSQL runs them (sh, fd 3 = wal/)', () => {
  let dir: string;
  let wal: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-archive-cmd-'));
    wal = path.join(dir, 'wal');
    await fs.mkdir(path.join(dir, 'pg_wal'), { recursive: true });
    await fs.mkdir(wal);
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  /** Runs `command` with %p and %f filled in as PostgreSQL does, in `dir`, with `wal/` as fd 3. */
  function run(command: string, p: string, f: string): Promise<number | null> {
    const fd = openSync(wal, 'r');
    const child = spawn('sh', ['-c', command.replaceAll('%p', p).replaceAll('%f', f)], { cwd: dir, stdio: ['ignore', 'ignore', 'ignore', fd] });
    return new Promise((resolve) => child.once('exit', (code) => {
      closeSync(fd);
      resolve(code);
    }));
  }

  it('archives gzipped under the real name only (no .tmp left); the same content again is a success, another a failure', async () => {
    const name = '000000010000000000000007';
    const content = Buffer.from('segment seven '.repeat(1000));
    await fs.writeFile(path.join(dir, 'pg_wal', name), content);
    expect(await run(ARCHIVE_COMMAND, `pg_wal/${name}`, name)).toBe(0);
    expect(await fs.readdir(wal)).toEqual([`${name}.gz`]);
    expect(gunzipSync(await fs.readFile(path.join(wal, `${name}.gz`)))).toEqual(content);
    expect(await run(ARCHIVE_COMMAND, `pg_wal/${name}`, name)).toBe(0);
    await fs.writeFile(path.join(dir, 'pg_wal', name), Buffer.from('another segment seven'));
    expect(await run(ARCHIVE_COMMAND, `pg_wal/${name}`, name)).not.toBe(0);
    // The archived copy is untouched.
    expect(gunzipSync(await fs.readFile(path.join(wal, `${name}.gz`)))).toEqual(content);
  });

  it('restores what is archived, and fails on what is not (a recovery then looks in pg_wal, or ends)', async () => {
    expect(await run(RESTORE_COMMAND, 'pg_wal/RECOVERYXLOG', '000000010000000000000007')).toBe(0);
    expect((await fs.readFile(path.join(dir, 'pg_wal', 'RECOVERYXLOG'), 'utf8')).startsWith('segment seven')).toBe(true);
    expect(await run(RESTORE_COMMAND, 'pg_wal/RECOVERYHISTORY', '00000002.history')).not.toBe(0);
    await expect(fs.access(path.join(dir, 'pg_wal', 'RECOVERYHISTORY'))).rejects.toThrow();
  });
});

describe('db restore --at: the instant asked', () => {
  const rome = 'Europe/Rome';
  const at = (text: string, tz = rome) => {
    const r = parseRecoveryTarget(text, tz);
    return r.ok ? r.at.toISOString() : r.reason;
  };

  it('a wall time in TZ_APP, summer or winter', () => {
    expect(at('2026-12-01 10:15:30')).toBe('2026-12-01T09:15:30.000Z');
    expect(at('2026-07-01 10:15:30')).toBe('2026-07-01T08:15:30.000Z');
    expect(at('2026-12-01T10:15')).toBe('2026-12-01T09:15:00.000Z');
    expect(at('2026-12-01 10:15:30.250')).toBe('2026-12-01T09:15:30.250Z');
    expect(at('2026-12-01 10:15:30', 'America/New_York')).toBe('2026-12-01T15:15:30.000Z');
  });

  it('an explicit offset wins over TZ_APP', () => {
    expect(at('2026-12-01T10:15:30+01:00')).toBe('2026-12-01T09:15:30.000Z');
    expect(at('2026-12-01T10:15:30Z')).toBe('2026-12-01T10:15:30.000Z');
    expect(at('2026-12-01 10:15:30-0530')).toBe('2026-12-01T15:45:30.000Z');
    expect(at('2026-12-01 10:15:30+02')).toBe('2026-12-01T08:15:30.000Z');
  });

  it('the hour skipped by summer time does not exist; the hour repeated needs its offset', () => {
    expect(at('2026-03-29 02:30:00')).toMatch(/non esiste in Europe\/Rome/);
    expect(at('2026-10-25 02:30:00')).toMatch(/ricorre due volte in Europe\/Rome .*\+02:00 o \+01:00/);
    expect(at('2026-10-25T02:30:00+02:00')).toBe('2026-10-25T00:30:00.000Z');
    expect(at('2026-10-25T02:30:00+01:00')).toBe('2026-10-25T01:30:00.000Z');
  });

  it('refuses what is no instant', () => {
    for (const text of ['ieri', '2026-02-30 10:00:00', '2026-12-01 24:00:00', '2026-12-01 10:60', '2026-12-01', '2026-12-01 10:15:30+15:00']) {
      expect(parseRecoveryTarget(text, rome).ok, text).toBe(false);
    }
  });

  it('printed back on the wall clock of TZ_APP', () => {
    expect(formatInZone(new Date('2026-12-01T09:15:30.900Z'), rome)).toBe('2026-12-01 10:15:30');
    expect(formatInZone(new Date('2026-07-01T08:15:30Z'), rome)).toBe('2026-07-01 10:15:30');
  });
});

describe('configuration and metrics of the archive', () => {
  it('under DATA_DIR by default; a folder of its own when set; none with DATABASE_URL', () => {
    const embedded = loadConfig({ DATA_DIR: '/srv/bicielis' });
    expect(embedded.walArchive).toEqual({ dir: '/srv/bicielis/archive', retentionDays: 7, timeoutSeconds: 60 });
    expect(loadConfig({ WAL_ARCHIVE_DIR: '/mnt/other-disk/wal', WAL_RETENTION_DAYS: '14', WAL_ARCHIVE_TIMEOUT_SECONDS: '30' }).walArchive).toEqual({
      dir: '/mnt/other-disk/wal',
      retentionDays: 14,
      timeoutSeconds: 30,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://x@db/bicielis' }).walArchive).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@db/bicielis', WAL_ARCHIVE_DIR: '/mnt/wal' })).toThrow(/WAL_ARCHIVE_DIR: impostata, ma con DATABASE_URL/);
    expect(() => loadConfig({ WAL_ARCHIVE_TIMEOUT_SECONDS: '1' })).toThrow(/WAL_ARCHIVE_TIMEOUT_SECONDS/);
  });

  it('the archive\'s series exist only when watched (the embedded database)', async () => {
    const metrics = createMetrics({ processDefaults: false });
    expect(await metrics.registry.metrics()).not.toContain('bicielis_wal_archive');
  });
});
