import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, DownloadIcon, RefreshCwIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { LinkButton } from '../../components/link-button';
import { formatEuroCents } from '../../../shared/money';
import { STATS_PERIODS, type StatsPeriod, type StatsResponse } from '../../../shared/schemas/stats';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiFetch } from '../../lib/api';
import { cn } from '../../lib/utils';
import { BarChart, COLORS, HorizontalBarChart, SplitBar } from './charts';
import { saveResponseAsFile } from '../../lib/download';
import { bucketsFor, percent, PERIOD_LABELS, waitBucketsFor } from './stats-model';

const statsUrl = (period: StatsPeriod) => `/api/admin/stats?period=${period}`;
const hours1 = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 1 });
const euroShort = (cents: number) => `${Math.round(cents / 100)} €`;

/** A chart's numbers as a table, on request: for screen readers and for reading exact values. */
function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <details className="mt-3 rounded-md border text-sm">
      <summary className="cursor-pointer px-3 py-2 font-medium text-primary">Mostra dati</summary>
      {/* Scrollable, so reachable by keyboard (focusable and named). */}
      <div
        className="max-h-80 overflow-auto border-t focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        tabIndex={0}
        role="region"
        aria-label={`Tabella: ${caption}`}
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

function Legend({ items }: { items: { label: string; color: string }[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-hidden="true">
      {items.map((i) => (
        <li key={i.label} className="flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm" style={{ backgroundColor: i.color }} />
          {i.label}
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

/** The period's buckets (days, or months over a year) and how they are named. */
function periodOf(stats: StatsResponse) {
  return {
    buckets: bucketsFor(stats.days, stats.period),
    unit: stats.period === 365 ? 'mese' : 'giorno',
    unitHead: stats.period === 365 ? 'Mese' : 'Giorno',
  };
}

type ChartProps = { stats: StatsResponse };

function RidesChart({ stats }: ChartProps) {
  const { buckets, unit, unitHead } = periodOf(stats);
  const { totals } = stats;
  return (
    <ChartCard id="stat-corse" title={`Corse al ${unit}`} note={`${totals.rides} corse (prenotazioni non cancellate); ${totals.noShows} ${totals.noShows === 1 ? 'bici non ritirata' : 'bici non ritirate'}, ${totals.damageReports} ${totals.damageReports === 1 ? 'danno segnalato' : 'danni segnalati'}.`}>
      <BarChart
        data={buckets.map((b) => ({ label: b.label, values: [b.rides] }))}
        series={[{ name: 'Corse', color: COLORS.rides }]}
        description={`Grafico a barre delle corse al ${unit}: ${totals.rides} in tutto. I numeri sono nella tabella "Mostra dati".`}
      />
      <DataTable caption={`Corse al ${unit}`} head={[unitHead, 'Corse']} rows={buckets.map((b) => [b.longLabel, b.rides])} />
    </ChartCard>
  );
}

function HoursChart({ stats }: ChartProps) {
  return (
    <ChartCard id="stat-ore" title="Uso per ora del giorno" note="Corse per ora di inizio (ora italiana).">
      <BarChart
        data={stats.hours.map((h) => ({ label: String(h.hour), values: [h.rides] }))}
        series={[{ name: 'Corse', color: COLORS.rides }]}
        description="Grafico a barre delle corse per ora di inizio, dalle 0 alle 23. I numeri sono nella tabella."
      />
      <DataTable
        caption="Corse per ora di inizio"
        head={['Ora', 'Corse']}
        rows={stats.hours.map((h) => [hourRange(h.hour), h.rides])}
      />
    </ChartCard>
  );
}

function BikesChart({ stats }: ChartProps) {
  const never = stats.bikes.filter((b) => b.rides === 0);
  const top = stats.bikes[0];
  return (
    <ChartCard
      id="stat-bici"
      title="Uso per bici"
      note={
        <>
          {top && top.rides > 0 ? `Più usata: n. ${top.numero} (${top.rides} corse, ${hours1.format(top.hours)} h). ` : ''}
          {never.length > 0 ? `Mai usate: ${never.map((b) => `n. ${b.numero}`).join(', ')}.` : 'Tutte le bici sono state usate.'}
        </>
      }
    >
      <HorizontalBarChart
        data={stats.bikes.map((b) => ({ label: `n. ${b.numero}`, value: b.hours }))}
        color={COLORS.rides}
        description="Grafico a barre orizzontali delle ore di uso per bici, dalla più usata. I numeri sono nella tabella."
        valueText={(i) => `${hours1.format(stats.bikes[i]!.hours)} h · ${stats.bikes[i]!.rides} ${stats.bikes[i]!.rides === 1 ? 'corsa' : 'corse'}`}
      />
      <DataTable
        caption="Uso per bici"
        head={['Bici', 'Modello', 'Corse', 'Ore']}
        rows={stats.bikes.map((b) => [`n. ${b.numero}`, b.modello, b.rides, hours1.format(b.hours)])}
      />
    </ChartCard>
  );
}

function ResidentsChart({ stats }: ChartProps) {
  const { totals } = stats;
  const residentsTotal = totals.residentRides + totals.externalRides;
  return (
    <ChartCard id="stat-residenti" title="Residenti ed esterni" note="Corse di residenti del collegio e di utenti esterni.">
      <SplitBar
        parts={[
          { value: totals.residentRides, color: COLORS.resident },
          { value: totals.externalRides, color: COLORS.external },
        ]}
        description={`Residenti ${totals.residentRides} corse (${percent(totals.residentRides, residentsTotal)}), esterni ${totals.externalRides} (${percent(totals.externalRides, residentsTotal)}).`}
        legend={
          <Legend
            items={[
              { label: `Residenti ${totals.residentRides} (${percent(totals.residentRides, residentsTotal)})`, color: COLORS.resident },
              { label: `Esterni ${totals.externalRides} (${percent(totals.externalRides, residentsTotal)})`, color: COLORS.external },
            ]}
          />
        }
      />
      <DataTable
        caption="Residenti ed esterni"
        head={['Utenti', 'Corse', 'Quota']}
        rows={[
          ['Residenti', totals.residentRides, percent(totals.residentRides, residentsTotal)],
          ['Esterni', totals.externalRides, percent(totals.externalRides, residentsTotal)],
        ]}
      />
    </ChartCard>
  );
}

function RevenueChart({ stats }: ChartProps) {
  const { buckets, unit, unitHead } = periodOf(stats);
  const { totals } = stats;
  return (
    <ChartCard
      id="stat-incasso"
      title="Incasso"
      note={`${formatEuroCents(totals.revenueCents)} da pagamenti completati; i rimborsi non sono contati.`}
    >
      <BarChart
        data={buckets.map((b) => ({ label: b.label, values: [b.revenueCents] }))}
        series={[{ name: 'Incasso', color: COLORS.revenue }]}
        format={euroShort}
        description={`Grafico a barre dell'incasso al ${unit}: ${formatEuroCents(totals.revenueCents)} in tutto. I numeri sono nella tabella.`}
      />
      <DataTable
        caption={`Incasso al ${unit}`}
        head={[unitHead, 'Incasso']}
        rows={buckets.map((b) => [b.longLabel, formatEuroCents(b.revenueCents)])}
      />
    </ChartCard>
  );
}

function CancellationsChart({ stats }: ChartProps) {
  const { buckets, unit, unitHead } = periodOf(stats);
  const { totals } = stats;
  return (
    <ChartCard
      id="stat-cancellazioni"
      title="Cancellazioni e blocchi rilasciati"
      note={`${totals.cancellations} cancellazioni, di cui ${totals.releasedHolds} con il pagamento non riuscito (bici liberata).`}
    >
      <BarChart
        data={buckets.map((b) => ({ label: b.label, values: [b.cancellations, b.releasedHolds] }))}
        series={[
          { name: 'Cancellazioni', color: COLORS.cancellations },
          { name: 'Blocchi rilasciati', color: COLORS.releasedHolds },
        ]}
        description={`Grafico a barre delle cancellazioni (${totals.cancellations}) e dei blocchi rilasciati (${totals.releasedHolds}) al ${unit}. I numeri sono nella tabella.`}
      />
      <Legend
        items={[
          { label: 'Cancellazioni', color: COLORS.cancellations },
          { label: 'Blocchi rilasciati', color: COLORS.releasedHolds },
        ]}
      />
      <DataTable
        caption={`Cancellazioni e blocchi rilasciati al ${unit}`}
        head={[unitHead, 'Cancellazioni', 'Blocchi rilasciati']}
        rows={buckets.map((b) => [b.longLabel, b.cancellations, b.releasedHolds])}
      />
    </ChartCard>
  );
}

function DemandChart({ stats }: ChartProps) {
  const { unit, unitHead } = periodOf(stats);
  const { waitlist } = stats;
  const waitBuckets = waitBucketsFor(waitlist.days, stats.period);
  return (
    <ChartCard
      id="stat-domanda"
      title="Domanda non servita"
      note={`Persone in lista d'attesa la cui fascia oraria è iniziata senza che si liberasse una bici: ${waitlist.unserved} non servite, ${waitlist.served} servite da un'offerta. È la domanda a cui la flotta non è bastata.`}
    >
      <BarChart
        data={waitBuckets.map((b) => ({ label: b.label, values: [b.unserved, b.served] }))}
        series={[
          { name: 'Non servite', color: COLORS.unserved },
          { name: 'Servite', color: COLORS.rides },
        ]}
        description={`Grafico a barre delle attese non servite (${waitlist.unserved}) e servite (${waitlist.served}) al ${unit}. I numeri sono nella tabella.`}
      />
      <Legend
        items={[
          { label: 'Non servite', color: COLORS.unserved },
          { label: 'Servite', color: COLORS.rides },
        ]}
      />
      <DataTable
        caption={`Attese non servite e servite al ${unit}`}
        head={[unitHead, 'Non servite', 'Servite']}
        rows={waitBuckets.map((b) => [b.longLabel, b.unserved, b.served])}
      />
      <BarChart
        data={waitlist.hours.map((h) => ({ label: String(h.hour), values: [h.unserved] }))}
        series={[{ name: 'Non servite', color: COLORS.unserved }]}
        description="Grafico a barre delle attese non servite per ora di inizio della fascia, dalle 0 alle 23. I numeri sono nella tabella."
      />
      <DataTable
        caption="Attese non servite per ora di inizio"
        head={['Ora', 'Non servite']}
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
    </div>
  );
}

/** `/admin/statistiche`: the service at a glance for the staff (issue 10), its own lazy chunk. */
export function StatsPage() {
  const [period, setPeriod] = useState<StatsPeriod>(30);
  const [exporting, setExporting] = useState(false);
  const query = useQuery<StatsResponse>({ queryKey: [statsUrl(period)], placeholderData: keepPreviousData });
  const stats = query.data;

  const onExport = async () => {
    setExporting(true);
    try {
      await downloadCsv(period);
      toast({ title: 'Esportazione completata' });
    } catch {
      toast({ title: 'Errore esportazione', description: 'Il file CSV non è stato scaricato. Riprova.', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="min-h-dvh bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2 sm:px-6">
          <LinkButton href="/admin" icon={ArrowLeftIcon} variant="ghost" size="sm">
            Amministrazione
          </LinkButton>
        </div>
        <div className="mx-auto max-w-6xl px-4 pt-3 pb-5 sm:px-6">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Statistiche</h1>
          <p className="text-muted-foreground">Il servizio in sintesi: corse, uso delle bici, incassi e cancellazioni.</p>
        </div>
      </header>
      <main className="mx-auto max-w-6xl space-y-4 px-4 py-5 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div role="group" aria-label="Periodo" className="inline-flex rounded-lg border bg-card p-1">
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
                {PERIOD_LABELS[p]}
              </button>
            ))}
          </div>
          <Button variant="outline" onClick={() => void onExport()} disabled={exporting}>
            <ButtonIcon pending={exporting} icon={<DownloadIcon aria-hidden="true" />} />
            Esporta CSV
          </Button>
        </div>

        {stats && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {PERIOD_LABELS[stats.period]}: dal {stats.from.split('-').reverse().join('/')} al {stats.to.split('-').reverse().join('/')}
            {query.isFetching ? ' — aggiornamento...' : ''}
          </p>
        )}

        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Caricamento statistiche..." showLabel />
          </div>
        ) : query.isError && !stats ? (
          <div role="alert" className="rounded-xl border border-destructive/40 bg-card p-6 text-center">
            <p className="font-medium">Impossibile caricare le statistiche.</p>
            <Button className="mt-3" variant="outline" onClick={() => void query.refetch()}>
              <RefreshCwIcon aria-hidden="true" />
              Riprova
            </Button>
          </div>
        ) : stats && stats.totals.bookings === 0 ? (
          <p className="rounded-xl border bg-card p-6 text-center text-muted-foreground">Nessuna prenotazione nel periodo</p>
        ) : stats ? (
          <Charts stats={stats} />
        ) : null}
      </main>
    </div>
  );
}
