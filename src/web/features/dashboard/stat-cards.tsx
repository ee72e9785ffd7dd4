import { BikeIcon, CalendarCheckIcon, ListChecksIcon, UserRoundIcon } from 'lucide-react';
import { SummaryCards, type LoadState, type SummaryCard } from '../../components/summary-cards';
import type { DashboardStats } from './dashboard-model';

interface StatCardsProps {
  stats: DashboardStats;
  /** Whether the user's bookings and the bikes, which the counts come from, are loaded. */
  bookingsState: LoadState;
  bikesState: LoadState;
}

/** The four cards of spec §2: active bookings, available bikes, total bookings, account type. */
export function StatCards({ stats, bookingsState, bikesState }: StatCardsProps) {
  const cards: SummaryCard[] = [
    { label: 'Prenotazioni attive', icon: CalendarCheckIcon, value: stats.activeBookings, state: bookingsState },
    { label: 'Biciclette disponibili', icon: BikeIcon, value: stats.availableBikes, state: bikesState },
    { label: 'Prenotazioni totali', icon: ListChecksIcon, value: stats.totalBookings, state: bookingsState },
    { label: 'Tipo account', icon: UserRoundIcon, value: stats.accountType, state: 'ready', text: true },
  ];

  return <SummaryCards id="riepilogo-title" cards={cards} className="lg:grid-cols-4" />;
}
