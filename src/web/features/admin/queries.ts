import type { AdminBikeWithLockDto, BikeLockDto, BikeLockUpdate } from '../../../shared/schemas/locks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
import { toast } from '../../components/ui/use-toast';
import { t } from '../../lib/i18n';
import { apiGetPage, apiRequest, type Page } from '../../lib/api';
import { usePublicConfig } from '../../lib/public-config';
import { adminListQueryOptions } from '../../lib/query-client';
import { FALLBACK_TIME_ZONE } from '../../lib/booking-labels';
import { serverMessage } from '../../lib/api-errors';
import { bookingDeletedToast, bookingFilterParams, importToast, listUrl, type BookingFilter, type PlainKey } from './admin-model';
import { closureToast, maintenanceSummary, userName } from './admin-notices';

export const PAGE_SIZE = ADMIN_PAGE_SIZE_DEFAULT;

/**
 * The college's time zone (TZ_APP), in which /admin writes instants (admin-model.ts
 * `formatDateTime`): the server renders /admin with GET /api/config's answer, so the text is
 * the same there and in the browser.
 */
export function useTimeZone(): string {
  return usePublicConfig().data?.timeZone ?? FALLBACK_TIME_ZONE;
}

/** Every admin query starts with this key: one invalidation refreshes lists and summary. */
const ADMIN_KEY = ['admin'] as const;
/** GET /api/admin/summary. This and the keys below: the server renders /admin with them (entry-server.tsx). */
export const ADMIN_SUMMARY_QUERY_KEY = [...ADMIN_KEY, 'summary'] as const;
export const ADMIN_OVERDUE_QUERY_KEY = [...ADMIN_KEY, 'ritardi'] as const;
export const ADMIN_DAMAGES_QUERY_KEY = [...ADMIN_KEY, 'danni'] as const;
export const ADMIN_WAITLIST_QUERY_KEY = [...ADMIN_KEY, 'attese'] as const;
/** A page of the bookings tab: its search, filter and page. */
export const adminBookingsQueryKey = (params: { q: string; stato: BookingFilter; page: number }) => [...ADMIN_KEY, 'prenotazioni', params] as const;
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

export function useAdminSummary() {
  return useQuery<AdminSummary>({
    queryKey: ADMIN_SUMMARY_QUERY_KEY,
    queryFn: logged('il riepilogo', () => apiRequest<AdminSummary>('GET', '/api/admin/summary')),
    ...adminListQueryOptions,
  });
}

export function useAdminBookings(params: { q: string; stato: BookingFilter; page: number }) {
  const url = listUrl('/api/admin/prenotazioni', { q: params.q, ...bookingFilterParams(params.stato), page: params.page, pageSize: PAGE_SIZE });
  return useQuery<Page<AdminBookingDto>>({
    queryKey: adminBookingsQueryKey(params),
    queryFn: logged('le prenotazioni', () => apiGetPage<AdminBookingDto>(url, TOTAL_COUNT_HEADER)),
    placeholderData: keepPreviousData,
    ...adminListQueryOptions,
  });
}

export function useAdminUsers(params: { q: string; page: number }) {
  const url = listUrl('/api/admin/users', { ...params, pageSize: PAGE_SIZE });
  return useQuery<Page<AdminUserDto>>({
    queryKey: [...ADMIN_KEY, 'users', params],
    queryFn: logged('gli utenti', () => apiGetPage<AdminUserDto>(url, TOTAL_COUNT_HEADER)),
    placeholderData: keepPreviousData,
    ...adminListQueryOptions,
  });
}

export function useAdminBikes() {
  return useQuery<AdminBikeWithLockDto[]>({
    queryKey: [...ADMIN_KEY, 'biciclette'],
    queryFn: logged('le biciclette', () => apiRequest<AdminBikeWithLockDto[]>('GET', '/api/admin/biciclette')),
    ...adminListQueryOptions,
  });
}

/** GET /api/admin/danni: open reports first, then the recently resolved ones. */
export function useDamageReports() {
  return useQuery<AdminDamageDto[]>({
    queryKey: ADMIN_DAMAGES_QUERY_KEY,
    queryFn: logged('i danni segnalati', () => apiRequest<AdminDamageDto[]>('GET', '/api/admin/danni')),
    ...adminListQueryOptions,
  });
}

/** GET /api/admin/ritardi: rides not returned by their end. */
export function useOverdueRides() {
  return useQuery<AdminOverdueDto[]>({
    queryKey: ADMIN_OVERDUE_QUERY_KEY,
    queryFn: logged('le biciclette in ritardo', () => apiRequest<AdminOverdueDto[]>('GET', '/api/admin/ritardi')),
    ...adminListQueryOptions,
  });
}

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

