import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, DownloadIcon, RefreshCwIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { LinkButton } from '../../components/link-button';
import { LOCALE_TAG, type Lingua, type Translate } from '../../../shared/i18n';
import { money, shortDate } from '../../../shared/i18n/format';
import { STATS_PERIODS, type StatsPeriod, type StatsResponse } from '../../../shared/schemas/stats';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiFetch } from '../../lib/api';
import { t as translate, useLingua, useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { BarChart, COLORS, HorizontalBarChart, SplitBar } from './charts';
import { saveResponseAsFile } from '../../lib/download';
import { bucketsFor, percent, PERIOD_LABELS, waitBucketsFor } from './stats-model';
import { SediTable } from './sedi-table';
import { RepairsCard } from './repairs-card';

const statsUrl = (period: StatsPeriod) => `/api/admin/stats?period=${period}`;
const hoursFormats = new Map<Lingua, Intl.NumberFormat>();
/** Hours with at most one decimal, the language's way: "2,5" / "2.5". */
function hours1(lingua: Lingua): Intl.NumberFormat {
  let format = hoursFormats.get(lingua);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE_TAG[lingua], { maximumFractionDigits: 1 });
    hoursFormats.set(lingua, format);
  }
  return format;
}
/** Whole euros on a chart's scale: "12 €" / "€12". */
const euroShort = (t: Translate) => (cents: number) => t('statsPage.euroShort', { euros: Math.round(cents / 100) });

