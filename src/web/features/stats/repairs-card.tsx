import { LOCALE_TAG } from '../../../shared/i18n';
import type { StatsResponse } from '../../../shared/schemas/stats';
import { useLingua, useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { ScrollTable } from './scroll-table';

/**
 * `Riparazioni` on /admin/statistiche (issue 48): the repair tickets opened and closed in the
 * period and the median time from a report to the bike repaired; with several sedi, each sede's.
 */
export function RepairsCard({ stats }: { stats: StatsResponse }) {
  const t = useT();
  const lingua = useLingua();
  const { several } = useSedi();
  const hours = new Intl.NumberFormat(LOCALE_TAG[lingua], { maximumFractionDigits: 1 });
  const median = (value: number | null) =>
    value === null ? <span aria-label={t('statsRepairs.noneAria')}>{t('statsRepairs.none')}</span> : t('statsRepairs.hours', { hours: hours.format(value) });
  const { totals } = stats;
  const figures = [
    ['statsRepairs.opened', totals.ticketsOpened],
    ['statsRepairs.closed', totals.ticketsClosed],
  ] as const;
  const cell = 'px-3 py-1.5 text-right tabular-nums';
  return (
    <section aria-labelledby="stat-riparazioni" className="min-w-0 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id="stat-riparazioni" className="text-lg font-semibold">
        {t('statsRepairs.title')}
      </h2>
      <p className="mb-2 text-sm text-muted-foreground">{t('statsRepairs.note')}</p>
      <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map(([key, value]) => (
          <div key={key} className="rounded-lg border p-3">
            <dt className="text-sm text-muted-foreground">{t(key)}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
        <div className="col-span-2 rounded-lg border p-3 sm:col-span-1">
          <dt className="text-sm text-muted-foreground">{t('statsRepairs.median')}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{median(totals.repairMedianHours)}</dd>
        </div>
      </dl>
      {several && stats.sedi.length > 1 ? (
        <ScrollTable caption={t('statsRepairs.perSedeCaption')}>
            <thead className="bg-muted">
              <tr>
                <th scope="col" className="px-3 py-1.5 text-left font-medium">
                  {t('sediBoards.sede')}
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">
                  {t('statsRepairs.opened')}
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">
                  {t('statsRepairs.closed')}
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">
                  {t('statsRepairs.median')}
                </th>
              </tr>
            </thead>
            <tbody>
              {stats.sedi.map((s) => (
                <tr key={s.sedeId} className="border-t">
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">
                    {s.nome}
                  </th>
                  <td className={cell}>{s.ticketsOpened}</td>
                  <td className={cell}>{s.ticketsClosed}</td>
                  <td className={cell}>{median(s.repairMedianHours)}</td>
                </tr>
              ))}
            </tbody>
        </ScrollTable>
      ) : null}
    </section>
  );
}
