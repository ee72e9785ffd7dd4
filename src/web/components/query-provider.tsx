import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { queryClient } from '../lib/query-client';

/** Offline only (issue 22): a screen that needs the server says so (needs-connection.tsx). */
const NeedsConnection = lazy(() => import('./needs-connection').then((m) => ({ default: m.NeedsConnection })));

/**
 * The app's one QueryClient, given to each screen loaded on demand (screens.tsx) rather
 * than at the root: the login screen, in the first download, does not use TanStack Query.
 * The client is a module singleton, so its cache outlives any one screen. A screen opened
 * with no network goes through NeedsConnection, loaded only then.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  // `navigator` is the browser's: the server renders /dashboard and /admin online (decision 027).
  const [openedOffline] = useState(() => typeof navigator !== 'undefined' && navigator.onLine === false);
  // The same Suspense boundary on the server and in the browser, so a page the server rendered
  // hydrates into the same tree; NeedsConnection renders the screen itself where it works offline.
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>{openedOffline ? <NeedsConnection>{children}</NeedsConnection> : children}</Suspense>
    </QueryClientProvider>
  );
}
