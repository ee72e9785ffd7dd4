import type { AdminBikeWithLockDto, BikeLockDto, BikeLockUpdate } from '../../../shared/schemas/locks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_PAGE_SIZE_DEFAULT, TOTAL_COUNT_HEADER } from '../../../shared/admin-lists';
import type {
  AdminBikeCreate,
  AdminBikeDto,
  AdminBikeUpdateResponse,
  AdminBookingDto,
  AdminDamageDto,
  AdminOverdueDto,
  AdminDeleteBookingResponse,
  AdminDeleteUserResponse,
  AdminSummary,
  AdminUserDto,
  AdminUserUpdate,
  ImportResidentsResponse,
} from '../../../shared/schemas/admin';
import type { AdminWaitlistDto } from '../../../shared/schemas/waitlist';
import type { BikeStato, BookingDto } from '../../../shared/schemas/booking';
import type {
  AdminBookingRequest,
  ClosureDto,
  ClosureOutcomeDto,
  ClosureRequest,
  MaintenanceDto,
  MaintenanceOutcomeDto,
  MaintenanceRequest,
  RulesDto,
  RulesUpdate,
} from '../../../shared/schemas/rules';
import { toast, type ToastOptions } from '../../components/ui/use-toast';
import { t } from '../../lib/i18n';
import { apiGetPage, apiRequest, type Page } from '../../lib/api';
import { useDebounced } from '../../lib/use-debounced';
import { adminListQueryOptions } from '../../lib/query-client';
import { serverMessage } from '../../lib/api-errors';
import { bookingDeletedToast, bookingFilterParams, importToast, listUrl, type BookingFilter, type PlainKey } from './admin-model';
import { closureToast, maintenanceSummary, userName } from './admin-notices';

export const PAGE_SIZE = ADMIN_PAGE_SIZE_DEFAULT;

/** Every admin query starts with this key: one invalidation refreshes lists and summary. */
const ADMIN_KEY = ['admin'] as const;
/** GET /api/admin/summary. This and the keys below: the server renders /admin with them (entry-server.tsx). */
export const ADMIN_SUMMARY_QUERY_KEY = [...ADMIN_KEY, 'summary'] as const;
export const ADMIN_OVERDUE_QUERY_KEY = [...ADMIN_KEY, 'ritardi'] as const;
export const ADMIN_DAMAGES_QUERY_KEY = [...ADMIN_KEY, 'danni'] as const;
export const ADMIN_WAITLIST_QUERY_KEY = [...ADMIN_KEY, 'attese'] as const;
/** A page of the bookings tab: its search, filter and page. */
export const adminBookingsQueryKey = (params: { q: string; stato: BookingFilter; page: number; sedeId?: number }) => [...ADMIN_KEY, 'prenotazioni', params] as const;
/** What the bookings tab shows first. */
export const FIRST_BOOKINGS_PAGE = { q: '', stato: 'tutti', page: 1 } as const satisfies { q: string; stato: BookingFilter; page: number };
const RULES_KEY = [...ADMIN_KEY, 'regole'] as const;
/** GET /api/regole, the user's view of the rules (dashboard/queries.ts reads it). */
const PUBLIC_RULES_KEY = ['/api/regole'] as const;

/** Spec §8: a list that fails to load is logged and shown empty (the screen offers a retry). */
function logged<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      console.warn(`Admin: impossibile caricare ${what}`, error);
      throw error;
    }
  };
}

/** A list of /admin read from `url`, logged when it fails. */
function useAdminList<T>(queryKey: readonly unknown[], what: string, url: string) {
  return useQuery<T>({ queryKey, queryFn: logged(what, () => apiRequest<T>('GET', url)), ...adminListQueryOptions });
}

/** The install's numbers: the admin's (issue 48: not asked for a staff member's /admin). */
export const useAdminSummary = (enabled = true) =>
  useQuery<AdminSummary>({
    queryKey: ADMIN_SUMMARY_QUERY_KEY,
    queryFn: logged('il riepilogo', () => apiRequest<AdminSummary>('GET', '/api/admin/summary')),
    ...adminListQueryOptions,
    enabled,
  });

/** A list's `sedeId` (issue 47) in its key only when chosen: the key of every sede stays the server render's. */
const withSede = <P extends object>(params: P, sedeId: number | undefined): P & { sedeId?: number } => (sedeId === undefined ? params : { ...params, sedeId });

export function useAdminBookings(base: { q: string; stato: BookingFilter; page: number }, sedeId?: number) {
  const params = withSede(base, sedeId);
  const url = listUrl('/api/admin/prenotazioni', { q: params.q, ...bookingFilterParams(params.stato), page: params.page, pageSize: PAGE_SIZE, sedeId });
  return useQuery<Page<AdminBookingDto>>({
    queryKey: adminBookingsQueryKey(params),
    queryFn: logged('le prenotazioni', () => apiGetPage<AdminBookingDto>(url, TOTAL_COUNT_HEADER)),
    placeholderData: keepPreviousData,
    ...adminListQueryOptions,
  });
}

