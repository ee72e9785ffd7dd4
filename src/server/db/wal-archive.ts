import { openSync, closeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { BACKUP_INFO_FILE, takeBaseBackup, type BaseBackupInfo } from './base-backup.js';
import type { RunAs } from './embedded.js';

/**
 * The embedded cluster's continuous archive (issue 50, decision 056): every write-ahead-log
 * segment PostgreSQL fills (or closes after `archive_timeout`) is gzipped into
 * `WAL_ARCHIVE_DIR/wal/`, and base backups (`takeBaseBackup`) are kept in
 * `WAL_ARCHIVE_DIR/base/<UTC stamp>/`. A base backup plus every segment from its start
 * segment on is a database that can be brought to any second after the backup's end.
 *
 * As root PostgreSQL runs as `postgres`, which cannot walk into DATA_DIR or an archive folder
 * under /root (decision 009: permissions are never widened). The `wal/` folder is opened
 * here and handed to PostgreSQL as fd 3; its archive and restore commands reach it as
 * `/proc/self/fd/3/`, without walking any folder above it. Only `wal/` is given to `postgres`;
 * the base backups are written by the app itself.
 */

/** The embedded cluster is made by our `initdb` with the default segment size. */
export const WAL_SEGMENT_BYTES = 16 * 1024 * 1024;
/** Segments per 4 GiB "log id": the middle 8 hex digits of a segment's name count these. */
const SEGMENTS_PER_LOG_ID = 0x1_0000_0000 / WAL_SEGMENT_BYTES;

export const ARCHIVE_WAL_DIR = 'wal';
export const ARCHIVE_BASE_DIR = 'base';

export interface WalArchiveConfig {
  dir: string;
  retentionDays: number;
  timeoutSeconds: number;
}

// ---------------------------------------------------------------------------------------------
// Segment arithmetic

export interface Segment {
  timeline: number;
  /** The segment's number along the log: (log id × 256) + segment, whatever the timeline. */
  segno: number;
}

const SEGMENT_NAME = /^([0-9A-F]{8})([0-9A-F]{8})([0-9A-F]{8})$/;
const hex8 = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');

/** `000000010000000A000000FF` → timeline 1, segno 0xA × 256 + 0xFF; anything else → undefined. */
export function parseSegmentName(name: string): Segment | undefined {
  const m = SEGMENT_NAME.exec(name);
  if (!m) return undefined;
  const seg = Number.parseInt(m[3]!, 16);
  // A segment's low part never reaches the next log id (PostgreSQL writes 00000000–000000FF).
  if (seg >= SEGMENTS_PER_LOG_ID) return undefined;
  return { timeline: Number.parseInt(m[1]!, 16), segno: Number.parseInt(m[2]!, 16) * SEGMENTS_PER_LOG_ID + seg };
}

export function segmentName(timeline: number, segno: number): string {
  return hex8(timeline) + hex8(Math.floor(segno / SEGMENTS_PER_LOG_ID)) + hex8(segno % SEGMENTS_PER_LOG_ID);
}

/** The segment holding the log position `lsn` (`16/B374D848`, as PostgreSQL prints it). */
export function lsnSegment(lsn: string): number {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn.trim());
  if (!m) throw new Error(`posizione nel log non valida: ${lsn}`);
  const high = Number.parseInt(m[1]!, 16);
  const low = Number.parseInt(m[2]!, 16);
  return high * SEGMENTS_PER_LOG_ID + Math.floor(low / WAL_SEGMENT_BYTES);
}

/** One line of a `.history` file: `parent` ended at `switchLsn`, where the next timeline begins. */
export interface TimelineSwitch {
  parent: number;
  switchLsn: string;
}

/** The lines of `<timeline>.history` (`1\t0/3000098\tno recovery target specified`), oldest first. */
export function parseHistory(text: string): TimelineSwitch[] {
  const switches: TimelineSwitch[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+([0-9A-Fa-f]+\/[0-9A-Fa-f]+)/.exec(line);
    if (m) switches.push({ parent: Number(m[1]), switchLsn: m[2]! });
  }
  return switches;
}

