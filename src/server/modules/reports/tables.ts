import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { bytea, tstz, createdAt } from '../../db/columns.js';

export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    fileName: text('file_name').notNull(),
    reportDate: date('report_date', { mode: 'string' }).notNull().unique(),
    pdf: bytea('pdf').notNull(),
    fileSize: integer('file_size').notNull(),
    emailSent: boolean('email_sent').notNull().default(false),
    emailSentAt: tstz('email_sent_at'),
    emailAttempts: integer('email_attempts').notNull().default(0),
    lastEmailError: text('last_email_error'),
    createdAt: createdAt(),
  },
  (t) => [check('reports_file_size', sql`${t.fileSize} >= 0`)],
);
