import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * A physical copy of a running cluster, taken with PostgreSQL's low-level API
 * (`pg_backup_start` / `pg_backup_stop`, decision 056): the files of the data folder copied
 * while the server runs, plus the `backup_label` that tells a recovery where to start
 * replaying the write-ahead log. The embedded binaries ship no `pg_basebackup`, and Debian's
 * (15) refuses a newer server.
 *
 * The copy is a cluster's data folder that needs WAL from `startWalFile` on: a standby fetches
 * it by streaming, a point-in-time recovery from the archive.
 */

export interface BaseBackupInfo {
  label: string;
  /** Where replay starts, and the segment holding it (timeline included). */
  startLsn: string;
  startWalFile: string;
  /** The first point at which the copy is consistent: a recovery may stop only after it. */
  stopLsn: string;
  stopWalFile: string;
  timeline: number;
  /** ISO instants, by the database's clock. */
  startedAt: string;
  finishedAt: string;
  /** PostgreSQL's major version: a copy only starts under the same one. */
  serverVersion: number;
}

/** What the copy leaves out: made again by the server, or never to be copied (PostgreSQL's docs, "Making a Base Backup Using the Low Level API"). */
const EMPTIED = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'backup_label.old', 'tablespace_map', 'standby.signal', 'recovery.signal', 'postgresql.auto.conf.tmp']);

export const BACKUP_INFO_FILE = 'backup.json';
/** The copied data folder inside a backup's folder. */
export const BACKUP_DATA_DIR = 'data';

/**
 * Copies `from` into `to`, file by file. A file the server removes meanwhile (a dropped
 * relation, a temporary file) is skipped: the replay of the log makes the copy right.
 */
async function copyTree(from: string, to: string, top: boolean): Promise<void> {
  await fs.mkdir(to, { recursive: true, mode: 0o700 });
  let entries: Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (top && SKIPPED.has(entry.name)) continue;
    if (entry.name.startsWith('pgsql_tmp')) continue;
    if (entry.isDirectory()) {
      if (top && EMPTIED.has(entry.name)) await fs.mkdir(target, { mode: 0o700 });
      else await copyTree(source, target, false);
    } else if (entry.isFile()) {
      await fs.copyFile(source, target).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
  }
}

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await fs.chown(dir, uid, gid);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(p, uid, gid);
    else await fs.chown(p, uid, gid);
  }
}

/**
 * Takes a base backup of the server at `adminUrl` (a superuser, or a role with the backup
 * functions granted), whose data folder is `pgDir` on this machine, into the new folder
 * `target`: `target/data` (the cluster, owned by `owner` when given) and `target/backup.json`.
 * The folder is written as `target.partial` and renamed when whole.
 */
export async function takeBaseBackup(options: {
  adminUrl: string;
  pgDir: string;
  target: string;
  label?: string;
  owner?: { uid: number; gid: number } | undefined;
  /** Wait until the WAL the copy needs is archived (only where archiving is on). */
  waitForArchive?: boolean;
}): Promise<BaseBackupInfo> {
  const { adminUrl, pgDir, target } = options;
  const label = options.label ?? path.basename(target);
  const partial = `${target}.partial`;
  await fs.rm(partial, { recursive: true, force: true });
  await fs.mkdir(partial, { recursive: true, mode: 0o700 });
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'bicielis-base-backup' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // The session that starts the backup must be the one that stops it.
    const start = await client.query<{ lsn: string; file: string; at: string; version: string }>(
      `select lsn::text, pg_walfile_name(lsn) as file, to_json(now())#>>'{}' as at, current_setting('server_version_num') as version
         from pg_backup_start($1, true) as lsn`,
      [label],
    );
    const started = start.rows[0]!;
    let stopped: { lsn: string; labelfile: string; spcmapfile: string | null; file: string; at: string };
    try {
      await copyTree(pgDir, path.join(partial, BACKUP_DATA_DIR), true);
    } finally {
      // Always ended, or the server keeps full-page writes forced and the session busy.
      const stop = await client.query<typeof stopped>(
        `select lsn::text, labelfile, spcmapfile, pg_walfile_name(lsn) as file, to_json(clock_timestamp())#>>'{}' as at
           from pg_backup_stop($1)`,
        [options.waitForArchive ?? false],
      );
      stopped = stop.rows[0]!;
    }
    const data = path.join(partial, BACKUP_DATA_DIR);
    await fs.writeFile(path.join(data, 'backup_label'), stopped.labelfile, { mode: 0o600 });
    if (stopped.spcmapfile) await fs.writeFile(path.join(data, 'tablespace_map'), stopped.spcmapfile, { mode: 0o600 });
    await fs.chmod(data, 0o700);
    if (options.owner) await chownTree(data, options.owner.uid, options.owner.gid);
    const info: BaseBackupInfo = {
      label,
      startLsn: started.lsn,
      startWalFile: started.file,
      stopLsn: stopped.lsn,
      stopWalFile: stopped.file,
      timeline: Number.parseInt(started.file.slice(0, 8), 16),
      startedAt: new Date(started.at).toISOString(),
      finishedAt: new Date(stopped.at).toISOString(),
      serverVersion: Math.floor(Number(started.version) / 10_000),
    };
    await fs.writeFile(path.join(partial, BACKUP_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(partial, target);
    return info;
  } catch (err) {
    await fs.rm(partial, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}