export function useAdminUsers(base: { q: string; page: number }, sedeId?: number) {
  const params = withSede(base, sedeId);
  const url = listUrl('/api/admin/users', { ...params, pageSize: PAGE_SIZE });
  return useQuery<Page<AdminUserDto>>({
    queryKey: [...ADMIN_KEY, 'users', params],
    queryFn: logged('gli utenti', () => apiGetPage<AdminUserDto>(url, TOTAL_COUNT_HEADER)),
    placeholderData: keepPreviousData,
    ...adminListQueryOptions,
  });
}

/** A list's key with its sede (issue 47) only when one is chosen: the key of every sede stays the server render's. */
const sedeKey = (key: readonly unknown[], sedeId: number | undefined): readonly unknown[] => (sedeId === undefined ? key : [...key, { sedeId }]);

export const useAdminBikes = (sedeId?: number) =>
  useAdminList<AdminBikeWithLockDto[]>(sedeKey([...ADMIN_KEY, 'biciclette'], sedeId), 'le biciclette', listUrl('/api/admin/biciclette', { sedeId }));

/** GET /api/admin/danni: open reports first, then the recently resolved ones. */
export const useDamageReports = (sedeId?: number) =>
  useAdminList<AdminDamageDto[]>(sedeKey(ADMIN_DAMAGES_QUERY_KEY, sedeId), 'i danni segnalati', listUrl('/api/admin/danni', { sedeId }));

/** GET /api/admin/ritardi: rides not returned by their end. */
export const useOverdueRides = (sedeId?: number) =>
  useAdminList<AdminOverdueDto[]>(sedeKey(ADMIN_OVERDUE_QUERY_KEY, sedeId), 'le biciclette in ritardo', listUrl('/api/admin/ritardi', { sedeId }));

/** After any admin change every admin list, the summary and the user-facing bike lists may be out of date. */
function useRefreshAdmin() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ADMIN_KEY }),
      queryClient.invalidateQueries({ queryKey: ['/api/biciclette'] }),
      // The rules as a user's booking form reads them (the admin may open their own dashboard).
      queryClient.invalidateQueries({ queryKey: PUBLIC_RULES_KEY }),
    ]);
}

/** A refusal's toast: the server's message (already in the user's language), else `fallback`'s text. */
const failure = (fallback: PlainKey) => (error: unknown) =>
  toast({ variant: 'destructive', title: t('adminQueries.error'), description: serverMessage(error) ?? t(fallback) });

/** An admin change: every admin list read again, then `told`'s toast; a refusal's toast otherwise. */
function useAdminChange<V, A>(mutationFn: (v: V) => Promise<A>, told: (answer: A, v: V) => ToastOptions, fallback: PlainKey) {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn,
    onSuccess: async (answer: A, v: V) => {
      await refresh();
      toast(told(answer, v));
    },
    onError: failure(fallback),
  });
}

export const useDeleteBooking = () =>
  useAdminChange(
    (id: number) => apiRequest<AdminDeleteBookingResponse>('DELETE', `/api/admin/prenotazioni/${id}`),
    (answer) => bookingDeletedToast(answer.refunded),
    'adminQueries.deleteBookingFailed',
  );

export const useResolveDamage = () =>
  useAdminChange(
    (id: number) => apiRequest('POST', `/api/admin/danni/${id}/risolta`),
    () => ({ title: t('adminQueries.damageResolved'), description: t('adminQueries.damageResolvedHint') }),
    'adminQueries.resolveDamageFailed',
  );

export const useReleaseRide = () =>
  useAdminChange(
    (id: number) => apiRequest('POST', `/api/admin/prenotazioni/${id}/rilascia`),
    () => ({ title: t('adminQueries.rideReleased'), description: t('adminQueries.rideReleasedHint') }),
    'adminQueries.releaseFailed',
  );

/** The server's answer to a state change that moved no booking, in either language (server/admin.json `admin.bikeStateUpdated`). */
const PLAIN_STATE_ANSWERS = new Set(['Stato aggiornato.', 'Status updated.']);

export const useUpdateBike = () =>
  useAdminChange(
    ({ id, stato, sedeId }: { id: number; numero: string; stato?: BikeStato; sedeId?: number; sede?: string }) =>
      apiRequest<AdminBikeUpdateResponse>('PUT', `/api/admin/biciclette/${id}`, { stato, sedeId }),
    (answer, request) =>
      request.sedeId !== undefined
        ? {
            // Moved to another sede (issue 47): how many of its bookings moved within the old one, and were cancelled.
            title: t('sediMovesTab.movedTitle', { numero: request.numero, sede: request.sede ?? '' }),
            description: t('sediMovesTab.movedOutcome', { spostate: answer.spostate, annullate: answer.annullate }),
          }
        : {
            title: t('adminQueries.success'),
            // Out of use (issue 35): how many of the bike's bookings moved and were cancelled.
            description: PLAIN_STATE_ANSWERS.has(answer.message) ? t('adminQueries.bikeStatusUpdated') : answer.message,
          },
    'adminQueries.updateBikeFailed',
  );

