import { tShared } from '../../shared/i18n/current';
import type { BookingDto } from '../../shared/schemas/booking';
import { answerKind, rideActionRequest, type QueuedAction } from './actions';
import { deviceDb } from './db';
import { QUEUE_CHANNEL, SYNC_TAG } from '../lib/offline-names';

/**
 * The ride steps that could not reach the server (issue 22), in IndexedDB, used by the page
 * (a tap offline, the `online` event, opening the app) and by the service worker (Background
 * Sync) alike. An action leaves the queue only when the server applied it (2xx) or refused it
 * for good and the user has read why (`dismissAction`); the server applies an `idAzione` once,
 * so sending one twice (page and worker both) is safe.
 */

/**
 * Tells every page and the worker that the queue changed (they read it again); `answered`:
 * because the server applied or refused some of it (the bookings changed too).
 */
function announce(answered = false): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(QUEUE_CHANNEL);
  channel.postMessage({ type: 'changed', answered });
  channel.close();
}

/** `listener` whenever any context changed the queue; returns the unsubscribe. */
export function onQueueChange(listener: (answered: boolean) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(QUEUE_CHANNEL);
  channel.onmessage = (event: MessageEvent<{ answered?: unknown }>) => listener(event.data?.answered === true);
  return () => channel.close();
}

interface SyncCapableRegistration extends ServiceWorkerRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/**
 * Asks the service worker to send the queue as soon as the browser is online, even with the
 * app closed (Background Sync, where the browser has it; elsewhere the page sends it itself).
 */
export async function requestBackgroundSync(): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const registration = (await navigator.serviceWorker.getRegistration()) as SyncCapableRegistration | undefined;
  await registration?.sync?.register(SYNC_TAG).catch(() => undefined);
}

/** Keeps the action until it is sent. */
export async function enqueue(action: QueuedAction): Promise<void> {
  const db = await deviceDb();
  await db.put('azioni', { ...action, stato: 'in_attesa' });
  announce();
}

/** The user's actions in the queue, in the order of the taps: waiting ones and refused ones not yet read. */
export async function listActions(userId: number): Promise<QueuedAction[]> {
  const db = await deviceDb();
  const all = await db.getAllFromIndex('azioni', 'perSequenza');
  return all.filter((a) => a.userId === userId);
}

/** The user has read a refusal: the action goes. */
export async function dismissAction(idAzione: string): Promise<void> {
  const db = await deviceDb();
  await db.delete('azioni', idAzione);
  announce();
}

/** Another user is confirmed on this device: the actions of anyone else can never be sent, and go. */
export async function dropActionsOfOthers(userId: number): Promise<void> {
  const db = await deviceDb();
  const tx = db.transaction('azioni', 'readwrite');
  let dropped = false;
  for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
    if (cursor.value.userId !== userId) {
      await cursor.delete();
      dropped = true;
    }
  }
  await tx.done;
  if (dropped) announce();
}

/** Empties the queue (logout). */
export async function clearActions(): Promise<void> {
  const db = await deviceDb();
  await db.clear('azioni');
  announce();
}

export interface FlushResult {
  /** Applied by the server, with the booking as it answered. */
  sent: { action: QueuedAction; booking: BookingDto | null }[];
  /** Refused for good: kept, `rifiutata`, with the server's message, for the user to read. */
  refused: QueuedAction[];
  /** Why sending stopped before the end, if it did: still waiting actions stay for the next time. */
  stopped: 'offline' | 'later' | null;
}

/** The one sender at a time across the page's tabs and the worker (the Web Locks API, where the browser has it). */
function exclusively<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // The lock's promise resolves with what the task's promise resolves with.
  return locks ? (locks.request(QUEUE_CHANNEL, task) as unknown as Promise<T>) : task();
}

async function refusalMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message.trim() !== '') return body.message;
  } catch {
    // Not JSON: the generic text below.
  }
  // In the reader's language: the page's, or the one the service worker set (sw.ts).
  return tShared('offline.serverRefused');
}

/**
 * Sends the user's waiting actions, oldest first, with the session cookie; stops at the first
 * one that cannot reach the server (or that the server cannot take now), keeping it and those
 * after it for the next time.
 */
export function flushQueue(userId: number, send: typeof fetch = (input, init) => fetch(input, init)): Promise<FlushResult> {
  return exclusively(async () => {
    const result: FlushResult = { sent: [], refused: [], stopped: null };
    const db = await deviceDb();
    const waiting = (await listActions(userId)).filter((a) => a.stato === 'in_attesa');
    for (const queued of waiting) {
      // Another sender (a tab without the Web Locks API) may have dealt with it meanwhile.
      const action = await db.get('azioni', queued.idAzione);
      if (action?.stato !== 'in_attesa') continue;
      const { url, body } = rideActionRequest(action);
      let res: Response;
      try {
        res = await send(url, {
          method: 'POST',
          credentials: 'include',
          headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      } catch {
        result.stopped = 'offline';
        break;
      }
      const kind = answerKind(res.status);
      if (kind === 'applied') {
        const booking = (await res.json().catch(() => null)) as (BookingDto & { nuovoCodice?: string | null }) | null;
        // The code the server kept for a pick-up made offline: the device's, or its own when the
        // device's could not be taken (issue 34). The return then shows the one the lock will get.
        if (action.tipo === 'ritiro' && booking?.nuovoCodice) {
          const code = booking.nuovoCodice;
          await import('./lock-codes').then((codes) => codes.keepNewCode(action.prenotazioneId, code)).catch(() => undefined);
        }
        await db.delete('azioni', action.idAzione);
        result.sent.push({ action, booking });
      } else if (kind === 'refused') {
        const refused: QueuedAction = { ...action, stato: 'rifiutata', messaggio: await refusalMessage(res) };
        await db.put('azioni', refused);
        result.refused.push(refused);
      } else {
        result.stopped = 'later';
        break;
      }
    }
    if (result.sent.length > 0 || result.refused.length > 0) announce(true);
    return result;
  });
}