/** A chart's numbers as a table, on request: for screen readers and for reading exact values. */
function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  const t = useT();
  return (
    <details className="mt-3 rounded-md border text-sm">
      <summary className="cursor-pointer px-3 py-2 font-medium text-primary">{t('statsPage.showData')}</summary>
      {/* Scrollable, so reachable by keyboard (focusable and named). */}
      <div
        className="max-h-80 overflow-auto border-t focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        tabIndex={0}
        role="region"
        aria-label={t('statsPage.tableLabel', { caption })}
      >
        <table className="w-full">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-muted">
            <tr>
              {head.map((h, i) => (
                <th key={h} scope="col" className={cn('px-3 py-1.5 font-medium', i === 0 ? 'text-left' : 'text-right')}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} className="border-t">
                {r.map((c, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" className="px-3 py-1 text-left font-normal whitespace-nowrap">
                      {c}
                    </th>
                  ) : (
                    <td key={j} className="px-3 py-1 text-right tabular-nums">
                      {c}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function ChartCard({ id, title, note, children }: { id: string; title: string; note?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {note && <p className="mb-2 text-sm text-muted-foreground">{note}</p>}
      <div className="mt-2">{children}</div>
    </section>
  );
}

function Legend({ items }: { items: { name: string; color: string }[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-hidden="true">
      {items.map((i) => (
        <li key={i.name} className="flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm" style={{ backgroundColor: i.color }} />
          {i.name}
        </li>
      ))}
    </ul>
  );
}

async function downloadCsv(period: StatsPeriod) {
  const res = await apiFetch('GET', `/api/admin/stats/export.csv?period=${period}`);
  await saveResponseAsFile(res, `prenotazioni_${period}_giorni.csv`);
}

/** An hour of the day as a range: `07:00–07:59`. */
const hourRange = (hour: number) => `${String(hour).padStart(2, '0')}:00–${String(hour).padStart(2, '0')}:59`;

/** The period's buckets (days, or months over a year) and how they are named ('month' | 'day', for the messages). */
function usePeriodOf(stats: StatsResponse) {
  const t = useT();
  const lingua = useLingua();
  const unit = stats.period === 365 ? 'month' : 'day';
  return {
    t,
    lingua,
    buckets: bucketsFor(stats.days, stats.period, lingua),
    unit,
    unitHead: t('statsPage.unitHead', { unit }),
  };
}

type ChartProps = { stats: StatsResponse };

function RidesChart({ stats }: ChartProps) {
  const { t, buckets, unit, unitHead } = usePeriodOf(stats);
  const { totals } = stats;
  const title = t('statsPage.ridesTitle', { unit });
  return (
    <ChartCard
      id="stat-corse"
      title={title}
      note={t('statsPage.ridesNote', { rides: totals.rides, noShows: totals.noShows, damage: totals.damageReports })}
    >
      <BarChart
        data={buckets.map((b) => ({ label: b.label, values: [b.rides] }))}
        series={[{ name: t('statsPage.rides'), color: COLORS.rides }]}
        description={t('statsPage.ridesDescription', { unit, rides: totals.rides })}
      />
      <DataTable caption={title} head={[unitHead, t('statsPage.rides')]} rows={buckets.map((b) => [b.longLabel, b.rides])} />
    </ChartCard>
  );
}

function HoursChart({ stats }: ChartProps) {
  const t = useT();
  return (
    <ChartCard id="stat-ore" title={t('statsPage.hoursTitle')} note={t('statsPage.hoursNote')}>
      <BarChart
        data={stats.hours.map((h) => ({ label: String(h.hour), values: [h.rides] }))}
        series={[{ name: t('statsPage.rides'), color: COLORS.rides }]}
        description={t('statsPage.hoursDescription')}
      />
      <DataTable
        caption={t('statsPage.hoursCaption')}
        head={[t('statsPage.hour'), t('statsPage.rides')]}
        rows={stats.hours.map((h) => [hourRange(h.hour), h.rides])}
      />
    </ChartCard>
  );
}

function BikesChart({ stats }: ChartProps) {
  const t = useT();
  const hours = hours1(useLingua());
  const never = stats.bikes.filter((b) => b.rides === 0);
  const top = stats.bikes[0];
  const bikeNumber = (numero: string) => t('statsPage.bikeNumber', { numero });
  return (
    <ChartCard
      id="stat-bici"
      title={t('statsPage.bikesTitle')}
      note={
        <>
          {top && top.rides > 0 ? `${t('statsPage.mostUsed', { numero: top.numero, rides: top.rides, hours: hours.format(top.hours) })} ` : ''}
          {never.length > 0 ? t('statsPage.neverUsed', { bikes: never.map((b) => bikeNumber(b.numero)).join(', ') }) : t('statsPage.allUsed')}
        </>
      }
    >
      <HorizontalBarChart
        data={stats.bikes.map((b) => ({ label: bikeNumber(b.numero), value: b.hours }))}
        color={COLORS.rides}
        description={t('statsPage.bikesDescription')}
        valueText={(i) => t('statsPage.bikeValue', { hours: hours.format(stats.bikes[i]!.hours), rides: stats.bikes[i]!.rides })}
      />
      <DataTable
        caption={t('statsPage.bikesTitle')}
        head={[t('statsPage.bike'), t('statsPage.model'), t('statsPage.rides'), t('statsPage.hours')]}
        rows={stats.bikes.map((b) => [bikeNumber(b.numero), b.modello, b.rides, hours.format(b.hours)])}
      />
    </ChartCard>
  );
}

function ResidentsChart({ stats }: ChartProps) {
  const t = useT();
  const { totals } = stats;
  const residentsTotal = totals.residentRides + totals.externalRides;
  const residentShare = percent(totals.residentRides, residentsTotal);
  const externalShare = percent(totals.externalRides, residentsTotal);
  return (
    <ChartCard id="stat-residenti" title={t('statsPage.residentsTitle')} note={t('statsPage.residentsNote')}>
      <SplitBar
        parts={[
          { value: totals.residentRides, color: COLORS.resident },
          { value: totals.externalRides, color: COLORS.external },
        ]}
        description={t('statsPage.residentsDescription', {
          residents: totals.residentRides,
          residentShare,
          externals: totals.externalRides,
          externalShare,
        })}
        legend={
          <Legend
            items={[
              { name: t('statsPage.residentsLegend', { count: totals.residentRides, share: residentShare }), color: COLORS.resident },
              { name: t('statsPage.externalsLegend', { count: totals.externalRides, share: externalShare }), color: COLORS.external },
            ]}
          />
        }
      />
      <DataTable
        caption={t('statsPage.residentsTitle')}
        head={[t('statsPage.users'), t('statsPage.rides'), t('statsPage.share')]}
        rows={[
          [t('statsPage.residents'), totals.residentRides, residentShare],
          [t('statsPage.externals'), totals.externalRides, externalShare],
        ]}
      />
    </ChartCard>
  );
}

function RevenueChart({ stats }: ChartProps) {
  const { t, lingua, buckets, unit, unitHead } = usePeriodOf(stats);
  const { totals } = stats;
  const amount = money(totals.revenueCents, lingua);
  return (
    <ChartCard id="stat-incasso" title={t('statsPage.revenueTitle')} note={t('statsPage.revenueNote', { amount })}>
      <BarChart
        data={buckets.map((b) => ({ label: b.label, values: [b.revenueCents] }))}
        series={[{ name: t('statsPage.revenueTitle'), color: COLORS.revenue }]}
        format={euroShort(t)}
        description={t('statsPage.revenueDescription', { unit, amount })}
      />
      <DataTable
        caption={t('statsPage.revenueCaption', { unit })}
        head={[unitHead, t('statsPage.revenueTitle')]}
        rows={buckets.map((b) => [b.longLabel, money(b.revenueCents, lingua)])}
      />
    </ChartCard>
  );
}

function CancellationsChart({ stats }: ChartProps) {
  const { t, buckets, unit, unitHead } = usePeriodOf(stats);
  const { totals } = stats;
  const cancellations = t('statsPage.cancellations');
  const releasedHolds = t('statsPage.releasedHolds');
  const series = [
    { name: cancellations, color: COLORS.cancellations },
    { name: releasedHolds, color: COLORS.releasedHolds },
  ];
  return (
    <ChartCard
      id="stat-cancellazioni"
      title={t('statsPage.cancellationsTitle')}
      note={t('statsPage.cancellationsNote', { cancellations: totals.cancellations, released: totals.releasedHolds })}
    >
      <BarChart
        data={buckets.map((b) => ({ label: b.label, values: [b.cancellations, b.releasedHolds] }))}
        series={series}
        description={t('statsPage.cancellationsDescription', { cancellations: totals.cancellations, released: totals.releasedHolds, unit })}
      />
      <Legend items={series} />
      <DataTable
        caption={t('statsPage.cancellationsCaption', { unit })}
        head={[unitHead, cancellations, releasedHolds]}
        rows={buckets.map((b) => [b.longLabel, b.cancellations, b.releasedHolds])}
      />
    </ChartCard>
  );
}

function DemandChart({ stats }: ChartProps) {
  const { t, lingua, unit, unitHead } = usePeriodOf(stats);
  const { waitlist } = stats;
  const waitBuckets = waitBucketsFor(waitlist.days, stats.period, lingua);
  const unserved = t('statsPage.unserved');
  const served = t('statsPage.served');
  const series = [
    { name: unserved, color: COLORS.unserved },
    { name: served, color: COLORS.rides },
  ];
  return (
    <ChartCard
      id="stat-domanda"
      title={t('statsPage.demandTitle')}
      note={t('statsPage.demandNote', { unserved: waitlist.unserved, served: waitlist.served })}
    >
      <BarChart
        data={waitBuckets.map((b) => ({ label: b.label, values: [b.unserved, b.served] }))}
        series={series}
        description={t('statsPage.demandDescription', { unserved: waitlist.unserved, served: waitlist.served, unit })}
      />
      <Legend items={series} />
      <DataTable
        caption={t('statsPage.demandCaption', { unit })}
        head={[unitHead, unserved, served]}
        rows={waitBuckets.map((b) => [b.longLabel, b.unserved, b.served])}
      />
      <BarChart
        data={waitlist.hours.map((h) => ({ label: String(h.hour), values: [h.unserved] }))}
        series={[{ name: unserved, color: COLORS.unserved }]}
        description={t('statsPage.demandHoursDescription')}
      />
      <DataTable
        caption={t('statsPage.demandHoursCaption')}
        head={[t('statsPage.hour'), unserved]}
        rows={waitlist.hours.map((h) => [hourRange(h.hour), h.unserved])}
      />
    </ChartCard>
  );
}

function Charts({ stats }: ChartProps) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <RidesChart stats={stats} />
      <HoursChart stats={stats} />
      <BikesChart stats={stats} />
      <ResidentsChart stats={stats} />
      <RevenueChart stats={stats} />
      <CancellationsChart stats={stats} />
      <DemandChart stats={stats} />
      <RepairsCard stats={stats} />
    </div>
  );
}

/** `/admin/statistiche`: the service at a glance for the staff (issue 10), its own lazy chunk. */
export function StatsPage() {
  const t = useT();
  const [period, setPeriod] = useState<StatsPeriod>(30);
  const [exporting, setExporting] = useState(false);
  const query = useQuery<StatsResponse>({ queryKey: [statsUrl(period)], placeholderData: keepPreviousData });
  const stats = query.data;

  const onExport = async () => {
    setExporting(true);
    try {
      await downloadCsv(period);
      toast({ title: translate('statsPage.exportDone') });
    } catch {
      toast({ title: translate('statsPage.exportError'), description: translate('statsPage.exportErrorText'), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="min-h-dvh bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2 sm:px-6">
          <LinkButton href="/admin" icon={ArrowLeftIcon} variant="ghost" size="sm">
            {t('statsPage.back')}
          </LinkButton>
        </div>
        <div className="mx-auto max-w-6xl px-4 pt-3 pb-5 sm:px-6">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('statsPage.title')}</h1>
          <p className="text-muted-foreground">{t('statsPage.subtitle')}</p>
        </div>
      </header>
      <main className="mx-auto max-w-6xl space-y-4 px-4 py-5 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div role="group" aria-label={t('statsPage.period')} className="inline-flex rounded-lg border bg-card p-1">
            {STATS_PERIODS.map((p) => (
              <button
                key={p}
                type="button"
                aria-pressed={period === p}
                onClick={() => setPeriod(p)}
                className={cn(
                  'min-h-10 rounded-md px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  period === p ? 'bg-primary text-primary-foreground' : 'text-foreground hover:bg-muted',
                )}
              >
                {t(PERIOD_LABELS[p])}
              </button>
            ))}
          </div>
          <Button variant="outline" onClick={() => void onExport()} disabled={exporting}>
            <ButtonIcon pending={exporting} icon={<DownloadIcon aria-hidden="true" />} />
            {t('statsPage.exportCsv')}
          </Button>
        </div>

        {stats && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {t('statsPage.range', { period: t(PERIOD_LABELS[stats.period]), from: shortDate(stats.from), to: shortDate(stats.to) })}
            {query.isFetching ? ` — ${t('statsPage.updating')}` : ''}
          </p>
        )}

        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label={t('statsPage.loading')} showLabel />
          </div>
        ) : query.isError && !stats ? (
          <div role="alert" className="rounded-xl border border-destructive/40 bg-card p-6 text-center">
            <p className="font-medium">{t('statsPage.loadFailed')}</p>
            <Button className="mt-3" variant="outline" onClick={() => void query.refetch()}>
              <RefreshCwIcon aria-hidden="true" />
              {t('statsPage.retry')}
            </Button>
          </div>
        ) : stats && stats.totals.bookings === 0 ? (
          <p className="rounded-xl border bg-card p-6 text-center text-muted-foreground">{t('statsPage.empty')}</p>
        ) : stats ? (
          <>
            <SediTable stats={stats} />
            <Charts stats={stats} />
          </>
        ) : null}
      </main>
    </div>
  );
}
