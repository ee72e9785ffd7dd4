import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  ADMIN_PAGE_SIZE_DEFAULT,
  TOTAL_COUNT_HEADER,
  type AdminBikeCreate,
  type AdminBikeDto,
  type AdminBikeUpdateResponse,
  type AdminBookingDto,
  type AdminDamageDto,
  type AdminOverdueDto,
  type AdminDeleteBookingResponse,
  type AdminDeleteUserResponse,
  type AdminSummary,
  type AdminUserDto,
  type AdminUserUpdate,
  type ImportResidentsResponse,
} from '../../../shared/schemas/admin';
import type { BikeStato } from '../../../shared/schemas/booking';
import { toast } from '../../components/ui/use-toast';
import { apiGetPage, apiRequest, type Page } from '../../lib/api';
import { adminListQueryOptions } from '../../lib/query-client';
import { serverMessage } from '../auth/api-errors';
import { bookingDeletedToast, bookingFilterParams, importToast, listUrl, type BookingFilter } from './admin-model';

export const PAGE_SIZE = ADMIN_PAGE_SIZE_DEFAULT;

/** Every admin query starts with this key: one invalidation refreshes lists and summary. */
const ADMIN_KEY = ['admin'] as const;
const SUMMARY_KEY = [...ADMIN_KEY, 'summary'] as const;

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
    queryKey: SUMMARY_KEY,
    queryFn: logged('il riepilogo', () => apiRequest<AdminSummary>('GET', '/api/admin/summary')),
    ...adminListQueryOptions,
  });
}

export function useAdminBookings(params: { q: string; stato: BookingFilter; page: number }) {
  const url = listUrl('/api/admin/prenotazioni', { q: params.q, ...bookingFilterParams(params.stato), page: params.page, pageSize: PAGE_SIZE });
  return useQuery<Page<AdminBookingDto>>({
    queryKey: [...ADMIN_KEY, 'prenotazioni', params],
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
  return useQuery<AdminBikeDto[]>({
    queryKey: [...ADMIN_KEY, 'biciclette'],
    queryFn: logged('le biciclette', () => apiRequest<AdminBikeDto[]>('GET', '/api/admin/biciclette')),
    ...adminListQueryOptions,
  });
}

/** GET /api/admin/danni: open reports first, then the recently resolved ones. */
export function useDamageReports() {
  return useQuery<AdminDamageDto[]>({
    queryKey: [...ADMIN_KEY, 'danni'],
    queryFn: logged('i danni segnalati', () => apiRequest<AdminDamageDto[]>('GET', '/api/admin/danni')),
    ...adminListQueryOptions,
  });
}

/** GET /api/admin/ritardi: rides not returned by their end. */
export function useOverdueRides() {
  return useQuery<AdminOverdueDto[]>({
    queryKey: [...ADMIN_KEY, 'ritardi'],
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
    ]);
}

const failure = (fallback: string) => (error: unknown) =>
  toast({ variant: 'destructive', title: 'Errore', description: serverMessage(error) ?? fallback });

export function useDeleteBooking() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<AdminDeleteBookingResponse>('DELETE', `/api/admin/prenotazioni/${id}`),
    onSuccess: async (answer) => {
      await refresh();
      toast(bookingDeletedToast(answer.refunded));
    },
    onError: failure('Impossibile eliminare la prenotazione'),
  });
}

export function useResolveDamage() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/admin/danni/${id}/risolta`),
    onSuccess: async () => {
      await refresh();
      toast({
        title: 'Segnalazione risolta',
        description: 'Quando la bicicletta è pronta, rimettila disponibile dalla scheda Biciclette.',
      });
    },
    onError: failure('Impossibile segnare la segnalazione come risolta'),
  });
}

export function useReleaseRide() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/admin/prenotazioni/${id}/rilascia`),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Bicicletta rilasciata', description: 'La prenotazione è conclusa e la bicicletta di nuovo prenotabile.' });
    },
    onError: failure('Impossibile rilasciare la bicicletta'),
  });
}

export function useUpdateBike() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, stato }: { id: number; stato: BikeStato }) =>
      apiRequest<AdminBikeUpdateResponse>('PUT', `/api/admin/biciclette/${id}`, { stato }),
    onSuccess: async (answer) => {
      await refresh();
      toast({
        title: 'Successo',
        description:
          answer.futureBookings > 0 && answer.message
            ? `Stato bicicletta aggiornato con successo. ${answer.message}`
            : 'Stato bicicletta aggiornato con successo',
      });
    },
    onError: failure('Impossibile aggiornare la bicicletta'),
  });
}

export function useCreateBike() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (bike: AdminBikeCreate) => apiRequest<AdminBikeDto>('POST', '/api/admin/biciclette', bike),
    onSuccess: async (bike) => {
      await refresh();
      toast({ title: 'Bicicletta aggiunta', description: `Bici ${bike.numero} (${bike.modello}) disponibile.` });
    },
    onError: failure("Impossibile aggiungere la bicicletta"),
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
    onError: failure('Impossibile importare gli utenti'),
  });
}

export function useUpdateUser() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, user }: { id: number; user: AdminUserUpdate }) =>
      apiRequest<AdminUserDto>('PUT', `/api/admin/users/${id}`, user),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Utente modificato' });
    },
    onError: failure("Impossibile modificare l'utente"),
  });
}

export function useDeleteUser() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: number) => apiRequest<AdminDeleteUserResponse>('DELETE', `/api/admin/users/${id}`),
    onSuccess: async (answer) => {
      await refresh();
      toast({
        title: 'Utente eliminato',
        description:
          answer.deletedBookings > 0
            ? `Eliminate anche ${answer.deletedBookings} ${answer.deletedBookings === 1 ? 'prenotazione' : 'prenotazioni'}.`
            : undefined,
      });
    },
    onError: failure("Impossibile eliminare l'utente"),
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
