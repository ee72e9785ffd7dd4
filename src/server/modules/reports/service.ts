import { desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { reportFileName, type ReportSummary } from '../../../shared/schemas/reports.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { reports } from './tables.js';
import { AppError } from '../../http/errors.js';
import { renderDayReportApart } from '../../integrations/pdf/apart.js';
import type { Mailer } from '../../integrations/mailer.js';
import { testo, type Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { linguaOfEmail } from '../notifications/index.js';
import { loadDayReport, reportLongDate } from './data.js';
import { CATCH_UP_DAYS, dueReportDates, REPORTS_KEPT } from './schedule.js';

export interface ReportDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** `appLang`: the college's language (APP_LANG), the stored reports' one; Italian when absent. */
  config: { timeZone: string; reportEmail?: string | undefined; appLang?: Lingua | undefined };
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type GenerateOutcome = 'created' | 'replaced' | 'exists';

/** The language of the stored reports: the college's (APP_LANG). */
export const storedReportLingua = (config: Pick<ReportDeps['config'], 'appLang'>): Lingua => config.appLang ?? 'it';

/** Renders the PDF of `date` as of now, in `lingua` (default: the stored reports' language). */
export async function renderReport(deps: Pick<ReportDeps, 'db' | 'clock' | 'config'>, date: string, lingua?: Lingua): Promise<Buffer> {
  const now = deps.clock.now();
  const data = await loadDayReport(deps.db, date, now, deps.config.timeZone, lingua ?? storedReportLingua(deps.config));
  // In a worker of its own: this process does not keep pdfkit after it (decision 063).
  return renderDayReportApart(data, now);
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
 * Emails one stored report to REPORT_EMAIL, in the language of the account with that address,
 * else the college's (APP_LANG): a language other than the stored report's gets the day drawn
 * again in it. Success sets `emailSent`/`emailSentAt`; a failure counts the attempt, keeps the
 * error and is logged (retried at the next run). Returns whether it was sent; without
 * REPORT_EMAIL nothing is attempted.
 */
export async function emailReport(deps: ReportDeps, id: number): Promise<boolean> {
  const to = deps.config.reportEmail;
  if (!to) return false;
  const [row] = await deps.db.select().from(reports).where(eq(reports.id, id));
  if (!row) return false;
  try {
    const stored = storedReportLingua(deps.config);
    const lingua = (await linguaOfEmail(deps.db, to)) ?? stored;
    const pdf = lingua === stored ? row.pdf : await renderReport(deps, row.reportDate, lingua);
    const t = tFor(lingua);
    const day = reportLongDate(row.reportDate, lingua);
    await deps.mailer.send({
      to,
      subject: t('reportPdf.email.subject', { data: day }),
      text: t('reportPdf.email.text', { data: day, file: row.fileName, size: String(pdf.length) }),
      attachments: [{ filename: row.fileName, content: pdf, contentType: 'application/pdf' }],
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

/**
 * The PDF of one report, or 404, for a reader of `lingua`: the stored file when it is in that
 * language, else the day drawn again in it (as of now, as a regenerated report is).
 */
export async function reportFile(
  deps: Pick<ReportDeps, 'db' | 'clock' | 'config'>,
  id: number,
  lingua: Lingua = storedReportLingua(deps.config),
): Promise<{ fileName: string; pdf: Buffer }> {
  const [row] = await deps.db
    .select({ fileName: reports.fileName, pdf: reports.pdf, reportDate: reports.reportDate })
    .from(reports)
    .where(eq(reports.id, id));
  if (!row) throw new AppError(404, testo('reportsApi.notFound'), 'NOT_FOUND');
  if (lingua === storedReportLingua(deps.config)) return { fileName: row.fileName, pdf: row.pdf };
  return { fileName: row.fileName, pdf: await renderReport(deps, row.reportDate, lingua) };
}
