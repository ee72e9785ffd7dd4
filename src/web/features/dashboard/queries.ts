import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiErrorBody, SessionUser } from '../../../shared/api-types';
import type {
  AvailabilityRequest,
  BikeDto,
  BookingDto,
  BookingRequest,
  PickupProblemRequest,
  PickupProblemResponse,
  ReturnRequest,
} from '../../../shared/schemas/booking';
import type { PublicRulesDto } from '../../../shared/schemas/rules';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { takeEarlyLockCode } from '../../lib/early-lock-codes';
import { BIKES_QUERY_KEY, OWN_BOOKINGS_QUERY_KEY } from '../../lib/query-keys';
import { PUBLIC_CONFIG_QUERY_KEY } from '../../lib/public-config';
import { currentSession, whenSessionKnown } from '../../lib/session';
import { PENDING_ACTIONS_QUERY_KEY, type QueuedAction } from '../../offline/actions';
import type { BookingView } from '../../offline/offline-model';
import { serverMessage } from '../../lib/api-errors';
import { money } from '../../../shared/i18n/format';
import { currentLingua, t } from '../../lib/i18n';
import { WAITS_QUERY_KEY } from '../waitlist';
import { bookingCreatedNotice } from '../../lib/booking-notices';
import { sendRideAction, type RideOutcome } from './ride-actions';
import type { RideCodeDto } from '../../../shared/schemas/locks';

export { BIKES_QUERY_KEY, OWN_BOOKINGS_QUERY_KEY };
/** GET /api/regole: the service's rules as the booking form applies them, and the user's own suspension (issue 20). */
export const PUBLIC_RULES_QUERY_KEY = ['/api/regole'] as const;
const availabilityKey = (w: AvailabilityRequest) =>
  [...BIKES_QUERY_KEY, 'available', w.dataPrenotazione, w.orarioInizio, w.orarioFine, w.sedeId ?? 'casa'] as const;

/** The user's own data kept on the device for offline use (issue 22), and read again after a queued step was answered. */
const KEPT_OFFLINE = [OWN_BOOKINGS_QUERY_KEY, BIKES_QUERY_KEY, PUBLIC_CONFIG_QUERY_KEY, PUBLIC_RULES_QUERY_KEY];
const OFFLINE_OPTIONS = {
  persistedKeys: KEPT_OFFLINE,
  anchorKey: OWN_BOOKINGS_QUERY_KEY,
  refreshKeys: [OWN_BOOKINGS_QUERY_KEY, BIKES_QUERY_KEY],
};

/** The offline machinery for `user` (offline/offline-support.ts, its own chunk); resolves once the kept data is back, if it was needed. */
export function startOfflineSupport(queryClient: QueryClient, user: SessionUser): Promise<void> {
  return import('../../offline/offline-support').then(
    (m) => m.startOfflineSupport(queryClient, user, OFFLINE_OPTIONS),
    () => undefined,
  );
}

/**
 * The dashboard's first reads (own bookings, bikes, the public configuration), started as
 * soon as its chunk has loaded and the session is known to be a user, rather than once the
 * screen has rendered: they travel while React works. The screen's queries find them in
 * flight or done. Offline (issue 22) the data kept on the device is put back first, and the
 * promise resolves then, so that the screen opens with it; online it resolves at once.
 */
