import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { queryClient } from './query-client';

/**
 * Puts the answers a server-rendered page was made with (lib/server-state.ts) into the app's
 * query cache. A chunk of its own, with TanStack Query: only such pages load it, and they
 * preload it (vite.config.ts).
 */
export function hydrateQueries(state: unknown): void {
  hydrate(queryClient, state as DehydratedState);
}
