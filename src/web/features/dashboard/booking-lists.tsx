import { CalendarXIcon, HistoryIcon, WifiOffIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import type { BookingView } from '../../offline/offline-model';
import { Spinner } from '../../components/ui/spinner';
import { BookingItem } from './booking-item';
import { LoadFailed } from '../../components/load-failed';
import { useT } from '../../lib/i18n';

interface BookingsState {
  bookings: BookingView[] | undefined;
  isPending: boolean;
  isError: boolean;
  /** Offline with nothing kept on this device (issue 22): the read waits for the network. */
  isOfflineEmpty: boolean;
  onRetry: () => void;
  /** The booking the person stands at the rack with, if any (issue 51): its card puts its actions first. */
  atRackId?: number;
}

function EmptyState({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card px-4 py-8 text-center text-muted-foreground">
      <Icon className="size-8" aria-hidden="true" />
      <p>{children}</p>
    </div>
  );
}

function ListBody({
  state,
  loadingLabel,
  empty,
  onDeleted,
}: {
  state: BookingsState;
  loadingLabel: string;
  empty: ReactNode;
  onDeleted?: () => void;
}) {
  const t = useT();
  if (state.isOfflineEmpty) {
    return (
      <EmptyState icon={WifiOffIcon}>
        {t('bookingLists.offlineEmpty')}
      </EmptyState>
    );
  }
  if (state.isPending) {
    return <Spinner label={loadingLabel} showLabel className="py-6" />;
  }
  // What was last read stays on screen when a new read fails (offline: the banner says so).
  if (!state.bookings) {
    return (
      <LoadFailed className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4" message={t('bookingLists.loadFailed')} onRetry={state.onRetry} />
    );
  }
  if (state.bookings.length === 0) return <>{empty}</>;
  return (
    <ul className="grid gap-3">
      {state.bookings.map((booking) => (
        <BookingItem key={booking.id} booking={booking} onDeleted={onDeleted} onRideChanged={onDeleted} atRack={booking.id === state.atRackId} />
      ))}
    </ul>
  );
}

/** The user's `attiva` bookings, each deletable. The heading takes the focus after a change. */
export function ActiveBookings({
  state,
  headingRef,
  onDeleted,
}: {
  state: BookingsState;
  headingRef: Ref<HTMLHeadingElement>;
  onDeleted: () => void;
}) {
  const t = useT();
  return (
    <section aria-labelledby="prenotazioni-attive-title" className="grid gap-3">
      <h2 id="prenotazioni-attive-title" ref={headingRef} tabIndex={-1} className="text-xl font-semibold">
        {t('bookingLists.activeTitle')}
      </h2>
      <ListBody
        state={state}
        loadingLabel={t('bookingLists.activeLoading')}
        empty={<EmptyState icon={CalendarXIcon}>{t('bookingLists.activeEmpty')}</EmptyState>}
        onDeleted={onDeleted}
      />
    </section>
  );
}

/** Up to three recent `completata` bookings (spec §2, §9). */
export function PastBookings({ state }: { state: BookingsState }) {
  const t = useT();
  return (
    <section aria-labelledby="prenotazioni-passate-title" className="grid gap-3">
      <h2 id="prenotazioni-passate-title" className="text-xl font-semibold">
        {t('bookingLists.pastTitle')}
      </h2>
      <ListBody
        state={state}
        loadingLabel={t('bookingLists.pastLoading')}
        empty={<EmptyState icon={HistoryIcon}>{t('bookingLists.pastEmpty')}</EmptyState>}
      />
    </section>
  );
}
