import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import type { SessionUser } from '../../../shared/api-types';
import type { WaitDto } from '../../../shared/schemas/waitlist';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { useCurrentUser } from '../../lib/session';
import { ActiveBookings, PastBookings } from './booking-lists';
import { DashboardHeader } from './dashboard-header';
import { dashboardStats, FALLBACK_TIME_ZONE, selectActiveBookings, selectPastBookings } from './dashboard-model';
import { NewBookingSection } from './new-booking-section';
import { useBikes, useOwnBookings } from './queries';
import { StatCards } from './stat-cards';
import { usePublicConfig } from '../../lib/public-config';
import { useWaits, WAITS_QUERY_KEY } from '../waitlist/queries';
import { splitWaits } from '../waitlist/waitlist-model';

/** The waitlist's cards (issue 21) load only for users who wait for a bike. */
const loadWaitlist = () => import('../waitlist/waitlist-panels');
const OfferCards = lazy(() => loadWaitlist().then((m) => ({ default: m.OfferCards })));
const WaitingList = lazy(() => loadWaitlist().then((m) => ({ default: m.WaitingList })));

/** Loads the waitlist's cards when the cache already holds waits (a server-rendered page: screens.tsx). */
export function loadWaitlistIfWaiting(queryClient: QueryClient): Promise<unknown> {
  const waits = queryClient.getQueryData<WaitDto[]>(WAITS_QUERY_KEY);
  return waits && waits.length > 0 ? loadWaitlist() : Promise.resolve();
}

/** /dashboard (spec §2 "User dashboard"). The route guard guarantees a logged-in user. */
export function DashboardPage() {
  const { data: user } = useCurrentUser();
  // Only while logging out: the session is gone before the address changes.
  if (!user) return <FullScreenSpinner label="Caricamento BiciElis..." />;
  return <Dashboard user={user} />;
}

function Dashboard({ user }: { user: SessionUser }) {
  const bookings = useOwnBookings();
  const bikes = useBikes();
  const activeHeadingRef = useRef<HTMLHeadingElement>(null);
  const [waitingFocus, setWaitingFocus] = useState(0);
  const waits = useWaits();
  const config = usePublicConfig();
  const { offers, waiting } = splitWaits(waits.data ?? []);

  const view = useMemo(
    () => (bookings.data ? { active: selectActiveBookings(bookings.data), past: selectPastBookings(bookings.data) } : undefined),
    [bookings.data],
  );
  const stats = dashboardStats(bookings.data ?? [], bikes.data ?? [], user);
  const focusActiveBookings = () => activeHeadingRef.current?.focus();
  const listState = (list: 'active' | 'past') => ({
    bookings: view?.[list],
    isPending: bookings.isPending,
    isError: bookings.isError,
    onRetry: () => void bookings.refetch(),
  });

  return (
    <div className="min-h-dvh pb-12">
      <DashboardHeader user={user} />
      <main className="mx-auto grid max-w-5xl gap-8 px-4 pt-6 sm:px-6">
        {offers.length > 0 ? (
          <Suspense fallback={null}>
            <OfferCards offers={offers} timeZone={config.data?.timeZone ?? FALLBACK_TIME_ZONE} />
          </Suspense>
        ) : null}
        <StatCards
          stats={stats}
          bookingsState={bookings.isPending ? 'loading' : bookings.isError ? 'error' : 'ready'}
          bikesState={bikes.isPending ? 'loading' : bikes.isError ? 'error' : 'ready'}
        />
        <NewBookingSection
          hasActiveBooking={view ? view.active.length > 0 : bookings.isError ? false : undefined}
          onCreated={focusActiveBookings}
          isExternal={!user.isResidente}
          isAdmin={user.ruolo === 'admin'}
          onWaiting={() => setWaitingFocus((n) => n + 1)}
        />
        {waiting.length > 0 ? (
          <Suspense fallback={null}>
            <WaitingList waiting={waiting} focusRequest={waitingFocus} />
          </Suspense>
        ) : null}
        <ActiveBookings state={listState('active')} headingRef={activeHeadingRef} onDeleted={focusActiveBookings} />
        <PastBookings state={listState('past')} />
      </main>
    </div>
  );
}
