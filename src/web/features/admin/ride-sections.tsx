import { Undo2Icon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AdminOverdueDto } from '../../../shared/schemas/admin';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { formatDelay, formatShortDate } from './admin-model';
import { useOverdueRides, useReleaseRide } from './queries';
import { OpenTicketsSection } from '../officina/tickets-panels';
import { SedeFilter, useSedeBadge, useSedeFilter } from './sede-filter';
import { LoadFailed } from '../../components/load-failed';

/** A section's body: spinner, error with retry, empty text, or its list. */
function ListState<T>({
  query,
  label,
  empty,
  children,
}: {
  query: { data: T[] | undefined; isPending: boolean; isError: boolean; refetch: () => unknown };
  label: string;
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  const t = useT();
  if (query.isPending) return <Spinner label={t('rideSections.loading', { what: label })} showLabel className="py-4" />;
  if (query.isError || !query.data) {
    return (
      <LoadFailed
        className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4"
        message={t('rideSections.loadFailed', { label })}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.length === 0) {
    return <p className="rounded-xl border border-dashed bg-card px-4 py-6 text-center text-muted-foreground">{empty}</p>;
  }
  return <ul className="grid gap-3">{children(query.data)}</ul>;
}

function ReleaseRide({ ride }: { ride: AdminOverdueDto }) {
  const t = useT();
  const release = useReleaseRide();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button size="sm" variant="outline" aria-label={t('rideSections.releaseAria', { numero: ride.biciNumero })}>
          <Undo2Icon aria-hidden="true" />
          {t('rideSections.release')}
        </Button>
      }
      title={t('rideSections.releaseTitle', { numero: ride.biciNumero })}
      description={t('rideSections.releaseDescription', { utente: ride.utente })}
      confirmLabel={t('rideSections.release')}
      onConfirm={() => release.mutateAsync(ride.id)}
    />
  );
}

/** Rides picked up and not returned by their end (decision 022), with who is waiting for the bike next. */
export function OverdueRidesSection() {
  const t = useT();
  const [sedeId, setSedeId] = useSedeFilter();
  const rides = useOverdueRides(sedeId);
  const sedeBadge = useSedeBadge();
  return (
    <section aria-labelledby="ritardi-title" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="ritardi-title" className="text-xl font-semibold">
          {t('rideSections.overdueTitle')}
        </h2>
        <SedeFilter value={sedeId} onChange={setSedeId} />
      </div>
      <ListState query={rides} label={t('rideSections.overdueWhat')} empty={t('rideSections.overdueNone')}>
        {(rows) =>
          rows.map((ride) => (
            <li
              key={ride.id}
              className="flex flex-col gap-3 rounded-xl border border-red-300 bg-card p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="grid min-w-0 gap-1 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="min-w-0 text-base font-semibold wrap-anywhere">
                    {t('rideSections.bikeHeading', { numero: ride.biciNumero, modello: ride.biciModello })}
                  </h3>
                  <Badge variant="danger">{t('rideSections.lateBy', { delay: formatDelay(ride.minutiRitardo, t) })}</Badge>
                  {sedeBadge(ride.sedeId)}
                </div>
                <p>
                  {ride.utente} <span className="break-all text-muted-foreground">({ride.userEmail})</span>
                </p>
                <p className="text-muted-foreground">
                  {t('rideSections.dueEnd', { date: formatShortDate(ride.dataPrenotazione), time: ride.orarioFine })}
                </p>
                <p className="text-muted-foreground">
                  {ride.prossima
                    ? t('rideSections.nextBooking', {
                        utente: ride.prossima.utente,
                        date: formatShortDate(ride.prossima.dataPrenotazione),
                        time: ride.prossima.orarioInizio,
                      })
                    : t('rideSections.noNextBooking')}
                </p>
              </div>
              <ReleaseRide ride={ride} />
            </li>
          ))
        }
      </ListState>
    </section>
  );
}

/**
 * `Danni da controllare` (issue 48): the open repair tickets (every damage report opens one), each
 * a link to its page on the workshop's screen; the sede's filter where there are several.
 */
export function DamageReportsSection() {
  const [sedeId, setSedeId] = useSedeFilter();
  return <OpenTicketsSection sedeId={sedeId} filter={<SedeFilter value={sedeId} onChange={setSedeId} />} />;
}