export function prefetchDashboard(queryClient: QueryClient): Promise<void> {
  return new Promise((resolve) => {
    if (navigator.onLine) resolve();
    whenSessionKnown((user) => {
      if (!user) return resolve();
      const prefetch = () => {
        for (const queryKey of [OWN_BOOKINGS_QUERY_KEY, BIKES_QUERY_KEY, PUBLIC_CONFIG_QUERY_KEY, PUBLIC_RULES_QUERY_KEY, WAITS_QUERY_KEY]) {
          void queryClient.prefetchQuery({ queryKey });
        }
      };
      const ready = startOfflineSupport(queryClient, user);
      if (navigator.onLine) prefetch();
      else void ready.then(prefetch).then(resolve);
    });
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

/**
 * GET /api/regole?sedeId= (issue 47): the hours and closures of a sede chosen in the form
 * other than the person's own (`null`: nothing asked, the home sede's are `usePublicRules`).
 */
export function useSedeRules(sedeId: number | null) {
  return useQuery<PublicRulesDto>({
    queryKey: [...PUBLIC_RULES_QUERY_KEY, 'sede', sedeId ?? 0],
    queryFn: () => apiRequest<PublicRulesDto>('GET', `/api/regole?sedeId=${sedeId}`),
    enabled: sedeId !== null,
  });
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

/** After a booking is created, cancelled or extended, the user's bookings and every bike list are out of date. */
export function useRefreshBookingsAndBikes() {
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
      toast({ variant: 'destructive', title: t('dashboardQueries.error'), description: serverMessage(error) ?? t('dashboardQueries.createFailed') });
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

/** A refusal's toast; a booking gone or no longer active (404, 409: completed meanwhile) shows the bookings as they are now. */
function refused(queryClient: QueryClient, fallback: () => string) {
  return (error: unknown) => {
    toast({ variant: 'destructive', title: t('dashboardQueries.error'), description: serverMessage(error) ?? fallback() });
    if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
      void queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
    }
  };
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
      const refund = booking.paymentStatus === 'refunded' ? t('dashboardQueries.refunded', { importo: money(EXTERNAL_FEE_CENTS, currentLingua()) }) : null;
      // Its bike still out on a late ride (issue 35): `Annulla`, which counts as no no-show.
      if (booking.motivoCancellazione === 'bici_non_rientrata') {
        toast({ title: t('dashboardQueries.cancelled'), description: [t('dashboardQueries.notNoShow'), refund].filter(Boolean).join(' ') });
      } else {
        toast(refund ? { title: t('dashboardQueries.deleted'), description: refund } : { title: t('dashboardQueries.deleted') });
      }
    },
    onError: refused(queryClient, () => t('dashboardQueries.deleteFailed')),
  });
}

/**
 * The steps of the user's rides still on this device (issue 22): waiting to be sent, or
 * refused by the server and not yet read. Read from IndexedDB, not the network.
 */
export function usePendingActions(userId: number) {
  return useQuery(pendingActionsQuery(userId));
}

/** usePendingActions's query (a function of its own for its test). */
export function pendingActionsQuery(userId: number) {
  return queryOptions<QueuedAction[], Error, readonly QueuedAction[]>({
    queryKey: [...PENDING_ACTIONS_QUERY_KEY, userId],
    queryFn: () => import('../../offline/queue').then((queue) => queue.listActions(userId)),
    networkMode: 'always',
    // Nothing on the device, the usual case, is the very value the page rendered with (on the
    // server too): the answer changes nothing, so the screen does not render again for it
    // (a whole second render of the dashboard after hydration, 20–65 ms on this machine).
    placeholderData: NO_ACTIONS,
    select: (actions) => (actions.length === 0 ? NO_ACTIONS : actions),
  });
}

const NO_ACTIONS: QueuedAction[] = [];

/** The user has read a refusal: it leaves the device. */
export function useDismissRefusal() {
  const queryClient = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: (idAzione: string) => import('../../offline/queue').then((queue) => queue.dismissAction(idAzione)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PENDING_ACTIONS_QUERY_KEY }),
  });
}

type Notice = { title: string; description?: string };

/**
 * A step of the ride (decision 022): `Ritirata` (POST …/ritiro) or `Riconsegnata` (POST
 * …/riconsegna, optionally with a damage report), each with its id and the time of the tap
 * (issue 22). The server's Italian message is the toast of a refusal (too early, payment
 * missing…); after a refusal the bookings are read again, since the refusal usually means they
 * changed. Without the server the step is queued on the device (`In attesa di invio`): it runs
 * offline too (networkMode `always`), and says so.
 */
function useRideStep<V>(request: (vars: V) => Promise<RideOutcome>, done: (booking: BookingDto) => Notice, queued: () => Notice, fallback: () => string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookingsAndBikes();
  return useMutation({
    networkMode: 'always',
    mutationFn: request,
    onSuccess: async (outcome) => {
      if (outcome.kind === 'queued') {
        await queryClient.invalidateQueries({ queryKey: PENDING_ACTIONS_QUERY_KEY });
        toast(queued());
        return;
      }
      await refresh();
      toast(done(outcome.booking));
    },
    onError: refused(queryClient, fallback),
  });
}

/** The logged-in user's id (the dashboard renders only for one). */
function userId(): number {
  const user = currentSession().data;
  if (!user) throw new Error(t('dashboardQueries.sessionExpired'));
  return user.id;
}

export function usePickUp() {
  return useRideStep(
    (booking: Pick<BookingDto, 'id' | 'biciNumero' | 'lucchetto'>) =>
      sendRideAction({
        tipo: 'ritiro',
        prenotazioneId: booking.id,
        biciNumero: booking.biciNumero,
        userId: userId(),
        lucchetto: booking.lucchetto,
      }),
    () => ({ title: t('dashboardQueries.pickUpTitle'), description: t('dashboardQueries.pickUpText') }),
    () => ({ title: t('dashboardQueries.pickUpQueued'), description: t('dashboardQueries.queued') }),
    () => t('dashboardQueries.pickUpFailed'),
  );
}

