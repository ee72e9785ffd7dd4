import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

/** Admin list calls retry once on failure (spec §7); spread into those queries' options. */
export const ADMIN_LIST_RETRY = 1;
export const adminListQueryOptions = { retry: ADMIN_LIST_RETRY } as const;

/** Data never goes stale, no refetch on focus, no polling, no retries (spec §7). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
