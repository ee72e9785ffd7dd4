import type pg from 'pg';
import type { Logger } from '../logger.js';
import { needsBaseBackup, takeArchiveBaseBackup, type BaseBackupRun, type WalArchiveConfig } from '../db/wal-archive.js';
import { JOB_LOCKS, runExclusive } from './scheduler.js';

/**
 * The embedded cluster's base backups (decision 056): nightly at 03:30 TZ_APP, after the 03:15
 * logical backup (decision 033), so that the two do not copy the database at the same time on
 * a small machine; and at a start that finds none on the cluster's timeline (the first start,
 * or the first after `db restore --at`). Each under advisory lock 4_201_007, then the retention.
 */
export const BASE_BACKUP_CRON = '30 3 * * *';

export interface ArchiveCluster {
  adminUrl: string;
  pgDir: string;
}

export interface BaseBackups {
  /** One base backup now (the nightly job; the caller holds the lock). */
  take(): Promise<BaseBackupRun>;
  /** At a start, in the background: one when the archive has none on the current timeline. */
  ensureOnTimeline(pool: pg.Pool): Promise<BaseBackupRun | undefined>;
}

export function baseBackups(cluster: ArchiveCluster, config: WalArchiveConfig, log: Logger): BaseBackups {
  const take = async () => {
    const run = await takeArchiveBaseBackup(cluster, config);
    log.info(
      { backup: run.backup.name, timeline: run.backup.timeline, bytes: run.bytes, seconds: Number(run.seconds.toFixed(2)), prunedBackups: run.pruned.backups, prunedSegments: run.pruned.segments },
      'base backup written',
    );
    return run;
  };
  return {
    take,
    async ensureOnTimeline(pool) {
      let run: BaseBackupRun | undefined;
      await runExclusive(pool, JOB_LOCKS.baseBackup, async () => {
        const { rows } = await pool.query<{ timeline: string }>('select substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) as timeline');
        if (await needsBaseBackup(config.dir, Number.parseInt(rows[0]!.timeline, 16))) run = await take();
      });
      return run;
    },
  };
}
