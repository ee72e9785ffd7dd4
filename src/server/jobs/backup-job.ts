import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { backupDatabase, type BackupSummary } from '../db/backup.js';
import { emailLayout, escapeHtml, type Mailer, type MailMessage } from '../integrations/mailer.js';
import type { Logger } from '../logger.js';
import { activeAdmins } from '../modules/notifications/index.js';
import type { Lingua } from '../../shared/i18n/index.js';
import { tFor } from '../../shared/i18n/all.js';

/**
 * The nightly backup (decision 033): `db backup` into BACKUP_DIR, named after the occurrence,
 * then only the newest BACKUP_KEEP files of that name kept. Run by the scheduler, so once per
 * occurrence whatever the number of processes (job_runs), under advisory lock 4_201_006.
 */

/** At 03:15 TZ_APP: an hour that exists exactly once on every day in Europe/Rome (DST changes at 02:00–03:00). */
export const BACKUP_CRON = '15 3 * * *';

/** `bicielis-2026-11-26T021500Z.bicielis.gz`: the occurrence in UTC, so names sort as instants. */
const OURS = /^bicielis-\d{4}-\d{2}-\d{2}T\d{6}Z\.bicielis\.gz$/;
/** What a run that crashed mid-write leaves (backupDatabase removes it on any error it sees). */
const OURS_PARTIAL = /^bicielis-\d{4}-\d{2}-\d{2}T\d{6}Z\.bicielis\.gz\.partial$/;

export function backupFileName(scheduledAt: Date): string {
  const iso = scheduledAt.toISOString(); // 2026-11-26T02:15:00.000Z
  return `bicielis-${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z.bicielis.gz`;
}

/**
 * Deletes the scheduled backups of `dir` but the newest `keep` (by name, that is by instant),
 * and leftovers of crashed runs other than `current`'s. Files of any other name are never
 * touched. Returns the names deleted.
 */
export async function pruneBackups(dir: string, keep: number, current?: string): Promise<string[]> {
  const names = await fs.readdir(dir);
  const ours = names.filter((n) => OURS.test(n)).sort();
  const doomed = [
    ...ours.slice(0, Math.max(0, ours.length - keep)),
    ...names.filter((n) => OURS_PARTIAL.test(n) && n !== `${current}.partial`),
  ];
  for (const name of doomed) await fs.rm(path.join(dir, name), { force: true });
  return doomed;
}

/** The admins' email when a nightly backup failed, in the admin's language. */
export function backupFailedEmail(to: string, file: string, reason: string, publicUrl: string, lingua: Lingua = 'it'): MailMessage {
  const t = tFor(lingua);
  const subject = t('emailNotices.backup.subject');
  const lines = [
    t('emailNotices.backup.failed', { reason }),
    '',
    t('emailNotices.backup.file', { file }),
    t('emailNotices.backup.nothingLeft'),
    t('emailNotices.backup.check'),
    `npm run cli -- db backup ${file}`,
    '',
    t('emailNotices.backup.logged', { url: publicUrl }),
  ];
  const html = emailLayout(subject, lines.filter((l) => l !== '').map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'), lingua);
  return { to, subject, text: lines.join('\n'), html };
}

export interface BackupJobDeps {
  db: Db;
  pool: pg.Pool;
  mailer: Mailer;
  log: Logger;
  config: { backup?: { dir: string; keep: number } | undefined; publicUrl: string };
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/**
 * One nightly backup. On failure: logged, emailed to every active admin, and thrown again,
 * so that the scheduler records the run as failed (`job_runs.error`).
 */
export async function runScheduledBackup(deps: BackupJobDeps, scheduledAt: Date): Promise<BackupSummary & { file: string; pruned: string[] }> {
  const target = deps.config.backup;
  if (!target) throw new Error('BACKUP_DIR non impostata');
  const name = backupFileName(scheduledAt);
  const file = path.join(target.dir, name);
  try {
    await fs.mkdir(target.dir, { recursive: true, mode: 0o700 });
    const summary = await backupDatabase(deps.pool, file);
    const pruned = await pruneBackups(target.dir, target.keep, name);
    deps.log.info(
      { file, rows: summary.rows, bytes: summary.fileBytes, seconds: Number(summary.seconds.toFixed(2)), pruned: pruned.length },
      'nightly backup written',
    );
    return { ...summary, file, pruned };
  } catch (err) {
    const reason = reasonOf(err);
    await fs.rm(`${file}.partial`, { force: true }).catch(() => undefined);
    deps.log.error({ err, file }, 'nightly backup failed');
    try {
      for (const admin of await activeAdmins(deps.db)) {
        await deps.mailer.send(backupFailedEmail(admin.email, file, reason, deps.config.publicUrl, admin.lingua)).catch((mailErr: unknown) => {
          deps.log.error({ err: mailErr }, 'nightly backup failure: admin email not sent');
        });
      }
    } catch (dbErr) {
      // The database itself may be what failed: the log line above and job_runs (if reachable) remain.
      deps.log.error({ err: dbErr }, 'nightly backup failure: admins not found');
    }
    throw err;
  }
}