/**
 * The timeline whose file a recovery reads for segment `segno`, following the history of
 * `latest`: the newest timeline that had begun by that segment. The segment holding a switch
 * point belongs to the new timeline (PostgreSQL copies the old one's start into it; the old
 * one's copy is archived as `.partial`).
 */
export function timelineOfSegment(segno: number, latest: number, history: TimelineSwitch[]): number {
  let timeline = history[0]?.parent ?? latest;
  for (let i = 0; i < history.length; i++) {
    const next = history[i + 1]?.parent ?? latest;
    if (lsnSegment(history[i]!.switchLsn) <= segno) timeline = next;
  }
  return timeline;
}

// ---------------------------------------------------------------------------------------------
// The archive and restore commands

/**
 * PostgreSQL's `archive_command`, fd 3 being `wal/`. Written to a temporary name, synced, then
 * renamed: a crash never leaves a half segment under the real name. A segment already there
 * (archived before a crash, by the server a restore started, or a restarted archiver) is a
 * success when its content is the same and a failure otherwise, so that a different segment
 * is never overwritten and the archiver keeps retrying, visibly (`failed_count`).
 */
export const ARCHIVE_COMMAND =
  'f=/proc/self/fd/3/%f.gz; if [ -f "$f" ]; then gzip -dc "$f" | cmp -s - "%p"; ' +
  'else gzip -1 < "%p" > "$f.tmp" && sync "$f.tmp" && mv -f "$f.tmp" "$f"; fi';

/** The recovery's `restore_command`: a file missing from the archive is a plain failure (not found). */
export const RESTORE_COMMAND = 'f=/proc/self/fd/3/%f.gz; [ -f "$f" ] && gzip -dc "$f" > "%p"';

export interface OpenArchive {
  /** What `startEmbeddedPostgres` takes: the settings and the `wal/` folder as fd 3. */
  startOptions: { settings: Record<string, string>; fds: number[] };
  /** Closes our copy of the descriptor (the server keeps its own while it runs). */
  close(): void;
}

/**
 * Makes the archive's folders (0700; `wal/` given to the user PostgreSQL runs as) and opens
 * `wal/` for the server's commands. `restore`: the settings of a recovery instead.
 */
export async function openWalArchive(config: WalArchiveConfig, runAs: RunAs | undefined, recovery?: Record<string, string>): Promise<OpenArchive> {
  await fs.mkdir(config.dir, { recursive: true, mode: 0o700 });
  const wal = path.join(config.dir, ARCHIVE_WAL_DIR);
  await fs.mkdir(wal, { recursive: true, mode: 0o700 });
  await fs.mkdir(path.join(config.dir, ARCHIVE_BASE_DIR), { recursive: true, mode: 0o700 });
  if (runAs) await fs.chown(wal, runAs.uid, runAs.gid);
  const fd = openSync(wal, 'r');
  const settings: Record<string, string> = {
    archive_mode: 'on',
    archive_command: ARCHIVE_COMMAND,
    // A quiet database still closes and archives its segment at least this often.
    archive_timeout: String(config.timeoutSeconds),
    ...(recovery ? { restore_command: RESTORE_COMMAND, ...recovery } : {}),
  };
  let open = true;
  return {
    startOptions: { settings, fds: [fd] },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Base backups

export interface StoredBaseBackup extends BaseBackupInfo {
  /** The folder under `base/`. */
  name: string;
  dir: string;
}

/** The whole base backups of the archive, oldest first (by their end). */
export async function listBaseBackups(archiveDir: string): Promise<StoredBaseBackup[]> {
  const base = path.join(archiveDir, ARCHIVE_BASE_DIR);
  const names = await fs.readdir(base).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const found: StoredBaseBackup[] = [];
  for (const name of names) {
    if (name.endsWith('.partial')) continue;
    const dir = path.join(base, name);
    try {
      const info = JSON.parse(await fs.readFile(path.join(dir, BACKUP_INFO_FILE), 'utf8')) as BaseBackupInfo;
      found.push({ ...info, name, dir });
    } catch {
      // No backup.json: not a whole backup (takeBaseBackup renames the folder only when whole).
    }
  }
  return found.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt) || a.name.localeCompare(b.name));
}

