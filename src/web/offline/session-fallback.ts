import type { SessionUser } from '../../shared/api-types';
import { forgetDeviceUser, readDeviceUser, saveDeviceUser } from './device-user';

/**
 * What lib/session.ts loads when the server cannot be reached or says 401 (issue 22), so that
 * none of it is in the first download.
 */

let fromDevice = false;
/** A repeat open painted from the device's copy of the page (boot/device-copy.ts), until the server answers. */
let fromDeviceCopy = false;

/** Whether the session shown is the one this device remembered, not yet confirmed by the server. */
export function isSessionFromDevice(): boolean {
  return fromDevice;
}

/**
 * Whether the server confirmed the session shown: not when it is the device's (offline), nor
 * while a page painted from the device's copy waits for the server. Only a confirmed user is
 * remembered again on the device, or has the others' data dropped for them.
 */
export function isSessionConfirmed(): boolean {
  return !fromDevice && !fromDeviceCopy;
}

/**
 * `user`, shown by a page that keeps no data of its own on the device (/admin, /officina), is remembered
 * there once the server has confirmed them: the service worker paints that page's copy on a
 * repeat open only for the device's user (sw.ts, decision 047).
 */
export async function rememberConfirmedUser(user: SessionUser): Promise<void> {
  if (isSessionConfirmed()) await saveDeviceUser(user);
}

/** The page shown is the device's copy: its user is the device's, until `copyConfirmed()`. */
export function sessionFromDeviceCopy(confirmed: boolean): void {
  fromDeviceCopy = !confirmed;
}

function confirmWhenOnline(refreshSession: () => Promise<void>): void {
  window.addEventListener(
    'online',
    () => {
      fromDevice = false;
      // The server says again who is logged in (a 401 now means the session ended meanwhile).
      void refreshSession();
    },
    { once: true },
  );
}

/**
 * The user this device last saw, while the server is unreachable (their session cookie is
 * still valid, only the network is missing), or `null`. `refreshSession`: lib/session.ts's,
 * called when the browser is online again (passed in: that module loads this one).
 */
export async function deviceUserWhileOffline(refreshSession: () => Promise<void>): Promise<SessionUser | null> {
  const record = await readDeviceUser().catch(() => undefined);
  if (!record) return null;
  if (!fromDevice) confirmWhenOnline(refreshSession);
  fromDevice = true;
  return record.user;
}

/** The server said 401: whatever this device kept of the last user goes. */
export function sessionEnded(): Promise<void> {
  fromDevice = false;
  return forgetDeviceUser().catch(() => undefined);
}
