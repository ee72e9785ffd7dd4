import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../../shared/api-types';
import { DEVICE_DATA_MARK } from './offline-names';
import { ApiError, apiGet } from './api';

/**
 * Who is logged in, read from GET /api/current-user once per page load and kept until a
 * screen says otherwise (login, registration, logout, password change). A small store of
 * its own rather than a TanStack query: the first screen (login, or the loading state) needs
 * only this, so the query library stays out of the first download and comes with the
 * screens that use it (screens.tsx). docs/decisions/019-first-paint.md.
 */
export interface SessionSnapshot {
  /** The user; `null` when anonymous; `undefined` while the first read runs. */
  data: SessionUser | null | undefined;
  isPending: boolean;
}

const PENDING: SessionSnapshot = { data: undefined, isPending: true };
let snapshot: SessionSnapshot = PENDING;
let started = false;
/** Bumped by every change: a read that began before it does not overwrite it. */
let version = 0;
const listeners = new Set<() => void>();

function publish(next: SessionSnapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

/** Whether this device keeps a user's data for offline use (offline/device-user.ts, issue 22). */
function keepsDeviceData(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(DEVICE_DATA_MARK) !== null;
  } catch {
    return false;
  }
}
const offlineSession = () => import('../offline/session-fallback');

/**
 * A 401 means anonymous (and what the device kept of the last user goes). When the server
 * cannot be reached (offline, server down), the user this device last saw, whose session
 * cookie still holds (issue 22); without one, anonymous, so the login screen shows instead of
 * a blank page.
 */
async function readCurrentUser(): Promise<SessionUser | null> {
  try {
    const user = await apiGet<SessionUser>('/api/current-user', 'returnNull');
    if (user === null && keepsDeviceData()) void offlineSession().then((m) => m.sessionEnded());
    return user;
  } catch (error) {
    if ((error instanceof ApiError && error.status < 500) || !keepsDeviceData()) return null;
    return offlineSession().then(
      (m) => m.deviceUserWhileOffline(refreshSession),
      () => null,
    );
  }
}

/** Reads the session again (now, or at start-up from boot/main.tsx before the first render). */
export function refreshSession(): Promise<void> {
  started = true;
  const mine = ++version;
  return readCurrentUser().then((user) => {
    if (mine === version) publish({ data: user, isPending: false });
  });
}

/** The session as a screen just learnt it (the user of a login or registration, or `null`). */
export function setSessionUser(user: SessionUser | null): void {
  started = true;
  version++;
  publish({ data: user, isPending: false });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!started) void refreshSession();
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Calls `then` with the user once the session is known (at once if it is): for work that
 * can start before any screen renders, such as a screen's first reads.
 */
export function whenSessionKnown(then: (user: SessionUser | null) => void): void {
  if (!snapshot.isPending) {
    then(snapshot.data ?? null);
    return;
  }
  const listener = () => {
    if (snapshot.isPending) return;
    listeners.delete(listener);
    then(snapshot.data ?? null);
  };
  listeners.add(listener);
  if (!started) void refreshSession();
}

/** The session as last known (what `useCurrentUser` renders). */
export const currentSession = (): SessionSnapshot => snapshot;
const getSnapshot = currentSession;
/**
 * What the page's HTML was rendered with: at build time (pre-rendering) the session is not
 * known yet; a page the server rendered for its user (issue 22) was rendered with that user.
 */
let rendered: SessionSnapshot = PENDING;
const getServerSnapshot = () => rendered;

/**
 * The session a server-rendered page was made for (issue 22, decision 027): the store starts
 * from it without asking GET /api/current-user, and hydration renders with it, as the server
 * did. On the server, each render seeds its user and `seedSession(undefined)` forgets it.
 */
export function seedSession(user: SessionUser | undefined): void {
  rendered = user ? { data: user, isPending: false } : PENDING;
  started = user !== undefined;
  version++;
  publish(rendered);
}

/** The logged-in user (`data: null` when anonymous), as `{ data, isPending }`. */
export function useCurrentUser(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