/** PUT /api/admin/biciclette/:id/lucchetto (issue 34): the bike's lock, its code never in the toast. */
export const useUpdateBikeLock = () =>
  useAdminChange(
    ({ id, request }: { id: number; numero: string; request: BikeLockUpdate }) =>
      apiRequest<BikeLockDto>('PUT', `/api/admin/biciclette/${id}/lucchetto`, request),
    (_lock, { numero }) => ({ title: t('adminQueries.lockUpdated'), description: t('adminQueries.lockSaved', { numero }) }),
    'adminQueries.updateLockFailed',
  );

export const useCreateBike = () =>
  useAdminChange(
    (bike: AdminBikeCreate) => apiRequest<AdminBikeDto>('POST', '/api/admin/biciclette', bike),
    (bike) => ({ title: t('adminQueries.bikeAdded'), description: t('adminQueries.bikeAddedHint', { numero: bike.numero, modello: bike.modello }) }),
    'adminQueries.addBikeFailed',
  );

export const useImportResidents = () =>
  useAdminChange(
    () => apiRequest<ImportResidentsResponse>('POST', '/api/admin/import-residents'),
    (answer) => importToast(answer),
    'adminQueries.importFailed',
  );

export const useUpdateUser = () =>
  useAdminChange(
    ({ id, user }: { id: number; user: AdminUserUpdate }) => apiRequest<AdminUserDto>('PUT', `/api/admin/users/${id}`, user),
    () => ({ title: t('adminQueries.userUpdated') }),
    'adminQueries.updateUserFailed',
  );

/** The desk's pick-up on a person's behalf (issue 48, capability `banco`). */
export const useDeskPickUp = () =>
  useAdminChange(
    ({ id }: { id: number; numero: string; nome: string }) => apiRequest('POST', `/api/admin/prenotazioni/${id}/ritiro`),
    (_answer, { numero, nome }) => ({ title: t('staffDesk.pickUpDone'), description: t('staffDesk.pickUpDoneHint', { numero, nome }) }),
    'staffDesk.pickUpFailed',
  );

/** The desk's return on a person's behalf (issue 48, capability `banco`). */
export const useDeskReturn = () =>
  useAdminChange(
    ({ id }: { id: number; numero: string; nome: string }) => apiRequest('POST', `/api/admin/prenotazioni/${id}/riconsegna`),
    (_answer, { numero, nome }) => ({ title: t('staffDesk.returnDone'), description: t('staffDesk.returnDoneHint', { numero, nome }) }),
    'staffDesk.returnFailed',
  );

export const useDeleteUser = () =>
  useAdminChange(
    (id: number) => apiRequest<AdminDeleteUserResponse>('DELETE', `/api/admin/users/${id}`),
    (answer) => ({
      title: t('adminQueries.userDeleted'),
      description: answer.deletedBookings > 0 ? t('adminQueries.userDeletedBookings', { count: answer.deletedBookings }) : undefined,
    }),
    'adminQueries.deleteUserFailed',
  );

// ---------------------------------------------------------------------------------------
// The service's rules (issue 20)

export const useRules = () => useAdminList<RulesDto>(RULES_KEY, 'le regole', '/api/admin/regole');

/** PUT /api/admin/regole. A refusal (400 with `fields`) is told by the form, next to the fields. */
export function useSaveRules() {
  const queryClient = useQueryClient();
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (rules: RulesUpdate) => apiRequest<RulesDto>('PUT', '/api/admin/regole', rules),
    onSuccess: async (saved) => {
      queryClient.setQueryData(RULES_KEY, saved);
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['/api/config'] })]);
      toast({ title: t('adminQueries.rulesSaved'), description: t('adminQueries.rulesSavedHint') });
    },
    onError: failure('adminQueries.saveRulesFailed'),
  });
}

export const useClosures = () => useAdminList<ClosureDto[]>([...ADMIN_KEY, 'chiusure'], 'le chiusure', '/api/admin/chiusure');

/** POST /api/admin/chiusure/anteprima: the bookings a closure would cancel; nothing changes. */
export function useClosurePreview() {
  return useMutation({
    mutationFn: (closure: ClosureRequest) => apiRequest<ClosureOutcomeDto>('POST', '/api/admin/chiusure/anteprima', closure),
    onError: failure('adminQueries.closurePreviewFailed'),
  });
}

