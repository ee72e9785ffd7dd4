import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { purgeExpiredRateLimits } from '../http/rate-limit-store.js';
import type { Mailer } from '../integrations/mailer.js';
import type { Logger } from '../logger.js';
import type { AppMetrics } from '../metrics.js';
import { purgeExpiredSessions } from '../modules/auth/index.js';
import { bookingJobs } from '../modules/bookings/index.js';
import type { PushSender } from '../modules/notifications/index.js';
import { runNightlyReports } from '../modules/reports/index.js';
import { REPORT_CRON, REPORT_GRACE_MS } from '../modules/reports/index.js';
import { foldStatsDelta } from '../modules/stats/index.js';
import { applyRetention } from '../modules/privacy/index.js';
import { CLAIM_BATCH, claimFreedTime, passAndAnnounce } from '../modules/waitlist/index.js';
import { currentRules, lifecycleMinutes } from '../modules/rules/index.js';
import { extendLateRidesPins, servePins } from '../modules/locks/index.js';
import type { LockProvider } from '../integrations/locks/index.js';
import type { PaymentProvider } from '../integrations/payments/index.js';
import { emptyOutcome, fleetAdminLines, fleetPass } from '../modules/fleet/index.js';
import { BACKUP_CRON, runScheduledBackup } from './backup-job.js';
import { BASE_BACKUP_CRON, type BaseBackups } from './base-backup-job.js';
import { JOB_LOCKS, purgeOldJobRuns, type JobSpec } from './scheduler.js';

export interface JobDeps {
  database: Database;
  clock: Clock;
  mailer: Mailer;
  config: Config;
  log: Logger;
  /** Web push (AppDeps.push), when available: reminders and overdue notices use it too. */
  push?: PushSender | undefined;
  /** The smart-lock provider (AppDeps.locks): the PINs' backstop and retry (decision 044). Without it, none. */
  locks?: LockProvider | undefined;
  /**
   * The payment provider (AppDeps.payments): the fleet's heal refunds the bookings it cancels
   * (issue 35). Without it (a tool, a test of another job), the job does not heal: the app's
   * freed-time dispatcher still does.
   */
  payments?: PaymentProvider | undefined;
  /** The app's metrics (AppDeps.metrics): the life cycle's releases and the fleet's moves counted. */
  metrics?: AppMetrics | undefined;
  /** The embedded cluster's base backups (decision 056); absent with DATABASE_URL. */
  baseBackups?: BaseBackups | undefined;
}

/**
 * The fleet's pass of the minute (issue 35). A failure (a refund the provider refused, say) is
 * logged and leaves the rest of the job to run: the next minute tries the pass again.
 */
async function healAndTell(deps: JobDeps & { payments: PaymentProvider }, now: Date) {
  const fleetDeps = { db: deps.database.db, clock: { now: () => now }, payments: deps.payments, mailer: deps.mailer, push: deps.push, config: deps.config, log: deps.log, metrics: deps.metrics };
  return fleetPass(fleetDeps, now, 'caller').catch(() => emptyOutcome());
}

/**
 * The booking life cycle at the clock's now (behaviour.md §6 as changed by decision 022):
 * holds released, no-shows released, bikes marked; then the ride's notices (reminders,
 * overdue rides), each claimed once.
 */
export const lifecycleJob = (deps: JobDeps) => async () => {
  const now = deps.clock.now();
  const db = deps.database.db;
  const { hold, noShow } = lifecycleMinutes(await currentRules({ db }));
  const lifecycle = await bookingJobs.applyLifecycle(db, now, hold, noShow, deps.metrics);
  // The fleet heals itself (issue 35, decision 045) before any waitlist offer: the bookings of
  // late and broken bikes moved, told or cancelled; the admins read it in the late email below.
  const healed = deps.payments ? await healAndTell({ ...deps, payments: deps.payments }, now) : emptyOutcome();
  // The waitlists (issue 21), the backstop of the freed-time dispatcher (decision 035): the
  // events no process served (claimed here, any left), offers run out, windows started, free
  // bikes offered; then any offer not announced yet (one made by a process that stopped).
  const freed = { db, clock: { now: () => now }, mailer: deps.mailer, push: deps.push, log: deps.log, publicUrl: deps.config.publicUrl, timeZone: deps.config.timeZone };
  let claimed: number;
  do claimed = await claimFreedTime(db);
  while (claimed >= CLAIM_BATCH);
  const { announced: offersAnnounced, ...pass } = await passAndAnnounce(freed);
  const notices = await bookingJobs.sendRideNotices({ db, mailer: deps.mailer, push: deps.push, config: deps.config, log: deps.log }, now, (lingua) => fleetAdminLines(healed, lingua));
  // Smart-lock PINs (decision 044): late rides' PINs extended, then every due call made (the
  // dispatcher's backstop, and the retry of a temporary failure, every minute).
  let pinsExtended = 0;
  let pinCalls = 0;
  if (deps.locks) {
    pinsExtended = await extendLateRidesPins(db, now);
    pinCalls = await servePins({ db, clock: { now: () => now }, locks: deps.locks, mailer: deps.mailer, publicUrl: deps.config.publicUrl, log: deps.log });
  }
  // The availability reads' change rows (decision 040), kept ten minutes.
  const availabilityChangesPruned = await bookingJobs.pruneAvailabilityChanges(db);
  return {
    availabilityChangesPruned,
    ...lifecycle,
    bookingsMoved: healed.moved.length,
    bookingsCancelledByFleet: healed.cancelled.length,
    bikeAbsentTold: healed.told.length,
    ...notices,
    offersMade: pass.offers.length,
    offersExpired: pass.expired,
    waitsUnserved: pass.unserved,
    offersAnnounced,
    pinsExtended,
    pinCalls,
  };
};

