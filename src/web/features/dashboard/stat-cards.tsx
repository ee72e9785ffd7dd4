import { BikeIcon, CalendarCheckIcon, ListChecksIcon, UserRoundIcon } from 'lucide-react';
import { SummaryCards, type LoadState, type SummaryCard } from '../../components/summary-cards';
import { useT } from '../../lib/i18n';
import type { DashboardStats } from './dashboard-model';

interface StatCardsProps {
  stats: DashboardStats;
  /** Whether the user's bookings and the bikes, which the counts come from, are loaded. */
  bookingsState: LoadState;
  bikesState: LoadState;
}

/** The four cards of spec §2: active bookings, available bikes, total bookings, account type. */
export function StatCards({ stats, bookingsState, bikesState }: StatCardsProps) {
  const t = useT();
  const cards: SummaryCard[] = [
    { label: t('statCards.active'), icon: CalendarCheckIcon, value: stats.activeBookings, state: bookingsState },
    { label: t('statCards.bikes'), icon: BikeIcon, value: stats.availableBikes, state: bikesState },
    { label: t('statCards.total'), icon: ListChecksIcon, value: stats.totalBookings, state: bookingsState },
    { label: t('statCards.accountType'), icon: UserRoundIcon, value: t(stats.accountType === 'Residente' ? 'statCards.resident' : 'statCards.external'), state: 'ready', text: true },
  ];

  return <SummaryCards id="riepilogo-title" cards={cards} className="lg:grid-cols-4" />;
}
