import type { SessionUser } from '../../shared/api-types';
import { deviceDb, type DeviceUserRecord } from './db';
import { DEVICE_DATA_MARK, PAGES_CACHE } from '../lib/offline-names';

/**
 * The last user the server confirmed on this device (issue 22), kept so that the app still
 * knows who is there when the server cannot be reached: their session cookie (HttpOnly, 30 days
 * from its last use) is still valid, only unreachable. A 401 forgets them.
 */

const USER_KEY = 'utente';
/** The session cookie's sliding lifetime: past it, the session is over whether or not the server says so. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

function mark(present: boolean): void {
  try {
    if (typeof localStorage === 'undefined') return;
    if (present) localStorage.setItem(DEVICE_DATA_MARK, '1');
    else localStorage.removeItem(DEVICE_DATA_MARK);
  } catch {
    // Storage refused (private mode): the session store then simply does not look offline.
  }
}

/**
 * The server just confirmed `user` (`now`: ms). Another user than the one remembered: what the
 * device kept of the previous one (their data, the pages the service worker kept) goes first.
 */
export async function saveDeviceUser(user: SessionUser, now = Date.now()): Promise<void> {
  const db = await deviceDb();
  const before = await db.get('dati', USER_KEY);
  if (typeof before === 'object' && before.user.id !== user.id) await forgetDeviceUser();
  await db.put('dati', { user, confirmedAt: now } satisfies DeviceUserRecord, USER_KEY);
  mark(true);
}

/** The last confirmed user, while their session can still be alive at `now`. */
export async function readDeviceUser(now = Date.now()): Promise<DeviceUserRecord | undefined> {
  const db = await deviceDb();
  const record = await db.get('dati', USER_KEY);
  if (typeof record !== 'object' || now - record.confirmedAt > SESSION_LIFETIME_MS) return undefined;
  return record;
}

/**
 * The session is over (a 401, logout): the user, their cached data and the pages the service
 * worker kept of them go. Their queued actions stay theirs (offline/queue.ts): logout sends or
 * drops them, another user's login drops them.
 */
export async function forgetDeviceUser(): Promise<void> {
  mark(false);
  const db = await deviceDb();
  await Promise.all([db.clear('dati'), typeof caches === 'undefined' ? undefined : caches.delete(PAGES_CACHE)]);
}
