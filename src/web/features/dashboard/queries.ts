import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiErrorBody } from '../../../shared/api-types';
import type { AvailabilityRequest, BikeDto, BookingDto, BookingRequest, ReturnRequest } from '../../../shared/schemas/booking';
import type { PublicRulesDto } from '../../../shared/schemas/rules';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { PUBLIC_CONFIG_QUERY_KEY } from '../../lib/public-config';
import { whenSessionKnown } from '../../lib/session';
import { serverMessage } from '../auth/api-errors';
import { formatEuroCents } from '../../../shared/money';
import { WAITS_QUERY_KEY } from '../waitlist/queries';
import { bookingCreatedNotice } from './booking-notices';

/** GET /api/prenotazioni/user (the default query function GETs the joined key). */
export const OWN_BOOKINGS_QUERY_KEY = ['/api/prenotazioni', 'user'] as const;
/** GET /api/biciclette. Also the prefix of the availability queries, so one invalidation refreshes both. */
export const BIKES_QUERY_KEY = ['/api/biciclette'] as const;
/** GET /api/regole: the service's rules as the booking form applies them, and the user's own suspension (issue 20). */
export const PUBLIC_RULES_QUERY_KEY = ['/api/regole'] as const;
const availabilityKey = (w: AvailabilityRequest) =>
  [...BIKES_QUERY_KEY, 'available', w.dataPrenotazione, w.orarioInizio, w.orarioFine] as const;

/**
 * The dashboard's first reads (own bookings, bikes, the public configuration), started as
 * soon as its chunk has loaded and the session is known to be a user, rather than once the
 * screen has rendered: they travel while React works. The screen's queries find them in
 * flight or done.
 */
export function prefetchDashboard(queryClient: QueryClient): void {
  whenSessionKnown((user) => {
    if (!user) return;
    for (const queryKey of [OWN_BOOKINGS_QUERY_KEY, BIKES_QUERY_KEY, PUBLIC_CONFIG_QUERY_KEY, PUBLIC_RULES_QUERY_KEY, WAITS_QUERY_KEY]) {
      void queryClient.prefetchQuery({ queryKey });
    }
  });
}

/** While a ride is on, its phase moves with the clock (in ritardo at the end): read again every minute. */
const RIDE_REFRESH_MS = 60_000;

export function useOwnBookings() {
  return useQuery<BookingDto[]>({
    queryKey: OWN_BOOKINGS_QUERY_KEY,
    refetchInterval: (query) => (query.state.data?.some((b) => b.stato === 'attiva') ? RIDE_REFRESH_MS : false),
  });
}

/**
 * The rules, read when the dashboard opens and again after a refused booking (an admin may
 * have changed them meanwhile, or a suspension may have started).
 */
export function usePublicRules() {
  return useQuery<PublicRulesDto>({ queryKey: PUBLIC_RULES_QUERY_KEY });
}

export function useBikes() {
  return useQuery<BikeDto[]>({ queryKey: BIKES_QUERY_KEY });
}

/**
 * POST /api/biciclette/available for a window, once the window is complete (`null` until
 * then). Each window is fetched when it is first shown and dropped as soon as nobody shows
 * it, so reopening the form or coming back to an earlier window asks the server again.
 */
export function useAvailableBikes(window: AvailabilityRequest | null) {
  return useQuery<BikeDto[]>({
    queryKey: window ? availabilityKey(window) : [...BIKES_QUERY_KEY, 'available', 'incompleto'],
    queryFn: () => apiRequest<BikeDto[]>('POST', '/api/biciclette/available', window),
    enabled: window !== null,
    gcTime: 0,
  });
}

/** After a booking is created or cancelled, the user's bookings and every bike list are out of date. */
function useRefreshBookingsAndBikes() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: BIKES_QUERY_KEY }),
    ]);
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookingsAndBikes();
  return useMutation({
    mutationFn: (request: BookingRequest) => apiRequest<BookingDto>('POST', '/api/prenotazioni', request),
    // Toasts here, not in the form: the form is gone by the time the lists are refreshed.
    onSuccess: async (booking) => {
      await refresh();
      toast(bookingCreatedNotice(booking));
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Errore', description: serverMessage(error) ?? 'Impossibile creare la prenotazione' });
      // The form keeps what was typed; what changed on the server is shown again:
      // a bike taken meanwhile leaves the list, a booking made elsewhere replaces the form.
      const code = errorCode(error);
      if (code === 'BIKE_UNAVAILABLE' || code === 'BIKE_NOT_FOUND') {
        void queryClient.invalidateQueries({ queryKey: BIKES_QUERY_KEY });
      } else if (code === 'ALREADY_ACTIVE') {
        void queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
      }
      // A rule may have changed since the form read them (hours, a closure, a suspension).
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        void queryClient.invalidateQueries({ queryKey: PUBLIC_RULES_QUERY_KEY });
      }
    },
  });
}

/** The `code` of an API error body (`BIKE_UNAVAILABLE`, `ALREADY_ACTIVE`…), when there is one. */
function errorCode(error: unknown): ApiErrorBody['code'] {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return undefined;
  const { code } = error.body as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

export function useCancelBooking() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookingsAndBikes();
  return useMutation({
    mutationFn: (id: number) => apiRequest<BookingDto>('DELETE', `/api/prenotazioni/${id}`),
    onSuccess: async (booking) => {
      await refresh();
      // A cancelled booking leaves the lists, so its refund is told here (`Rimborsata`).
      toast(
        booking.paymentStatus === 'refunded'
          ? { title: 'Prenotazione eliminata', description: `Pagamento rimborsato: ${formatEuroCents(EXTERNAL_FEE_CENTS)} torneranno sulla tua carta.` }
          : { title: 'Prenotazione eliminata' },
      );
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Errore', description: serverMessage(error) ?? 'Impossibile eliminare la prenotazione' });
      // Gone or no longer active (completed meanwhile): show the bookings as they are now.
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        void queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
      }
    },
  });
}

/**
 * A step of the ride (decision 022): `Ritirata` (POST …/ritiro) or `Riconsegnata` (POST
 * …/riconsegna, optionally with a damage report). The server's Italian message is the toast
 * of a refusal (too early, payment missing…); after a refusal the bookings are read again,
 * since the refusal usually means they changed.
 */
function useRideStep<V>(request: (vars: V) => Promise<BookingDto>, done: (booking: BookingDto) => { title: string; description?: string }, fallback: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookingsAndBikes();
  return useMutation({
    mutationFn: request,
    onSuccess: async (booking) => {
      await refresh();
      toast(done(booking));
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Errore', description: serverMessage(error) ?? fallback });
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        void queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
      }
    },
  });
}

export function usePickUp() {
  return useRideStep(
    (id: number) => apiRequest<BookingDto>('POST', `/api/prenotazioni/${id}/ritiro`),
    () => ({ title: 'Buon viaggio!', description: 'Ricordati di segnare la riconsegna quando riporti la bicicletta.' }),
    'Impossibile segnare il ritiro',
  );
}

export function useReturnBike() {
  return useRideStep(
    ({ id, request }: { id: number; request: ReturnRequest }) =>
      apiRequest<BookingDto>('POST', `/api/prenotazioni/${id}/riconsegna`, request),
    (booking) =>
      booking.danno
        ? { title: 'Bicicletta riconsegnata', description: 'Grazie della segnalazione: la bicicletta verrà controllata.' }
        : { title: 'Bicicletta riconsegnata', description: 'Grazie!' },
    'Impossibile segnare la riconsegna',
  );
}
