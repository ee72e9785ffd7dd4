import { desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { reportFileName, type ReportSummary } from '../../../shared/schemas/reports.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { reports } from './tables.js';
import { AppError } from '../../http/errors.js';
import { renderDayReport } from '../../integrations/pdf/day-report.js';
import type { Mailer } from '../../integrations/mailer.js';
import { loadDayReport, longItalianDate } from './data.js';
import { CATCH_UP_DAYS, dueReportDates, REPORTS_KEPT } from './schedule.js';

export interface ReportDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  config: { timeZone: string; reportEmail?: string | undefined };
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type GenerateOutcome = 'created' | 'replaced' | 'exists';

/** Renders the PDF of `date` as of now. */
export async function renderReport(deps: Pick<ReportDeps, 'db' | 'clock' | 'config'>, date: string): Promise<Buffer> {
  const now = deps.clock.now();
  const data = await loadDayReport(deps.db, date, now, deps.config.timeZone);
  return renderDayReport(data, now);
}

/**
 * Makes and stores the report of `date`. Without `replace`, a date that already has one is
 * left alone (`on conflict do nothing`: two processes racing make exactly one); with it,
 * the stored PDF is replaced and its email state reset (the CLI's regenerate).
 */
export async function generateReport(
  deps: ReportDeps,
  date: string,
  options: { replace?: boolean } = {},
): Promise<{ outcome: GenerateOutcome; id: number; fileSize: number }> {
  const pdf = await renderReport(deps, date);
  const now = deps.clock.now();
  const values = { fileName: reportFileName(date), reportDate: date, pdf, fileSize: pdf.length, createdAt: now };
  if (options.replace) {
    const [row] = await deps.db
      .insert(reports)
      .values(values)
      .onConflictDoUpdate({
        target: reports.reportDate,
        set: { ...values, emailSent: false, emailSentAt: null, emailAttempts: 0, lastEmailError: null },
      })
      .returning({ id: reports.id, inserted: sql<boolean>`(xmax = 0)` });
    await applyRetention(deps.db);
    return { outcome: row!.inserted ? 'created' : 'replaced', id: row!.id, fileSize: pdf.length };
  }
  const [row] = await deps.db
    .insert(reports)
    .values(values)
    .onConflictDoNothing({ target: reports.reportDate })
    .returning({ id: reports.id });
  if (!row) {
    const [existing] = await deps.db
      .select({ id: reports.id, fileSize: reports.fileSize })
      .from(reports)
      .where(eq(reports.reportDate, date));
    return { outcome: 'exists', id: existing!.id, fileSize: existing!.fileSize };
  }
  deps.log.info({ reportDate: date, bytes: pdf.length }, 'report generated');
  await applyRetention(deps.db);
  return { outcome: 'created', id: row.id, fileSize: pdf.length };
}

/** Keeps the REPORTS_KEPT most recent reports (by report date); returns how many went. */
export async function applyRetention(db: Db, keep: number = REPORTS_KEPT): Promise<number> {
  const kept = db.select({ id: reports.id }).from(reports).orderBy(desc(reports.reportDate)).limit(keep);
  const gone = await db.delete(reports).where(notInArray(reports.id, kept)).returning({ id: reports.id });
  return gone.length;
}

/**
 * Emails one stored report to REPORT_EMAIL. Success sets `emailSent`/`emailSentAt`; a
 * failure counts the attempt, keeps the error and is logged (retried at the next run).
 * Returns whether it was sent; without REPORT_EMAIL nothing is attempted.
 */
export async function emailReport(deps: ReportDeps, id: number): Promise<boolean> {
  const to = deps.config.reportEmail;
  if (!to) return false;
  const [row] = await deps.db.select().from(reports).where(eq(reports.id, id));
  if (!row) return false;
  const day = longItalianDate(row.reportDate);
  try {
    await deps.mailer.send({
      to,
      subject: `Report BiciElis di ${day}`,
      text:
        `In allegato il report giornaliero di BiciElis di ${day}: prenotazioni, incassi, stato delle biciclette ` +
        `e utilizzo per fascia oraria.\n\nFile: ${row.fileName} (${row.fileSize} byte).\n`,
      attachments: [{ filename: row.fileName, content: row.pdf, contentType: 'application/pdf' }],
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await deps.db
      .update(reports)
      .set({ emailAttempts: sql`${reports.emailAttempts} + 1`, lastEmailError: message.slice(0, 500) })
      .where(eq(reports.id, id));
    deps.log.error({ err, reportDate: row.reportDate, attempts: row.emailAttempts + 1 }, 'report email not sent: retried at the next run');
    return false;
  }
  await deps.db
    .update(reports)
    .set({ emailSent: true, emailSentAt: deps.clock.now(), emailAttempts: sql`${reports.emailAttempts} + 1`, lastEmailError: null })
    .where(eq(reports.id, id));
  deps.log.info({ reportDate: row.reportDate }, 'report emailed');
  return true;
}

export interface NightlyResult {
  generated: string[];
  emailed: string[];
  emailFailed: string[];
}

/**
 * The nightly job, also run at start-up (caller holds the advisory lock): makes every due
 * report of the last CATCH_UP_DAYS days that is missing, then emails every kept report not
 * yet sent (new ones and earlier failures), oldest first.
 */
export async function runNightlyReports(deps: ReportDeps, options: { graceMs?: number } = {}): Promise<NightlyResult> {
  // The cron tick may wake a hair before 23:00:00: its grace makes that tick's day due.
  const at = new Date(deps.clock.now().getTime() + (options.graceMs ?? 0));
  const due = dueReportDates(at, deps.config.timeZone, CATCH_UP_DAYS);
  const existing = due.length
    ? await deps.db.select({ d: reports.reportDate }).from(reports).where(inArray(reports.reportDate, due))
    : [];
  const have = new Set(existing.map((r) => r.d));
  const generated: string[] = [];
  for (const date of due) {
    if (have.has(date)) continue;
    const r = await generateReport(deps, date);
    if (r.outcome === 'created') generated.push(date);
  }
  const result: NightlyResult = { generated, emailed: [], emailFailed: [] };
  if (!deps.config.reportEmail) return result;
  const unsent = await deps.db
    .select({ id: reports.id, d: reports.reportDate })
    .from(reports)
    .where(eq(reports.emailSent, false))
    .orderBy(reports.reportDate);
  for (const r of unsent) {
    if (await emailReport(deps, r.id)) result.emailed.push(r.d);
    else result.emailFailed.push(r.d);
  }
  return result;
}

/** GET /api/reports: newest report date first, never the bytes. */
export async function listReports(db: Db): Promise<ReportSummary[]> {
  const rows = await db
    .select({
      id: reports.id,
      fileName: reports.fileName,
      reportDate: reports.reportDate,
      createdAt: reports.createdAt,
      fileSize: reports.fileSize,
      emailSent: reports.emailSent,
      emailSentAt: reports.emailSentAt,
    })
    .from(reports)
    .orderBy(desc(reports.reportDate));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), emailSentAt: r.emailSentAt?.toISOString() ?? null }));
}

/** The PDF of one report, or 404. */
export async function reportFile(db: Db, id: number): Promise<{ fileName: string; pdf: Buffer }> {
  const [row] = await db.select({ fileName: reports.fileName, pdf: reports.pdf }).from(reports).where(eq(reports.id, id));
  if (!row) throw new AppError(404, 'Report non trovato', 'NOT_FOUND');
  return row;
}
