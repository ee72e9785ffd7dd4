/*
 * Web push for BiciElis (decision 022), imported by the service worker that vite-plugin-pwa
 * generates (`workbox.importScripts` in vite.config.ts): a same-origin script, as the CSP
 * allows. The server sends JSON `{ title, body, url, tag?, lang? }`; a payload that is not JSON is
 * shown as the text of a notification titled BiciElis.
 */

const DEFAULT_TITLE = 'BiciElis';
const ICON = '/pwa-192x192.png';

/** Only addresses of this site are opened: a payload cannot send the person elsewhere. */
function sameOriginUrl(value) {
  try {
    const url = new URL(typeof value === 'string' && value !== '' ? value : '/dashboard', self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL('/dashboard', self.location.origin).href;
  } catch {
    return new URL('/dashboard', self.location.origin).href;
  }
}

function readPayload(data) {
  if (!data) return {};
  try {
    const parsed = data.json();
    return parsed && typeof parsed === 'object' ? parsed : { body: String(parsed) };
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const title = typeof payload.title === 'string' && payload.title !== '' ? payload.title : DEFAULT_TITLE;
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: ICON,
    badge: ICON,
    // The language the server wrote it in, when the payload says it (issue 36); Italian otherwise.
    lang: payload.lang === 'en' ? 'en' : 'it',
    data: { url: sameOriginUrl(payload.url) },
  };
  if (typeof payload.tag === 'string' && payload.tag !== '') options.tag = payload.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A window of the app already open: bring it forward on that address.
      for (const client of windows) {
        if (new URL(client.url).origin !== self.location.origin) continue;
        const focused = await client.focus();
        if (focused.url !== target && 'navigate' in focused) await focused.navigate(target);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
