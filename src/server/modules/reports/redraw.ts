import { sql } from 'drizzle-orm';
import { renderReport, type ReportDeps } from './service.js';

/**
 * The stored nightly reports of these days, drawn again as of now: after an account's deletion
 * (privacy/erase.ts, decision 029), without the person's name. A report that cannot be drawn
 * keeps its old file, and the failure is logged.
 */
export async function redrawStoredReports(deps: Pick<ReportDeps, 'db' | 'clock' | 'config' | 'log'>, days: string[]): Promise<void> {
  if (days.length === 0) return;
  const { rows } = await deps.db.execute<{ report_date: string }>(
    sql`select report_date::text from reports
          where report_date in (select jsonb_array_elements_text(${JSON.stringify(days)}::jsonb)::date)`,
  );
  for (const { report_date } of rows) {
    try {
      const pdf = await renderReport(deps, report_date);
      await deps.db.execute(sql`update reports set pdf = ${pdf}, file_size = ${pdf.length} where report_date = ${report_date}::date`);
    } catch (err) {
      deps.log.error({ err, reportDate: report_date }, 'report not redrawn after an account deletion');
    }
  }
}