/** `2026-12-01T101530Z`: the UTC instant, so that names sort as instants (as the nightly backups' do). */
export function baseBackupStamp(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

/** How long a base backup waits for the log it needs to be archived. */
const ARCHIVE_WAIT_MS = 10 * 60_000;

export interface BaseBackupRun {
  backup: StoredBaseBackup;
  seconds: number;
  bytes: number;
  pruned: PruneResult;
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/**
 * A base backup of the running embedded cluster into `base/<stamp>/`, once the WAL it needs
 * is archived, then the retention. The caller holds the base backup's advisory lock.
 */
export async function takeArchiveBaseBackup(
  cluster: { adminUrl: string; pgDir: string },
  config: WalArchiveConfig,
  now: () => Date = () => new Date(),
): Promise<BaseBackupRun> {
  const started = performance.now();
  const base = path.join(config.dir, ARCHIVE_BASE_DIR);
  await fs.mkdir(base, { recursive: true, mode: 0o700 });
  // takeBaseBackup replaces a folder of the same name: two backups in one second get a suffix.
  const stamp = baseBackupStamp(now());
  let name = stamp;
  for (let n = 2; await fs.stat(path.join(base, name)).then(() => true, () => false); n++) name = `${stamp}-${n}`;
  const dir = path.join(base, name);
  // pg_backup_stop waits for the archive as long as it takes: with archiving broken, forever,
  // holding the job's lock and a stop of the app. Bounded by the session's statement timeout
  // (the backup is then abandoned with its session, and the run fails, visibly).
  const adminUrl = `${cluster.adminUrl}${cluster.adminUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c statement_timeout=${ARCHIVE_WAIT_MS}`)}`;
  const info = await takeBaseBackup({ adminUrl, pgDir: cluster.pgDir, target: dir, label: `bicielis ${name}`, waitForArchive: true });
  const bytes = await folderBytes(dir);
  const pruned = await pruneArchive(config.dir, config.retentionDays, now());
  return { backup: { ...info, name, dir }, seconds: (performance.now() - started) / 1000, bytes, pruned };
}

/** Whether the archive has no base backup on `timeline` (a first start, or the first after a restore). */
export async function needsBaseBackup(archiveDir: string, timeline: number): Promise<boolean> {
  return !(await listBaseBackups(archiveDir)).some((b) => b.timeline === timeline);
}

// ---------------------------------------------------------------------------------------------
// Retention

export interface PruneResult {
  backups: string[];
  segments: number;
}

interface ArchivedFile {
  name: string;
  segment?: Segment;
  history?: number;
}

/** `wal/`'s files: those of a segment, and timeline histories. */
async function archivedFiles(archiveDir: string): Promise<ArchivedFile[]> {
  const names = await fs.readdir(path.join(archiveDir, ARCHIVE_WAL_DIR)).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  return names.map((name) => {
    const history = /^([0-9A-F]{8})\.history\.gz$/.exec(name);
    if (history) return { name, history: Number.parseInt(history[1]!, 16) };
    // A segment, its `.partial` (the old timeline's last one after a restore), the
    // `.backup` history file a base backup leaves, or a leftover of an archive cut by a crash.
    const seg = /^([0-9A-F]{24})(?:\.partial|\.[0-9A-F]{8}\.backup)?\.gz(?:\.tmp)?$/.exec(name);
    const segment = seg ? parseSegmentName(seg[1]!) : undefined;
    return segment ? { name, segment } : { name };
  });
}

/**
 * The retention: base backups that ended before `retentionDays` ago are removed, but for the
 * newest of them, which is the one a restore to the oldest second of the period starts from
 * (and the newest backup of all is always kept). Then every segment older than the oldest
 * kept backup's start segment, on any timeline; `.history` files are kept (a few bytes, and a
 * recovery needs the whole chain). Folders `.partial` (a backup cut by a crash) go too: the
 * caller holds the base backup's lock, so none is being written.
 */
export async function pruneArchive(archiveDir: string, retentionDays: number, now: Date): Promise<PruneResult> {
  const backups = await listBaseBackups(archiveDir);
  const cutoff = now.getTime() - retentionDays * 86_400_000;
  const before = backups.filter((b) => Date.parse(b.finishedAt) < cutoff);
  // The newest backup that ended before the cutoff covers the period's first second.
  const doomed = before.slice(0, -1);
  const base = path.join(archiveDir, ARCHIVE_BASE_DIR);
  for (const b of doomed) await fs.rm(b.dir, { recursive: true, force: true });
  for (const name of await fs.readdir(base).catch(() => [] as string[])) {
    if (name.endsWith('.partial')) await fs.rm(path.join(base, name), { recursive: true, force: true });
  }
  const kept = backups.filter((b) => !doomed.includes(b));
  let segments = 0;
  if (kept.length > 0) {
    const oldestStart = Math.min(...kept.map((b) => parseSegmentName(b.startWalFile)!.segno));
    for (const file of await archivedFiles(archiveDir)) {
      if (file.segment && file.segment.segno < oldestStart) {
        await fs.rm(path.join(archiveDir, ARCHIVE_WAL_DIR, file.name), { force: true });
        segments++;
      }
    }
  }
  return { backups: doomed.map((b) => b.name), segments };
}

// ---------------------------------------------------------------------------------------------
// Verification

export interface ArchiveCheck {
  ok: boolean;
  /** The base backup the check starts from (the newest), if any. */
  base: StoredBaseBackup | undefined;
  latestTimeline: number;
  /** The segments from the base's start to the newest archived one, named as a recovery reads them. */
  first: string | undefined;
  last: string | undefined;
  present: number;
  /** Files a recovery would need and cannot find: segments, then a `.history`. */
  missing: string[];
}

const gunzipAsync = promisify(gunzip);

/**
 * Whether a recovery from the newest base backup can replay the archive to its newest
 * segment: every segment from the backup's start segment to the newest one archived, each on
 * the timeline a recovery follows at that point (the newest timeline's `.history`). Segments
 * of an abandoned timeline (the old history after a restore) are not asked for.
 */
export async function verifyArchive(archiveDir: string): Promise<ArchiveCheck> {
  const backups = await listBaseBackups(archiveDir);
  const base = backups.at(-1);
  const files = await archivedFiles(archiveDir);
  const whole = files.filter((f) => f.segment && /^[0-9A-F]{24}\.gz$/.test(f.name));
  const names = new Set(files.map((f) => f.name));
  const timelines = [base?.timeline ?? 1, ...files.map((f) => f.history ?? f.segment?.timeline ?? 0)];
  const latestTimeline = Math.max(...timelines);
  const missing: string[] = [];
  let history: TimelineSwitch[] = [];
  if (latestTimeline > 1) {
    const historyFile = `${hex8(latestTimeline)}.history.gz`;
    if (names.has(historyFile)) history = parseHistory((await gunzipAsync(await fs.readFile(path.join(archiveDir, ARCHIVE_WAL_DIR, historyFile)))).toString('utf8'));
    else missing.push(`${hex8(latestTimeline)}.history`);
  }
  if (!base) return { ok: false, base, latestTimeline, first: undefined, last: undefined, present: 0, missing };
  const start = parseSegmentName(base.startWalFile)!.segno;
  const onPath = (s: Segment) => timelineOfSegment(s.segno, latestTimeline, history) === s.timeline;
  const newest = Math.max(start, ...whole.map((f) => f.segment!).filter((s) => s.segno >= start && onPath(s)).map((s) => s.segno));
  let present = 0;
  for (let segno = start; segno <= newest; segno++) {
    const name = segmentName(timelineOfSegment(segno, latestTimeline, history), segno);
    if (names.has(`${name}.gz`)) present++;
    else missing.push(name);
  }
  missing.sort();
  const first = segmentName(timelineOfSegment(start, latestTimeline, history), start);
  const last = segmentName(timelineOfSegment(newest, latestTimeline, history), newest);
  return { ok: missing.length === 0, base, latestTimeline, first, last, present, missing };
}
