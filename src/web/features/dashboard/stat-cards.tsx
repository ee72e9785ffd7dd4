import { BikeIcon, CalendarCheckIcon, ListChecksIcon, UserRoundIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/utils';
import type { DashboardStats } from './dashboard-model';

type LoadState = 'loading' | 'error' | 'ready';

interface StatCardsProps {
  stats: DashboardStats;
  /** Whether the user's bookings and the bikes, which the counts come from, are loaded. */
  bookingsState: LoadState;
  bikesState: LoadState;
}

function StatValue({ value, state }: { value: ReactNode; state: LoadState }) {
  if (state === 'loading') return <Spinner label="Caricamento..." />;
  if (state === 'error') {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">Non disponibile</span>
      </>
    );
  }
  return <>{value}</>;
}

/** The four cards of spec §2: active bookings, available bikes, total bookings, account type. */
export function StatCards({ stats, bookingsState, bikesState }: StatCardsProps) {
  const cards: { label: string; icon: LucideIcon; value: ReactNode; state: LoadState }[] = [
    { label: 'Prenotazioni attive', icon: CalendarCheckIcon, value: stats.activeBookings, state: bookingsState },
    { label: 'Biciclette disponibili', icon: BikeIcon, value: stats.availableBikes, state: bikesState },
    { label: 'Prenotazioni totali', icon: ListChecksIcon, value: stats.totalBookings, state: bookingsState },
    { label: 'Tipo account', icon: UserRoundIcon, value: stats.accountType, state: 'ready' },
  ];

  return (
    <section aria-labelledby="riepilogo-title">
      <h2 id="riepilogo-title" className="sr-only">
        Riepilogo
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {cards.map(({ label, icon: Icon, value, state }) => (
          <div key={label} className="flex flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm">
            <dt className="flex items-start justify-between gap-2 text-sm font-medium text-muted-foreground">
              {label}
              <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
            </dt>
            <dd className={cn('font-bold tabular-nums', typeof value === 'number' ? 'text-2xl' : 'text-xl sm:text-2xl')}>
              <StatValue value={value} state={state} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
