import { useSyncExternalStore } from 'react';
import { ApiError } from '../lib/api';

/**
 * Whether the app can reach its server (issue 22). The browser's `navigator.onLine` says when
 * there is no network at all; a phone in a basement often has a network that leads nowhere,
 * so a request that failed for lack of an answer also counts as offline, until one succeeds
 * or the browser says it is online again.
 */

let unreachable = false;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** A request got no answer (or the proxy's "server down"): the error of a fetch, as TanStack Query reports it. */
export function isUnreachableError(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  return error instanceof TypeError;
}

export function noteUnreachable(): void {
  if (unreachable) return;
  unreachable = true;
  emit();
}

export function noteReachable(): void {
  if (!unreachable) return;
  unreachable = false;
  emit();
}

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** No network, or the last request found no server. */
export const isOffline = (): boolean => browserOffline() || unreachable;

function subscribe(listener: () => void) {
  listeners.add(listener);
  const online = () => {
    unreachable = false;
    listener();
  };
  window.addEventListener('online', online);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', listener);
  };
}

/** `isOffline()`, re-rendering when it changes. */
export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, isOffline, () => false);
}

/** The browser's own `navigator.onLine === false` only (screens that simply need the network, at their opening). */
export function useBrowserOffline(): boolean {
  return useSyncExternalStore(subscribe, browserOffline, () => false);
}
