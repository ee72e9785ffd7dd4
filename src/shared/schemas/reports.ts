import { z } from '../zod-it.js';
import { idParam } from './ids.js';

/** One report of GET /api/reports (spec §3 Report): never the PDF bytes. */
export interface ReportSummary {
  id: number;
  fileName: string;
  /** `YYYY-MM-DD`, the day the report is about. */
  reportDate: string;
  /** ISO instant. */
  createdAt: string;
  /** Bytes of the PDF. */
  fileSize: number;
  emailSent: boolean;
  /** ISO instant, or null while not sent. */
  emailSentAt: string | null;
}

/** Params of GET /api/reports/download/:id */
export const reportIdParamsSchema = z.object({
  id: idParam('schemas.invalidReport'),
});

/** `Report_BiciElis_2026-11-23.pdf` */
export function reportFileName(reportDate: string): string {
  return `Report_BiciElis_${reportDate}.pdf`;
}
