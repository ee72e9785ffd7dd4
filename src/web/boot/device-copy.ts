import type { SessionUser } from '../../shared/api-types';
import { apiGet } from '../lib/api';
import { queryClient } from '../lib/query-client';
import { whenPageHydrated } from '../lib/page-hydration';
import { parseServerState, type ServerState } from './server-state';
import { hydrateQueries } from './server-queries';
import { currentSession, setSessionUser } from '../lib/session';
import { noteUnreachable } from '../offline/connectivity';
import { forgetDeviceUser } from '../offline/device-user';
import { DEVICE_COPY_ELEMENT_ID, PAGES_CACHE } from '../lib/offline-names';
import { copyKey, stateJsonOf } from '../offline/page-copy';
import { sessionEnded, sessionFromDeviceCopy } from '../offline/session-fallback';

/**
 * A repeat open painted from the device's copy of the page (issue 22, decision 028): the
 * service worker served the page the server last rendered for this device's user, marked with
 * the line `Aggiornamento in corso… Ultimo aggiornamento alle 10:42`. Here, loaded only then,
 * the page asks the server for itself again, at once, while it hydrates the copy:
 *
 * - the server rendered it for the same user: once the page has hydrated, their answers replace
 *   the copy's in the query cache (newer ones only), in place — what did not change does not
 *   move —, the line goes, the session counts as confirmed and the answer is the next copy;
 * - the server sent the anonymous page: the session is read; ended (401) → nothing of the user
 *   stays on the device and the login shows; the same user (the server could not render) → the
 *   screen reads its data through the API; someone else → below;
 * - another user is logged in on this browser: everything of the copy's user goes and the page
 *   loads again, from the server;
 * - no server (offline, no answer, 502–504): the line goes, the dashboard says it is offline
 *   and since when; tried again when the browser is online.
 *
 * Until the server has answered, the user is the device's, not confirmed: they are not
 * remembered again, and nothing is dropped for them (offline/offline-support.ts). Whatever they
 * tap meanwhile goes to the server, which answers for their session as it is now.
 */

const removeLine = () => document.getElementById(DEVICE_COPY_ELEMENT_ID)?.remove();

const unreachable = (copy: ServerState, url: string) => {
  removeLine();
  noteUnreachable();
  window.addEventListener('online', () => void refresh(copy, url), { once: true });
};

/** The session ended on the server (logout elsewhere, password changed, expired): the login, and nothing of the user on the device. */
async function ended(): Promise<void> {
  await sessionEnded();
  removeLine();
  setSessionUser(null);
  queryClient.clear();
}

/** Someone else is logged in on this browser now: nothing of the copy's user stays, and the page loads again (from the server). */
async function anotherUser(): Promise<void> {
  queryClient.clear();
  await forgetDeviceUser().catch(() => undefined);
  window.location.reload();
}

/** The server's page, rendered for the copy's user: its answers replace the copy's, and it is kept as the next copy. */
async function adopt(fresh: ServerState, html: string, url: string): Promise<void> {
  sessionFromDeviceCopy(true);
  // One update: the newer answers and the user (their name may have changed), then the line goes.
  hydrateQueries(fresh.queries);
  setSessionUser(fresh.user);
  removeLine();
  // Not if the user logged out meanwhile (logout deletes the copies; the worker would not show it anyway).
  if (currentSession().data?.id !== fresh.user.id) return;
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(url, new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }));
}

/** The server sent a page without a user: its session says what that means. */
async function confirmThroughApi(copy: ServerState, url: string): Promise<void> {
  let user: SessionUser | null;
  try {
    user = await apiGet<SessionUser>('/api/current-user', 'returnNull');
  } catch {
    unreachable(copy, url);
    return;
  }
  if (user === null) return ended();
  if (user.id !== copy.user.id) return anotherUser();
  sessionFromDeviceCopy(true);
  setSessionUser(user);
  await queryClient.invalidateQueries();
  removeLine();
}

async function refresh(copy: ServerState, url: string): Promise<void> {
  if (!navigator.onLine) {
    unreachable(copy, url);
    return;
  }
  let html: string;
  try {
    const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'text/html' } });
    if (response.status >= 502 && response.status <= 504) throw new Error(`HTTP ${response.status}`);
    html = response.ok ? await response.text() : '';
  } catch {
    await whenPageHydrated();
    unreachable(copy, url);
    return;
  }
  const json = stateJsonOf(html);
  const fresh = json ? parseServerState(json) : null;
  // What hydrates must find the copy's data: the answers wait for the whole page.
  await whenPageHydrated();
  if (!fresh) return confirmThroughApi(copy, url);
  if (fresh.user.id !== copy.user.id) return anotherUser();
  return adopt(fresh, html, url);
}

/**
 * The page is the device's copy of `copy`'s page: its user is not confirmed yet, and the page
 * is asked of the server at once (the answer is used once the page has hydrated).
 */
export function adoptDeviceCopy(copy: ServerState): void {
  sessionFromDeviceCopy(false);
  void refresh(copy, copyKey(new URL(window.location.href))).catch(() => removeLine());
}