export function useDeleteBooking() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<AdminDeleteBookingResponse>('DELETE', `/api/admin/prenotazioni/${id}`),
    onSuccess: async (answer) => {
      await refresh();
      toast(bookingDeletedToast(answer.refunded));
    },
    onError: failure('adminQueries.deleteBookingFailed'),
  });
}

export function useResolveDamage() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/admin/danni/${id}/risolta`),
    onSuccess: async () => {
      await refresh();
      toast({
        title: t('adminQueries.damageResolved'),
        description: t('adminQueries.damageResolvedHint'),
      });
    },
    onError: failure('adminQueries.resolveDamageFailed'),
  });
}

export function useReleaseRide() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/admin/prenotazioni/${id}/rilascia`),
    onSuccess: async () => {
      await refresh();
      toast({ title: t('adminQueries.rideReleased'), description: t('adminQueries.rideReleasedHint') });
    },
    onError: failure('adminQueries.releaseFailed'),
  });
}

/** The server's answer to a state change that moved no booking, in either language (server/admin.json `admin.bikeStateUpdated`). */
const PLAIN_STATE_ANSWERS = new Set(['Stato aggiornato.', 'Status updated.']);

export function useUpdateBike() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, stato }: { id: number; stato: BikeStato }) =>
      apiRequest<AdminBikeUpdateResponse>('PUT', `/api/admin/biciclette/${id}`, { stato }),
    onSuccess: async (answer) => {
      await refresh();
      toast({
        title: t('adminQueries.success'),
        // Out of use (issue 35): how many of the bike's bookings moved and were cancelled.
        description: PLAIN_STATE_ANSWERS.has(answer.message) ? t('adminQueries.bikeStatusUpdated') : answer.message,
      });
    },
    onError: failure('adminQueries.updateBikeFailed'),
  });
}

/** PUT /api/admin/biciclette/:id/lucchetto (issue 34): the bike's lock, its code never in the toast. */
export function useUpdateBikeLock() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, request }: { id: number; numero: string; request: BikeLockUpdate }) =>
      apiRequest<BikeLockDto>('PUT', `/api/admin/biciclette/${id}/lucchetto`, request),
    onSuccess: async (_lock, { numero }) => {
      await refresh();
      toast({ title: t('adminQueries.lockUpdated'), description: t('adminQueries.lockSaved', { numero }) });
    },
    onError: failure('adminQueries.updateLockFailed'),
  });
}

export function useCreateBike() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (bike: AdminBikeCreate) => apiRequest<AdminBikeDto>('POST', '/api/admin/biciclette', bike),
    onSuccess: async (bike) => {
      await refresh();
      toast({ title: t('adminQueries.bikeAdded'), description: t('adminQueries.bikeAddedHint', { numero: bike.numero, modello: bike.modello }) });
    },
    onError: failure('adminQueries.addBikeFailed'),
  });
}

export function useImportResidents() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: () => apiRequest<ImportResidentsResponse>('POST', '/api/admin/import-residents'),
    onSuccess: async (answer) => {
      await refresh();
      toast(importToast(answer));
    },
    onError: failure('adminQueries.importFailed'),
  });
}

export function useUpdateUser() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, user }: { id: number; user: AdminUserUpdate }) =>
      apiRequest<AdminUserDto>('PUT', `/api/admin/users/${id}`, user),
    onSuccess: async () => {
      await refresh();
      toast({ title: t('adminQueries.userUpdated') });
    },
    onError: failure('adminQueries.updateUserFailed'),
  });
}

export function useDeleteUser() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<AdminDeleteUserResponse>('DELETE', `/api/admin/users/${id}`),
    onSuccess: async (answer) => {
      await refresh();
      toast({
        title: t('adminQueries.userDeleted'),
        description: answer.deletedBookings > 0 ? t('adminQueries.userDeletedBookings', { count: answer.deletedBookings }) : undefined,
      });
    },
    onError: failure('adminQueries.deleteUserFailed'),
  });
}

// ---------------------------------------------------------------------------------------
// The service's rules (issue 20)

export function useRules() {
  return useQuery<RulesDto>({
    queryKey: RULES_KEY,
    queryFn: logged('le regole', () => apiRequest<RulesDto>('GET', '/api/admin/regole')),
    ...adminListQueryOptions,
  });
}

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