/** The nightly report (decision 016): missing due days made and unsent ones emailed. */
export const reportJob =
  (deps: JobDeps, graceMs = 0) =>
  () =>
    runNightlyReports({ db: deps.database.db, clock: deps.clock, mailer: deps.mailer, config: deps.config, log: deps.log }, { graceMs });

/** At 03:40 TZ_APP (decision 029): personal data past the rules' retention period made anonymous. */
export const RETENTION_CRON = '40 3 * * *';

/** The nightly retention at the clock's now, with the period the admins set (decision 029). */
export const retentionJob = (deps: JobDeps) => async () => {
  const db = deps.database.db;
  const result = await applyRetention(db, deps.clock.now(), (await currentRules({ db })).conservazioneMesi);
  deps.log.info({ ...result }, 'retention applied');
  return result;
};

/** The nightly backup into BACKUP_DIR (decision 033); a failure emails the admins and fails the run. */
export const backupJob =
  (deps: JobDeps) =>
  (scheduledAt: Date = deps.clock.now()) =>
    runScheduledBackup({ db: deps.database.db, pool: deps.database.pool, mailer: deps.mailer, log: deps.log, config: deps.config }, scheduledAt);

/**
 * The app's scheduled jobs. Every app process starts them; each occurrence runs in one
 * process only (scheduler.ts, `runOccurrence`).
 */
export function appJobs(deps: JobDeps): JobSpec[] {
  return [
    { name: 'booking-lifecycle', pattern: '* * * * *', lock: JOB_LOCKS.lifecycle, run: lifecycleJob(deps) },
    {
      // Expired sessions and rate-limit windows are ignored anyway; this only keeps the tables
      // small. Offline actions' ids older than 30 days: no queue replays that late (decision 026).
      name: 'purge',
      pattern: '17 * * * *',
      lock: JOB_LOCKS.sessions,
      run: async () => {
        await purgeExpiredSessions(deps.database.db, deps.clock.now());
        await purgeExpiredRateLimits(deps.database.pool);
        await purgeOldJobRuns(deps.database.pool);
        await bookingJobs.purgeOldOfflineActions(deps.database.db, deps.clock.now());
      },
    },
    { name: 'nightly-report', pattern: REPORT_CRON, lock: JOB_LOCKS.reports, run: reportJob(deps, REPORT_GRACE_MS) },
    // The statistics' deltas into the rollup (decision 023); reads add what is not folded yet.
    { name: 'privacy-retention', pattern: RETENTION_CRON, lock: JOB_LOCKS.retention, run: retentionJob(deps) },
    { name: 'stats-fold', pattern: '30 * * * * *', lock: JOB_LOCKS.stats, run: () => foldStatsDelta(deps.database.db) },
    // Only with BACKUP_DIR set: one file per night, the newest BACKUP_KEEP kept (decision 033).
    ...(deps.config.backup ? [{ name: 'db-backup', pattern: BACKUP_CRON, lock: JOB_LOCKS.backup, run: backupJob(deps) }] : []),
    // Only with the embedded database: a base backup for `db restore --at`, then the archive's retention (decision 056).
    ...(deps.baseBackups ? [{ name: 'db-base-backup', pattern: BASE_BACKUP_CRON, lock: JOB_LOCKS.baseBackup, run: deps.baseBackups.take }] : []),
  ];
}
