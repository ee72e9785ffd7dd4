import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './query-client';

/**
 * The app's one QueryClient, given to each screen loaded on demand (screens.tsx) rather
 * than at the root: the login screen, in the first download, does not use TanStack Query.
 * The client is a module singleton, so its cache outlives any one screen.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
