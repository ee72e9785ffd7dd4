import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionUser } from '../../../shared/api-types';
import type { WaitDto } from '../../../shared/schemas/waitlist';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { preloadable } from '../../lib/preloadable';
import { HydrationMark, screenHydrated } from '../../lib/page-hydration';
import { useCurrentUser } from '../../lib/session';
import { ActiveBookings, PastBookings } from './booking-lists';
import { DashboardHeader } from './dashboard-header';
import { bookingAtRack, dashboardStats, FALLBACK_TIME_ZONE, firstPickUpOpening, selectActiveBookings, selectPastBookings } from './dashboard-model';
import { NewBookingSection } from './new-booking-section';
import { NewCodeNotice } from './new-code-notice';
import { OfflineBanner } from './offline-banner';
import { BIKES_QUERY_KEY, OWN_BOOKINGS_QUERY_KEY, startOfflineSupport, useBikes, useOwnBookings, usePendingActions } from './queries';
import { RefusedActions } from './refused-actions';
import { applyPendingActions, refusedActions } from '../../offline/offline-model';
import { StatCards } from './stat-cards';
import { useNowPassing } from './use-now-passing';
import { usePublicConfig } from '../../lib/public-config';
import { splitWaits, useWaits, WAITS_QUERY_KEY } from '../waitlist';
import { useT } from '../../lib/i18n';

/** The booking's card, for the bike's page (issue 34), which takes it from this chunk rather than splitting the card out of it. */
export { HeldBooking } from './held-booking';
export { prefetchDashboard } from './queries';

/** The waitlist's cards (issue 21) load only for users who wait for a bike. */
const waitlistPanels = preloadable(() => import('../waitlist/waitlist-panels'));
export const loadWaitlist = waitlistPanels.load;
const OfferCards = waitlistPanels.component((m) => m.OfferCards);
const WaitingList = waitlistPanels.component((m) => m.WaitingList);

/** Loads the waitlist's cards when the cache already holds waits (a server-rendered page: screens.tsx). */
export function loadWaitlistIfWaiting(queryClient: QueryClient): Promise<unknown> {
  const waits = queryClient.getQueryData<WaitDto[]>(WAITS_QUERY_KEY);
  return waits && waits.length > 0 ? loadWaitlist() : Promise.resolve();
}

/** /dashboard (spec §2 "User dashboard"). The route guard guarantees a logged-in user. */
export function DashboardPage() {
  const t = useT();
  const { data: user } = useCurrentUser();
  // Only while logging out: the session is gone before the address changes.
  if (!user) return <FullScreenSpinner label={t('app.loading')} />;
  return <Dashboard user={user} />;
}

/** A query that waits for the network (offline, nothing kept): not "loading", since nothing is on its way. */
const waitsForNetwork = (query: { isPending: boolean; fetchStatus: string }) => query.isPending && query.fetchStatus === 'paused';

function Dashboard({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const bookings = useOwnBookings();
  const bikes = useBikes();
  const pending = usePendingActions(user.id);
  const activeHeadingRef = useRef<HTMLHeadingElement>(null);
  const [waitingFocus, setWaitingFocus] = useState(0);
  const waits = useWaits();
  const config = usePublicConfig();
  const { offers, waiting } = splitWaits(waits.data ?? []);
  const timeZone = config.data?.timeZone ?? FALLBACK_TIME_ZONE;

  // The boundaries within the screen as it first rendered (hydrated, on a server-rendered page, after it).
  const [hydrationParts] = useState(() => [...(offers.length > 0 ? ['offerte'] : []), ...(waiting.length > 0 ? ['attese'] : [])]);
  useEffect(() => screenHydrated(hydrationParts), [hydrationParts]);

  // Issue 22: the user's data kept for offline use, the queue sent (also for a user who logged
  // in on this page, after the screen's chunk had loaded).
  useEffect(() => {
    void startOfflineSupport(queryClient, user);
  }, [queryClient, user]);

  const view = useMemo(() => {
    if (!bookings.data) return undefined;
    const shown = applyPendingActions(bookings.data, pending.data ?? []);
    return { active: selectActiveBookings(shown), past: selectPastBookings(shown) };
  }, [bookings.data, pending.data]);
  const refused = useMemo(() => refusedActions(pending.data ?? []), [pending.data]);
  // Issue 51 (decision 060): at the rack — a ride in progress, or a booking whose pick-up window
  // is open — the page opens on that booking's card. The clock is the server's while the page
  // hydrates (the server wrote this order), then looked at again when a window opens.
  const now = useNowPassing(view ? firstPickUpOpening(view.active) : null);
  const atRack = view ? bookingAtRack(view.active, now) : undefined;
  const stats = dashboardStats(bookings.data ?? [], bikes.data ?? [], user);
  const focusActiveBookings = () => activeHeadingRef.current?.focus();
  const bookingsOffline = waitsForNetwork(bookings);
  const listState = (list: 'active' | 'past') => ({
    bookings: view?.[list],
    isPending: bookings.isPending,
    isError: bookings.isError,
    isOfflineEmpty: bookingsOffline,
    onRetry: () => void bookings.refetch(),
    atRackId: atRack?.id,
  });
  const retry = () => {
    for (const queryKey of [OWN_BOOKINGS_QUERY_KEY, BIKES_QUERY_KEY]) void queryClient.invalidateQueries({ queryKey });
  };
  const loadState = (query: { isPending: boolean; isError: boolean; data: unknown; fetchStatus: string }) =>
    waitsForNetwork(query) || (query.isError && query.data === undefined) ? 'error' : query.isPending ? 'loading' : 'ready';

  const activeSection = <ActiveBookings key="attive" state={listState('active')} headingRef={activeHeadingRef} onDeleted={focusActiveBookings} />;
  const rest = [
    offers.length > 0 ? (
      <Suspense key="offerte" fallback={null}>
        <OfferCards offers={offers} timeZone={timeZone} />
        <HydrationMark part="offerte" />
      </Suspense>
    ) : null,
    <StatCards key="riepilogo" stats={stats} bookingsState={loadState(bookings)} bikesState={loadState(bikes)} />,
    <NewBookingSection
      key="nuova"
      hasActiveBooking={view ? view.active.length > 0 : bookings.isError ? false : undefined}
      onCreated={focusActiveBookings}
      isExternal={!user.isResidente}
      isAdmin={user.ruolo === 'admin'}
      onWaiting={() => setWaitingFocus((n) => n + 1)}
    />,
    waiting.length > 0 ? (
      <Suspense key="attese" fallback={null}>
        <WaitingList waiting={waiting} focusRequest={waitingFocus} />
        <HydrationMark part="attese" />
      </Suspense>
    ) : null,
  ];

  return (
    <div className="min-h-dvh pb-12">
      <DashboardHeader user={user} />
      <OfflineBanner lastSync={bookings.dataUpdatedAt} timeZone={timeZone} onRetry={retry} />
      <main className="mx-auto grid max-w-5xl gap-8 px-4 pt-6 sm:px-6">
        <RefusedActions actions={refused} timeZone={timeZone} onDismissed={focusActiveBookings} />
        {/* Keyed, in one list: a change of order moves the sections, it does not mount them again
            (a dialog open in the card, the form's fields, the focus stay). */}
        {atRack ? [activeSection, ...rest] : [...rest, activeSection]}
        <PastBookings state={listState('past')} />
      </main>
      <NewCodeNotice />
    </div>
  );
}
