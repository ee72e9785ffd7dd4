import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminSedeDto, SedeWrite } from '../../../shared/schemas/sedi';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { t } from '../../lib/i18n';
import { adminListQueryOptions } from '../../lib/query-client';
import { PUBLIC_CONFIG_QUERY_KEY } from '../../lib/public-config';

/** GET /api/admin/sedi: under the admin key, so any admin change reads it again. */
const ADMIN_SEDI_KEY = ['admin', 'sedi'] as const;

export const useAdminSedi = () =>
  useQuery<AdminSedeDto[]>({ queryKey: ADMIN_SEDI_KEY, queryFn: () => apiRequest<AdminSedeDto[]>('GET', '/api/admin/sedi'), ...adminListQueryOptions });

/**
 * A change to a sede: the admin's lists and everyone's list of sedi are read again, then a
 * toast; a refusal (a name taken, a sede not yet empty) in the server's words, in the person's language.
 */
function useSedeChange<V>(mutationFn: (v: V) => Promise<AdminSedeDto>, done: () => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['admin'] }), queryClient.invalidateQueries({ queryKey: PUBLIC_CONFIG_QUERY_KEY })]);
      toast({ title: done() });
    },
    onError: (error: unknown) => toast({ variant: 'destructive', title: t('sediPage.error'), description: serverMessage(error) ?? t('sediPage.failed') }),
  });
}

export const useCreateSede = () => useSedeChange((sede: SedeWrite) => apiRequest<AdminSedeDto>('POST', '/api/admin/sedi', sede), () => t('sediPage.created'));
export const useUpdateSede = () =>
  useSedeChange(({ id, sede }: { id: number; sede: SedeWrite }) => apiRequest<AdminSedeDto>('PUT', `/api/admin/sedi/${id}`, sede), () => t('sediPage.updated'));
export const useArchiveSede = () => useSedeChange((id: number) => apiRequest<AdminSedeDto>('POST', `/api/admin/sedi/${id}/archivia`), () => t('sediPage.archivedDone'));
export const useReactivateSede = () =>
  useSedeChange((id: number) => apiRequest<AdminSedeDto>('POST', `/api/admin/sedi/${id}/riattiva`), () => t('sediPage.reactivated'));
