import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { setZoneTable } from '../../shared/time';
import { isZoneTable } from '../../shared/zone-table';
import { queryClient } from '../lib/query-client';

/**
 * Puts the answers a server-rendered page was made with (boot/server-state.ts) into the app's
 * query cache. A chunk of its own, with TanStack Query: only such pages load it, and they
 * preload it (vite.config.ts).
 */
export function hydrateQueries(state: unknown): void {
  hydrate(queryClient, state as DehydratedState);
}

/** The college's zone table the page came with (shared/time.ts); one that is not a table is left out, and the times are then asked of Intl. */
export function adoptZoneTable(table: unknown): void {
  setZoneTable(isZoneTable(table) ? table : undefined);
}
