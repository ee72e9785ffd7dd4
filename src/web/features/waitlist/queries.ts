import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingDto } from '../../../shared/schemas/booking';
import type { WaitDto, WaitRequest } from '../../../shared/schemas/waitlist';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { bookingCreatedNotice } from '../../lib/booking-notices';
import { BIKES_QUERY_KEY, OWN_BOOKINGS_QUERY_KEY } from '../../lib/query-keys';
import { t } from '../../lib/i18n';

/** GET /api/attese (issue 21): the user's open waits, offers first. */
export const WAITS_QUERY_KEY = ['/api/attese'] as const;

/** While the user waits, an offer can come at any moment: read again every 30 s, and on focus. */
export const WAITS_REFRESH_MS = 30_000;

export function useWaits() {
  return useQuery<WaitDto[]>({
    queryKey: WAITS_QUERY_KEY,
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? WAITS_REFRESH_MS : false),
    refetchOnWindowFocus: true,
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: WAITS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: BIKES_QUERY_KEY }),
    ]);
}

type WaitlistFailure = 'waitlist.joinFailed' | 'waitlist.leaveFailed' | 'waitlist.acceptFailed' | 'waitlist.declineFailed';

/** A refusal's toast, and the waits read again (the refusal usually means they changed). */
function useOnError(fallback: WaitlistFailure) {
  const refresh = useRefresh();
  return (error: unknown) => {
    toast({ variant: 'destructive', title: t('waitlist.error'), description: serverMessage(error) ?? t(fallback) });
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) void refresh();
  };
}

/** POST /api/attese — `Avvisami se si libera una bici`. */
export function useJoinWait() {
  const refresh = useRefresh();
  const onError = useOnError('waitlist.joinFailed');
  return useMutation({
    mutationFn: (request: WaitRequest) => apiRequest<WaitDto>('POST', '/api/attese', request),
    onSuccess: async (wait) => {
      await refresh();
      toast({
        title: t('waitlist.joined'),
        description: t('waitlist.joinedText', { posizione: wait.posizione }),
      });
    },
    onError,
  });
}

/** DELETE /api/attese/:id — `Esci dalla lista`. */
export function useLeaveWait() {
  const refresh = useRefresh();
  const onError = useOnError('waitlist.leaveFailed');
  return useMutation({
    mutationFn: (id: number) => apiRequest<undefined>('DELETE', `/api/attese/${id}`),
    onSuccess: async () => {
      await refresh();
      toast({ title: t('waitlist.left') });
    },
    onError,
  });
}

/** POST /api/attese/:id/accetta — `Prenota`: the offer becomes a booking. */
export function useAcceptOffer() {
  const refresh = useRefresh();
  const onError = useOnError('waitlist.acceptFailed');
  return useMutation({
    mutationFn: (id: number) => apiRequest<BookingDto>('POST', `/api/attese/${id}/accetta`),
    onSuccess: async (booking) => {
      await refresh();
      toast(bookingCreatedNotice(booking));
    },
    onError,
  });
}

/** POST /api/attese/:id/rinuncia — `Rinuncia`: the bike goes to the next in line. */
export function useDeclineOffer() {
  const refresh = useRefresh();
  const onError = useOnError('waitlist.declineFailed');
  return useMutation({
    mutationFn: (id: number) => apiRequest<undefined>('POST', `/api/attese/${id}/rinuncia`),
    onSuccess: async () => {
      await refresh();
      toast({ title: t('waitlist.declined'), description: t('waitlist.declinedText') });
    },
    onError,
  });
}
