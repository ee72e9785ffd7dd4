import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { SessionUser } from '../../shared/api-types';
import { PENDING_ACTIONS_QUERY_KEY } from './actions';
import { isUnreachableError, noteReachable, noteUnreachable } from './connectivity';
import { saveDeviceUser } from './device-user';
import { createPersistence } from './persist';
import { dropActionsOfOthers, flushQueue, onQueueChange } from './queue';
import { isSessionConfirmed, isSessionFromDevice } from './session-fallback';

/**
 * The dashboard's offline machinery (issue 22), loaded after its screen, never in the first
 * download:
 * - the user confirmed by the server is remembered on the device (lib/session.ts uses them when
 *   the server cannot be reached), and the actions of anyone else in the queue go;
 * - the user's own data is kept after every successful read and put back when the app opens
 *   offline, or when a read finds no server and the screen has nothing to show;
 * - the queued ride steps are sent when the app opens, when the browser is online again, when
 *   the page comes back to the front and every 30 s meanwhile (the service worker's Background
 *   Sync does it too, where the browser has it);
 * - whatever context changed the queue, the page reads it and the bookings again.
 */

export interface OfflineSupportOptions {
  /** The queries whose answers are kept on the device. */
  persistedKeys: readonly QueryKey[];
  /** The one whose data must be there for a copy to be worth keeping (the user's bookings); its time is `Ultimo aggiornamento`. */
  anchorKey: QueryKey;
  /** Read again once the server has applied or refused a queued step. */
  refreshKeys: readonly QueryKey[];
}

const FLUSH_EVERY_MS = 30_000;
const noop = () => undefined;

let running: { userId: number; ready: Promise<void>; stop: () => void } | undefined;

/** Starts it for `user` (once: again for the same user is the same run); resolves once the kept data is back, when it was needed. */
export function startOfflineSupport(queryClient: QueryClient, user: SessionUser, options: OfflineSupportOptions): Promise<void> {
  // Confirmed by the server (now, or again once back online): remembered, from now.
  if (isSessionConfirmed()) void saveDeviceUser(user).catch(noop);
  if (running?.userId === user.id) return running.ready;
  running?.stop();

  const kept = new Set(options.persistedKeys.map((key) => hashKey(key)));
  const isKept = (key: QueryKey) => kept.has(hashKey(key));
  const persistence = createPersistence(queryClient, user.id, options.persistedKeys);
  if (isSessionConfirmed()) void dropActionsOfOthers(user.id).catch(noop);

  let restoring: Promise<boolean> | undefined;
  const restoreOnce = () => (restoring ??= persistence.restore());
  const ready = (isSessionFromDevice() || !navigator.onLine ? restoreOnce() : Promise.resolve(false)).then(noop, noop);

  const stopWatchingCache = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || !isKept(event.query.queryKey)) return;
    const { action } = event;
    if (action.type === 'success' && !action.manual) {
      noteReachable();
      if (queryClient.getQueryData(options.anchorKey) !== undefined) void persistence.save();
    } else if (action.type === 'setState' && isSessionConfirmed()) {
      // The server's answers put in whole (a page painted from the device's copy, refreshed: boot/device-copy.ts).
      if (queryClient.getQueryData(options.anchorKey) !== undefined) void persistence.save();
    } else if (action.type === 'error' && isUnreachableError(action.error)) {
      noteUnreachable();
      if (event.query.state.data === undefined) void restoreOnce();
    }
  });

  // The first reads may have been answered before this module loaded: keep what is there now.
  if (isSessionConfirmed() && queryClient.getQueryData(options.anchorKey) !== undefined) void persistence.save();

  const flush = () => {
    if (!navigator.onLine) return;
    flushQueue(user.id).then((result) => {
      if (result.stopped === 'offline') noteUnreachable();
      else if (result.sent.length > 0 || result.refused.length > 0) noteReachable();
    }, noop);
  };
  const refresh = (keys: readonly QueryKey[]) => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  const stopWatchingQueue = onQueueChange((answered) => {
    // What the server answered first, then the queue: the card goes from `In attesa di invio`
    // to the server's state without showing the state before the tap in between.
    void (answered ? refresh(options.refreshKeys) : Promise.resolve()).then(() => refresh([PENDING_ACTIONS_QUERY_KEY]));
  });
  const online = () => {
    flush();
    void queryClient.invalidateQueries({ predicate: (query) => isKept(query.queryKey) });
  };
  const visible = () => {
    if (document.visibilityState === 'visible') flush();
  };
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visible);
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') flush();
  }, FLUSH_EVERY_MS);
  void ready.then(flush);

  const run = {
    userId: user.id,
    ready,
    stop() {
      persistence.stop();
      stopWatchingCache();
      stopWatchingQueue();
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', visible);
      clearInterval(timer);
      if (running === run) running = undefined;
    },
  };
  running = run;
  return ready;
}

/** Stops it (logout): nothing more is kept or sent. */
export function stopOfflineSupport(): void {
  running?.stop();
}
