/**
 * A process that runs the app's scheduled jobs (src/server/jobs/app-jobs.ts) as main.ts
 * starts them, but every second instead of on their real schedule, and with its clock
 * standing at JOB_NOW; for RUN_MS milliseconds, then it exits. Each tick's outcome is a
 * JSON line on stdout (the scheduler's own `job tick` log line). Used by
 * tests/api/many-processes.test.ts to start two of them on one database, and by
 * tests/api/scheduled-backup.test.ts with JOBS=db-backup (a comma-separated list: only those jobs)
 * and JOB_PATTERN (every 4 s: a backup on a busy machine outlasts a second).
 */
import { ManualClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import { connectDatabase } from '../../src/server/db/client.js';
import { mailerFromConfig } from '../../src/server/integrations/mailer.js';
import { appJobs } from '../../src/server/jobs/app-jobs.js';
import { startScheduler } from '../../src/server/jobs/scheduler.js';
import { createLogger } from '../../src/server/logger.js';

const config = loadConfig(process.env);
const log = createLogger('debug');
const database = connectDatabase(config.databaseUrl!);
const clock = new ManualClock(new Date(process.env.JOB_NOW!));
const mailer = mailerFromConfig(config, log);
const only = process.env.JOBS?.split(',');
const jobs = appJobs({ database, clock, mailer, config, log })
  .filter((job) => !only || only.includes(job.name))
  .map((job) => ({ ...job, pattern: process.env.JOB_PATTERN ?? '* * * * * *' }));

// Both runners start their timers at the same wall-clock instant (START_AT), as two app
// processes started together would.
await new Promise((r) => setTimeout(r, Math.max(0, Number(process.env.START_AT) - Date.now())));
const scheduler = startScheduler(database.pool, config.timeZone, jobs, log);
await new Promise((r) => setTimeout(r, Number(process.env.RUN_MS ?? 3000)));
// Ticks still running finish before the pool closes.
await scheduler.stop();
await mailer.idle();
await database.close();
// Every tick's line is out before the process ends (stdout is a pipe here).
await new Promise<void>((resolve) => log.flush(() => resolve()));
process.exit(0);
