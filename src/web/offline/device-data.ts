import type { QueuedAction } from './actions';
import { forgetDeviceUser } from './device-user';
import { stopOfflineSupport } from './offline-support';
import { clearActions, flushQueue, listActions } from './queue';

/**
 * Logout and the device (issue 22): what the user queued is sent first, then every personal
 * datum goes — the kept data, the remembered user, the queue, the pages the service worker kept.
 */

export interface LeftAtLogout {
  /** Refused by the server (now or earlier, not yet read): the logout tells each. */
  refused: QueuedAction[];
  /** Never reached the server: dropped with the rest, and the logout says so. */
  unsent: QueuedAction[];
}

/** Sends the user's waiting steps (while the session still is), and says what is left. */
export async function sendQueuedBeforeLogout(userId: number): Promise<LeftAtLogout> {
  try {
    await flushQueue(userId);
    const left = await listActions(userId);
    return { refused: left.filter((a) => a.stato === 'rifiutata'), unsent: left.filter((a) => a.stato === 'in_attesa') };
  } catch {
    return { refused: [], unsent: [] };
  }
}

/** After the server ended the session: nothing of the user stays on the device. */
export async function forgetDevice(): Promise<void> {
  stopOfflineSupport();
  await Promise.all([forgetDeviceUser().catch(() => undefined), clearActions().catch(() => undefined)]);
}
