import { apiRequest } from '../../lib/api';
import { base64UrlToBytes, pushSupport, type PushSupport } from './profile-model';
import { t } from '../../lib/i18n';

/*
 * Web push in this browser (decision 022): the subscription lives in the app's service
 * worker registration (vite-plugin-pwa's, which imports public/push-sw.js to show the
 * notifications); the server keeps its endpoint and keys (POST/DELETE /api/push/iscrizioni).
 */

/** What this browser allows, given the server's key. */
export function browserPushSupport(publicKey: string | null): PushSupport {
  return pushSupport(
    {
      serviceWorker: 'serviceWorker' in navigator,
      pushManager: typeof window.PushManager !== 'undefined',
      notification: typeof window.Notification !== 'undefined' ? Notification.permission : null,
    },
    publicKey,
  );
}

/** The app's service worker registration, or null (not registered: e.g. the dev server). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

/** This browser's current subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

export class PushRefused extends Error {
  override readonly name = 'PushRefused';
}

/** Asks permission, subscribes with the server's key and tells the server. */
export async function subscribeToPush(publicKey: string): Promise<PushSubscription> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new PushRefused(t('profile.pushBlocked'));
  }
  const reg = await registration();
  if (!reg) throw new PushRefused(t('profile.pushNotReady'));
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) }));
  const { endpoint, keys, expirationTime } = subscription.toJSON();
  try {
    // The browser's expiry, if it set one: the server drops the subscription after it (decision 029).
    await apiRequest('POST', '/api/push/iscrizioni', { endpoint, keys, expirationTime: expirationTime ?? null });
  } catch (error) {
    // Not kept on the server: not kept here either, so the button stays truthful.
    await subscription.unsubscribe().catch(() => undefined);
    throw error;
  }
  return subscription;
}

/** Tells the server, then unsubscribes this browser. */
export async function unsubscribeFromPush(subscription: PushSubscription): Promise<void> {
  await apiRequest('DELETE', '/api/push/iscrizioni', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}
