import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tstz } from '../db/columns.js';

/**
 * One row per occurrence of a scheduled job that some process ran (src/server/jobs/scheduler.ts):
 * the process that inserts the row first runs it, the others skip it, however far apart
 * their timers fire. Kept 14 days, so the table also tells when each job last ran and how.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    scheduledAt: tstz('scheduled_at').notNull(),
    startedAt: tstz('started_at').notNull().defaultNow(),
    finishedAt: tstz('finished_at'),
    /** Who ran it: host name and process id. */
    runner: text('runner').notNull(),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.job, t.scheduledAt] }),
    check('job_runs_finished_after_start', sql`${t.finishedAt} is null or ${t.finishedAt} >= ${t.startedAt}`),
  ],
);