export function useReturnBike() {
  return useRideStep(
    ({ booking, request }: { booking: Pick<BookingView, 'id' | 'biciNumero'> & Partial<Pick<BookingView, 'inAttesa'>>; request: ReturnRequest }) =>
      sendRideAction(
        { tipo: 'riconsegna', prenotazioneId: booking.id, biciNumero: booking.biciNumero, userId: userId(), danno: request.danno },
        // The pick-up still on the device goes first.
        Boolean(booking.inAttesa),
      ),
    (booking) =>
      booking.danno
        ? { title: t('dashboardQueries.returnedTitle'), description: t('dashboardQueries.returnedDamage') }
        : { title: t('dashboardQueries.returnedTitle'), description: t('dashboardQueries.thanks') },
    () => ({ title: t('dashboardQueries.returnQueued'), description: t('dashboardQueries.queued') }),
    () => t('dashboardQueries.returnFailed'),
  );
}

/**
 * The query key of a booking's lock code (never persisted with the cache: the device keeps it
 * apart, offline/lock-codes.ts). Its bike is part of it: a booking the fleet moved to another
 * bike (issue 35) asks again, for the new bike's lock.
 */
export const lockCodeQueryKey = (bookingId: number, biciId: number) => ['bicielis:codice', bookingId, biciId] as const;

/**
 * A booking's lock code (issue 34): asked of the server in the pick-up window, kept on the
 * device as shown with the bike it opens, and read from there when the server cannot be reached
 * (only if the booking is still on that bike). A refusal (409: not yet, payment, code being
 * updated…) is the server's Italian message.
 */
export function useLockCode(bookingId: number, biciId: number, enabled: boolean) {
  return useQuery<RideCodeDto & { salvato?: boolean }, Error>({
    queryKey: lockCodeQueryKey(bookingId, biciId),
    enabled,
    networkMode: 'always',
    retry: false,
    staleTime: 60_000,
    queryFn: async () => {
      // The question and the device's store (a chunk) are asked for together: at the rack the
      // code is what the person waits for, and one round trip after the other cost one more
      // (issue 51, decision 060). A chunk that fails does not lose a code the server gave.
      const loading = import('../../offline/lock-codes');
      loading.catch(() => undefined);
      try {
        // The page's own script may have asked already, before the app came (decision 067).
        const code = (await takeEarlyLockCode(bookingId)) ?? (await apiRequest<RideCodeDto>('GET', `/api/prenotazioni/${bookingId}/codice`));
        if (code.codice) await loading.then((codes) => codes.keepLockCode(bookingId, code, biciId)).catch(() => undefined);
        return code;
      } catch (error) {
        const codes = await loading;
        if (error instanceof ApiError && error.status < 500) {
          // The server refuses the code now (returned, cancelled, being updated…): the copy on the
          // device goes too, so it is never shown again.
          if (error.status === 404 || error.status === 409) await codes.forgetKeptCode(bookingId).catch(() => undefined);
          throw error;
        }
        const kept = await codes.keptCodeFor(bookingId, biciId).catch(() => undefined);
        if (kept) return { ...kept, salvato: true };
        throw new Error(t('dashboardQueries.codeOffline'), { cause: error });
      }
    },
  });
}

/**
 * `Aspetta` (issue 35): the booking's bike is still out on a late ride and no other is free; the
 * owner keeps the booking, and the fleet moves it to the first bike that frees up. Needs the
 * server (not offered offline); a refusal (409: the bike is back meanwhile) is the server's
 * message, and the bookings are read again.
 */
export function useWaitForBike() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<BookingDto>('POST', `/api/prenotazioni/${id}/aspetta`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY });
      toast({ title: t('dashboardQueries.waitingTitle'), description: t('dashboardQueries.waitingText') });
    },
    onError: refused(queryClient, () => t('dashboardQueries.waitFailed')),
  });
}

/**
 * `La bici ha un problema` at the pick-up (issue 35): the bike is left behind and the booking
 * moved to another (or cancelled when none is free); the server's sentence is the toast. Needs
 * the server (not offered offline). A refusal keeps the dialog open with what was typed.
 */
export function usePickupProblem() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookingsAndBikes();
  return useMutation({
    mutationFn: ({ id, request }: { id: number; request: PickupProblemRequest }) =>
      apiRequest<PickupProblemResponse>('POST', `/api/prenotazioni/${id}/problema`, request),
    onSuccess: async (answer) => {
      await refresh();
      toast({ title: answer.esito === 'spostata' ? t('dashboardQueries.bikeChanged') : t('dashboardQueries.cancelled'), description: answer.messaggio });
    },
    onError: refused(queryClient, () => t('dashboardQueries.problemFailed')),
  });
}
