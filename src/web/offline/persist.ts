import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/query-persist-client-core';
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { deviceDb } from './db';
import { SESSION_LIFETIME_MS } from './device-user';

/**
 * The user's own data as last read from the server (issue 22), kept in IndexedDB (`dati` →
 * `cache`) with TanStack Query's persister, so that the dashboard opens offline. Keyed by the
 * user (the persister's `buster`): another user's restore discards it. Only the queries named
 * by the screen are kept, and only their successful answers.
 */

const CACHE_KEY = 'cache';
/** Bumped when the shape of what is kept changes: an older copy is then discarded. */
const CACHE_VERSION = 'v1';

export interface Persistence {
  /** Puts the kept copy into the cache (where the cache has nothing newer); whether there was one. */
  restore(): Promise<boolean>;
  /** Keeps the cache's current answers (writes are throttled to one a second; a call meanwhile resolves at once). */
  save(): Promise<void>;
  /** No more writes (logout, another user): a write still pending is dropped. */
  stop(): void;
}

const sameKey = (a: QueryKey, b: QueryKey) => JSON.stringify(a) === JSON.stringify(b);

export function createPersistence(queryClient: QueryClient, userId: number, keys: readonly QueryKey[]): Persistence {
  let active = true;
  const buster = `${CACHE_VERSION}:${userId}`;
  const persister = createAsyncStoragePersister({
    key: CACHE_KEY,
    storage: {
      getItem: async (key) => {
        const value = await (await deviceDb()).get('dati', key);
        return typeof value === 'string' ? value : null;
      },
      setItem: async (key, value) => {
        if (active) await (await deviceDb()).put('dati', value, key);
      },
      removeItem: async (key) => {
        await (await deviceDb()).delete('dati', key);
      },
    },
  });
  const kept = (query: Query) => query.state.status === 'success' && keys.some((key) => sameKey(key, query.queryKey));
  return {
    async restore() {
      if (!active) return false;
      const before = queryClient.getQueryCache().getAll().filter(kept).length;
      await persistQueryClientRestore({ queryClient, persister, buster, maxAge: SESSION_LIFETIME_MS }).catch(() => undefined);
      return queryClient.getQueryCache().getAll().filter(kept).length > before;
    },
    async save() {
      if (!active) return;
      await persistQueryClientSave({ queryClient, persister, buster, dehydrateOptions: { shouldDehydrateQuery: kept } }).catch(() => undefined);
    },
    stop() {
      active = false;
    },
  };
}