export function useClosures() {
  return useQuery<ClosureDto[]>({
    queryKey: [...ADMIN_KEY, 'chiusure'],
    queryFn: logged('le chiusure', () => apiRequest<ClosureDto[]>('GET', '/api/admin/chiusure')),
    ...adminListQueryOptions,
  });
}

/** POST /api/admin/chiusure/anteprima: the bookings a closure would cancel; nothing changes. */
export function useClosurePreview() {
  return useMutation({
    mutationFn: (closure: ClosureRequest) => apiRequest<ClosureOutcomeDto>('POST', '/api/admin/chiusure/anteprima', closure),
    onError: failure('adminQueries.closurePreviewFailed'),
  });
}

export function useCreateClosure() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (closure: ClosureRequest) => apiRequest<ClosureOutcomeDto>('POST', '/api/admin/chiusure', closure),
    onSuccess: async (outcome) => {
      await refresh();
      toast(closureToast(outcome));
    },
    onError: failure('adminQueries.addClosureFailed'),
  });
}

export function useDeleteClosure() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<ClosureDto>('DELETE', `/api/admin/chiusure/${id}`),
    onSuccess: async () => {
      await refresh();
      toast({ title: t('adminQueries.closureDeleted'), description: t('adminQueries.closureDeletedHint') });
    },
    onError: failure('adminQueries.deleteClosureFailed'),
  });
}

export function useMaintenances() {
  return useQuery<MaintenanceDto[]>({
    queryKey: [...ADMIN_KEY, 'manutenzioni'],
    queryFn: logged('le manutenzioni programmate', () => apiRequest<MaintenanceDto[]>('GET', '/api/admin/manutenzioni')),
    ...adminListQueryOptions,
  });
}

/** POST …/manutenzioni/anteprima: which bookings would move, which would be cancelled; nothing changes. */
export function useMaintenancePreview() {
  return useMutation({
    mutationFn: ({ biciId, request }: { biciId: number; request: MaintenanceRequest }) =>
      apiRequest<MaintenanceOutcomeDto>('POST', `/api/admin/biciclette/${biciId}/manutenzioni/anteprima`, request),
    onError: failure('adminQueries.maintenancePreviewFailed'),
  });
}

export function useCreateMaintenance() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ biciId, request }: { biciId: number; request: MaintenanceRequest }) =>
      apiRequest<MaintenanceOutcomeDto>('POST', `/api/admin/biciclette/${biciId}/manutenzioni`, request),
    onSuccess: async (outcome) => {
      await refresh();
      toast({ title: t('adminQueries.maintenancePlanned'), description: maintenanceSummary(outcome) });
    },
    onError: failure('adminQueries.planMaintenanceFailed'),
  });
}

export function useDeleteMaintenance() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<MaintenanceDto>('DELETE', `/api/admin/manutenzioni/${id}`),
    onSuccess: async (m) => {
      await refresh();
      toast({ title: t('adminQueries.maintenanceCancelled'), description: t('adminQueries.maintenanceCancelledHint', { numero: m.biciNumero }) });
    },
    onError: failure('adminQueries.cancelMaintenanceFailed'),
  });
}

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
export function useAdminCreateBooking() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ request }: { request: AdminBookingRequest; user: AdminUserDto }) =>
      apiRequest<BookingDto>('POST', '/api/admin/prenotazioni', request),
    onSuccess: async (booking, { user }) => {
      await refresh();
      toast({
        title: t('adminQueries.bookingCreated'),
        description: t(booking.paymentStatus === 'pending' ? 'adminQueries.bookingCreatedPay' : 'adminQueries.bookingCreatedConfirm', {
          numero: booking.biciNumero,
          name: userName(user),
          from: booking.orarioInizio,
          to: booking.orarioFine,
        }),
      });
    },
    onError: failure('adminQueries.createBookingFailed'),
  });
}

export function useLiftSuspension() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<AdminUserDto>('POST', `/api/admin/users/${id}/revoca-sospensione`),
    onSuccess: async (user) => {
      await refresh();
      toast({ title: t('adminQueries.suspensionLifted'), description: t('adminQueries.suspensionLiftedHint', { name: userName(user) }) });
    },
    onError: failure('adminQueries.liftSuspensionFailed'),
  });
}

/** `value`, once it has stopped changing for `delay` ms. */
export function useDebounced<T>(value: T, delay = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

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
export function useAdminWaitlist() {
  return useQuery<AdminWaitlistDto>({
    queryKey: ADMIN_WAITLIST_QUERY_KEY,
    queryFn: () => apiRequest<AdminWaitlistDto>('GET', '/api/admin/attese'),
    refetchInterval: 60_000,
  });
}
