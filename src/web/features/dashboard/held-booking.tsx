import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { SessionUser } from '../../../shared/api-types';
import type { BookingDto } from '../../../shared/schemas/booking';
import { applyPendingActions } from '../../offline/offline-model';
import { BookingItem } from './booking-item';
import { NewCodeNotice } from './new-code-notice';
import { startOfflineSupport, usePendingActions } from './queries';

/**
 * The user's booking of the bike whose page is open (/bici/:numero, issue 34): the dashboard's
 * own card and ride actions, with a step tapped on this device and not yet sent applied, and the
 * offline machinery (issue 22) running as on the dashboard. Exported through dashboard-page.tsx,
 * so that it comes in the dashboard's chunk rather than splitting the card out of it.
 */
export function HeldBooking({ booking, user, onChanged }: { booking: BookingDto; user: SessionUser; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const pending = usePendingActions(user.id);
  useEffect(() => {
    void startOfflineSupport(queryClient, user);
  }, [queryClient, user]);
  const view = useMemo(() => applyPendingActions([booking], pending.data ?? [])[0]!, [booking, pending.data]);
  return (
    <>
      <ul className="grid gap-3">
        <BookingItem booking={view} onDeleted={onChanged} onRideChanged={onChanged} />
      </ul>
      <NewCodeNotice />
    </>
  );
}
