import { format } from 'date-fns';
import { it } from 'date-fns/locale';
import { LOCALE_TAG, type Lingua } from '../../../shared/i18n';
import { dayMonth } from '../../../shared/i18n/format';

const UNITS = ['Bytes', 'KB', 'MB'] as const;
const decimals = new Map<Lingua, Intl.NumberFormat>();

/** Size in Bytes, KB or MB, base 1024 (spec §9): 0 → "0 Bytes", 1536 → "1,5 KB" / "1.5 KB". */
export function formatFileSize(bytes: number, lingua: Lingua): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let decimal = decimals.get(lingua);
  if (!decimal) {
    decimal = new Intl.NumberFormat(LOCALE_TAG[lingua], { maximumFractionDigits: 2 });
    decimals.set(lingua, decimal);
  }
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${decimal.format(bytes / 1024 ** i)} ${UNITS[i]}`;
}

/** "2026-11-23" → "23 novembre 2026" (spec: dd MMMM yyyy, Italian) / "23 November 2026". */
export function formatReportDate(date: string, lingua: Lingua): string {
  if (lingua !== 'it') return dayMonth(date, true, lingua);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return format(new Date(y, m - 1, d, 12), 'dd MMMM yyyy', { locale: it });
}

/** An ISO instant as "23/11/2026 23:00" in the browser's time. */
export function formatDateTime(iso: string): string {
  return format(new Date(iso), 'dd/MM/yyyy HH:mm', { locale: it });
}

