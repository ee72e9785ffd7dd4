import { LOCALE_TAG } from '../../../shared/i18n';
import { money } from '../../../shared/i18n/format';
import type { StatsResponse } from '../../../shared/schemas/stats';
import { useLingua, useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { ScrollTable } from './scroll-table';

/**
 * `Per sede` on /admin/statistiche (issue 47): each sede's rides, hours, revenue and
 * cancellations of the period, and the install's total. Only when the install has several sedi.
 */
export function SediTable({ stats }: { stats: StatsResponse }) {
  const t = useT();
  const lingua = useLingua();
  const { several } = useSedi();
  if (!several || stats.sedi.length < 2) return null;
  const hours = new Intl.NumberFormat(LOCALE_TAG[lingua], { maximumFractionDigits: 1 });
  const totalHours = Math.round(stats.sedi.reduce((s, r) => s + r.hours, 0) * 10) / 10;
  const rows = stats.sedi.map((s) => [s.nome, s.rides, s.hours, s.revenueCents, s.cancellations] as const);
  const cell = 'px-3 py-1.5 text-right tabular-nums';
  return (
    <section aria-labelledby="stat-sedi" className="min-w-0 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id="stat-sedi" className="text-lg font-semibold">
        {t('sediBoards.statsTitle')}
      </h2>
      <ScrollTable caption={t('sediBoards.statsCaption')} label={t('sediBoards.statsTitle')}>
          <thead className="bg-muted">
            <tr>
              <th scope="col" className="px-3 py-1.5 text-left font-medium">
                {t('sediBoards.sede')}
              </th>
              {(['sediBoards.rides', 'sediBoards.hours', 'sediBoards.revenue', 'sediBoards.cancellations'] as const).map((key) => (
                <th key={key} scope="col" className="px-3 py-1.5 text-right font-medium">
                  {t(key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([nome, rides, h, revenue, cancellations]) => (
              <tr key={nome} className="border-t">
                <th scope="row" className="px-3 py-1.5 text-left font-normal">
                  {nome}
                </th>
                <td className={cell}>{rides}</td>
                <td className={cell}>{hours.format(h)}</td>
                <td className={cell}>{money(revenue, lingua)}</td>
                <td className={cell}>{cancellations}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t font-semibold">
              <th scope="row" className="px-3 py-1.5 text-left">
                {t('sediBoards.total')}
              </th>
              <td className={cell}>{stats.totals.rides}</td>
              <td className={cell}>{hours.format(totalHours)}</td>
              <td className={cell}>{money(stats.totals.revenueCents, lingua)}</td>
              <td className={cell}>{stats.totals.cancellations}</td>
            </tr>
          </tfoot>
      </ScrollTable>
    </section>
  );
}
