import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingDto, ExtendMinutes, ExtendOptionsDto } from '../../../shared/schemas/booking';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { OWN_BOOKINGS_QUERY_KEY, useRefreshBookingsAndBikes } from './queries';
import { t } from '../../lib/i18n';

/*
 * `Prolunga`'s reads and writes (issue 35), beside the dashboard's queries but in the dialog's
 * own chunk: nothing of it is downloaded before the dialog is asked for.
 */

/** The lengths a ride in progress may be extended by now: never kept, asked each time the dialog opens. */
export const extendOptionsQueryKey = (bookingId: number) => ['bicielis:prolunga', bookingId] as const;

export function useExtendOptions(bookingId: number, enabled: boolean) {
  return useQuery<ExtendOptionsDto, Error>({
    queryKey: extendOptionsQueryKey(bookingId),
    queryFn: () => apiRequest<ExtendOptionsDto>('GET', `/api/prenotazioni/${bookingId}/prolunga`),
    enabled,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * `Prolunga` (POST …/prolunga): the booking with its new end; the lists read again (the bike is
 * taken longer). A refusal is the server's Italian message, and the lengths and bookings are read
 * again (something was booked meanwhile, or the ride is late now).
 */
export function useExtendRide() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookingsAndBikes();
  return useMutation({
    mutationFn: ({ id, minuti }: { id: number; minuti: ExtendMinutes }) => apiRequest<BookingDto>('POST', `/api/prenotazioni/${id}/prolunga`, { minuti }),
    onSuccess: async (booking) => {
      await refresh();
      toast({ title: t('dashboardQueries.extended', { ora: booking.orarioFine }) });
    },
    onError: (error, { id }) => {
      toast({ variant: 'destructive', title: t('dashboardQueries.error'), description: serverMessage(error) ?? t('dashboardQueries.extendFailed') });
      void queryClient.invalidateQueries({ queryKey: extendOptionsQueryKey(id) });
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        void queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
      }
    },
  });
}