export const useCreateClosure = () =>
  useAdminChange(
    (closure: ClosureRequest) => apiRequest<ClosureOutcomeDto>('POST', '/api/admin/chiusure', closure),
    (outcome) => closureToast(outcome),
    'adminQueries.addClosureFailed',
  );

export const useDeleteClosure = () =>
  useAdminChange(
    (id: number) => apiRequest<ClosureDto>('DELETE', `/api/admin/chiusure/${id}`),
    () => ({ title: t('adminQueries.closureDeleted'), description: t('adminQueries.closureDeletedHint') }),
    'adminQueries.deleteClosureFailed',
  );

export const useMaintenances = () =>
  useAdminList<MaintenanceDto[]>([...ADMIN_KEY, 'manutenzioni'], 'le manutenzioni programmate', '/api/admin/manutenzioni');

/** POST …/manutenzioni/anteprima: which bookings would move, which would be cancelled; nothing changes. */
export function useMaintenancePreview() {
  return useMutation({
    mutationFn: ({ biciId, request }: { biciId: number; request: MaintenanceRequest }) =>
      apiRequest<MaintenanceOutcomeDto>('POST', `/api/admin/biciclette/${biciId}/manutenzioni/anteprima`, request),
    onError: failure('adminQueries.maintenancePreviewFailed'),
  });
}

export const useCreateMaintenance = () =>
  useAdminChange(
    ({ biciId, request }: { biciId: number; request: MaintenanceRequest }) =>
      apiRequest<MaintenanceOutcomeDto>('POST', `/api/admin/biciclette/${biciId}/manutenzioni`, request),
    (outcome) => ({ title: t('adminQueries.maintenancePlanned'), description: maintenanceSummary(outcome) }),
    'adminQueries.planMaintenanceFailed',
  );

export const useDeleteMaintenance = () =>
  useAdminChange(
    (id: number) => apiRequest<MaintenanceDto>('DELETE', `/api/admin/manutenzioni/${id}`),
    (m) => ({ title: t('adminQueries.maintenanceCancelled'), description: t('adminQueries.maintenanceCancelledHint', { numero: m.biciNumero }) }),
    'adminQueries.cancelMaintenanceFailed',
  );

/** The desk's user search: at most 10 matches by name, email or sigla; nothing asked for an empty text. */
export function useUserSearch(q: string) {
  const url = listUrl('/api/admin/users', { q, pageSize: 10 });
  return useQuery<Page<AdminUserDto>>({
    queryKey: [...ADMIN_KEY, 'users', 'ricerca', q],
    queryFn: logged('gli utenti', () => apiGetPage<AdminUserDto>(url, TOTAL_COUNT_HEADER)),
    enabled: q !== '',
    placeholderData: keepPreviousData,
    ...adminListQueryOptions,
  });
}

/** POST /api/admin/prenotazioni: a booking made at the desk for `user` (fair-use limits overridden). */
export const useAdminCreateBooking = () =>
  useAdminChange(
    ({ request }: { request: AdminBookingRequest; user: AdminUserDto }) => apiRequest<BookingDto>('POST', '/api/admin/prenotazioni', request),
    (booking, { user }) => ({
      title: t('adminQueries.bookingCreated'),
      description: t(booking.paymentStatus === 'pending' ? 'adminQueries.bookingCreatedPay' : 'adminQueries.bookingCreatedConfirm', {
        numero: booking.biciNumero,
        name: userName(user),
        from: booking.orarioInizio,
        to: booking.orarioFine,
      }),
    }),
    'adminQueries.createBookingFailed',
  );

export const useLiftSuspension = () =>
  useAdminChange(
    (id: number) => apiRequest<AdminUserDto>('POST', `/api/admin/users/${id}/revoca-sospensione`),
    (user) => ({ title: t('adminQueries.suspensionLifted'), description: t('adminQueries.suspensionLiftedHint', { name: userName(user) }) }),
    'adminQueries.liftSuspensionFailed',
  );

/**
 * A searched, paged list's state (bookings, users): the box's text, the query sent (trimmed,
 * settled), the page; a new search starts again from page 1.
 */
export function useListSearch() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim());
  const searchBox = {
    value: search,
    onValueChange: (value: string) => {
      setSearch(value);
      setPage(1);
    },
  };
  return { q, page, setPage, searchBox };
}

/** GET /api/admin/attese (issue 21): today's waitlists, read again every minute. */
export function useAdminWaitlist(sedeId?: number) {
  return useQuery<AdminWaitlistDto>({
    queryKey: sedeKey(ADMIN_WAITLIST_QUERY_KEY, sedeId),
    queryFn: () => apiRequest<AdminWaitlistDto>('GET', listUrl('/api/admin/attese', { sedeId })),
    refetchInterval: 60_000,
  });
}
